import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { FieldEntity } from './field.entity.js';

registerConstraintCodes({
  uq_fields_root_name: 'FIELD_ALREADY_EXISTS',
  uq_fields_nested_name: 'FIELD_ALREADY_EXISTS',
  fk_fields_dataset: 'DATASET_NOT_FOUND',
  fk_fields_parent: 'FIELD_PARENT_NOT_FOUND',
});

@Injectable()
export class FieldsRepository {
  readonly crud: CrudRepository<FieldEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: FieldEntity,
      notFound: 'FIELD_NOT_FOUND',
      softDelete: false,
    });
  }

  /** Every field of a dataset (all levels), ordered for tree building. */
  async findByDataset(datasetId: string, manager?: EntityManager): Promise<FieldEntity[]> {
    return this.crud
      .repo(manager)
      .createQueryBuilder('f')
      .where('f.dataset_id = :datasetId', { datasetId })
      .orderBy('f.name', 'ASC')
      .addOrderBy('f.id', 'ASC')
      .getMany();
  }

  async findChildren(parentId: string, manager?: EntityManager): Promise<FieldEntity[]> {
    return this.crud
      .repo(manager)
      .createQueryBuilder('f')
      .where('f.parent_id = :parentId', { parentId })
      .orderBy('f.name', 'ASC')
      .getMany();
  }

  /** Ids of `fieldId` and all its ancestors, nearest first (one recursive query). */
  async ancestorIds(fieldId: string, manager?: EntityManager): Promise<string[]> {
    const rows: { id: string }[] = await (manager ?? this.crud.repo().manager).query(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM fields WHERE id = $1
         UNION ALL
         SELECT f.id, f.parent_id, up.depth + 1 FROM fields f JOIN up ON f.id = up.parent_id WHERE up.depth < 1000
       ) SELECT id FROM up ORDER BY depth`,
      [fieldId],
    );
    return rows.map((r) => r.id);
  }

  /** Whether the field or one of its descendants is bound in a schema version (one recursive query). */
  async isBound(fieldId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH RECURSIVE down(id, depth) AS (
         SELECT id, 0 FROM fields WHERE id = $1
         UNION ALL
         SELECT f.id, down.depth + 1 FROM fields f JOIN down ON f.parent_id = down.id WHERE down.depth < 1000
       )
       SELECT 1 FROM field_bindings b JOIN down ON b.field_id = down.id LIMIT 1`,
      [fieldId],
    );
    return rows.length > 0;
  }

  /** Root fields of a dataset by name, for publishing a version. */
  async findRootsByNames(
    datasetId: string,
    names: readonly string[],
    manager: EntityManager,
  ): Promise<FieldEntity[]> {
    if (names.length === 0) return [];
    return this.crud
      .repo(manager)
      .createQueryBuilder('f')
      .where('f.dataset_id = :datasetId AND f.parent_id IS NULL AND f.name IN (:...names)', {
        datasetId,
        names,
      })
      .getMany();
  }
}
