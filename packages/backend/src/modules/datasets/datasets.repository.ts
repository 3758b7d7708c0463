import type { DatasetKind, ListQuery, Page } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { PolymorphicReads } from '../../common/crud/polymorphic.js';
import { AppError } from '../../common/errors/app-error.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { DATASET_KIND_ENTITIES, DatasetEntity } from './dataset.entity.js';

registerConstraintCodes({
  uq_datasets_system_object_active: 'DATASET_ALREADY_EXISTS',
  fk_datasets_system: 'SYSTEM_NOT_FOUND',
});

/** Datasets with their kind details (all five kind tables joined in the same query). */
@Injectable()
export class DatasetsRepository {
  readonly crud: CrudRepository<DatasetEntity>;
  private readonly reads: PolymorphicReads<DatasetEntity, DatasetKind>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: DatasetEntity,
      notFound: 'DATASET_NOT_FOUND',
      softDelete: true,
    });
    this.reads = new PolymorphicReads(this.crud, DATASET_KIND_ENTITIES);
  }

  findPage(query: ListQuery): Promise<Page<DatasetEntity>> {
    return this.reads.findPage(query);
  }

  findWithDetails(id: string, manager?: EntityManager, includeDeleted = false) {
    return this.reads.findOne(id, manager, includeDeleted);
  }

  async getWithDetails(id: string, manager?: EntityManager): Promise<DatasetEntity> {
    const row = await this.findWithDetails(id, manager);
    if (!row) throw new AppError('DATASET_NOT_FOUND');
    return row;
  }

  insertDetails(kind: DatasetKind, id: string, details: Record<string, unknown>, manager: EntityManager) {
    return this.reads.insertDetails(kind, id, details, manager);
  }

  updateDetails(kind: DatasetKind, id: string, details: Record<string, unknown>, manager: EntityManager) {
    return this.reads.updateDetails(kind, id, details, manager);
  }
  /** The flavor of the dataset's system (for resolving type codes when publishing a version). */
  async flavorIdOf(datasetId: string, manager: EntityManager): Promise<string> {
    const rows: { flavor_id: string }[] = await manager.query(
      'SELECT s.flavor_id FROM datasets d JOIN systems s ON s.id = d.system_id WHERE d.id = $1',
      [datasetId],
    );
    if (!rows[0]) throw new AppError('DATASET_NOT_FOUND');
    return rows[0].flavor_id;
  }
}
