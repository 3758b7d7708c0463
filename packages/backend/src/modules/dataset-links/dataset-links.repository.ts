import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { DatasetLinkEntity } from './dataset-link.entity.js';

registerConstraintCodes({
  uq_dataset_links_pair_active: 'DATASET_LINK_ALREADY_EXISTS',
  fk_dataset_links_source_dataset: 'DATASET_NOT_FOUND',
  fk_dataset_links_target_dataset: 'DATASET_NOT_FOUND',
  fk_dataset_links_source_schema: 'DATASET_SCHEMA_NOT_FOUND',
  fk_dataset_links_target_schema: 'DATASET_SCHEMA_NOT_FOUND',
  fk_dataset_links_engine: 'ENGINE_NOT_FOUND',
});

@Injectable()
export class DatasetLinksRepository {
  readonly crud: CrudRepository<DatasetLinkEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: DatasetLinkEntity,
      notFound: 'DATASET_LINK_NOT_FOUND',
      softDelete: true,
    });
  }

  /** The active link of a pair other than `exceptId`, if any. */
  async activePairExists(
    sourceId: string,
    targetId: string,
    exceptId: string | null,
    manager: EntityManager,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM dataset_links
       WHERE source_dataset_id = $1 AND target_dataset_id = $2 AND deleted_at IS NULL
         AND ($3::uuid IS NULL OR id <> $3::uuid)
       LIMIT 1`,
      [sourceId, targetId, exceptId],
    );
    return rows.length > 0;
  }
}
