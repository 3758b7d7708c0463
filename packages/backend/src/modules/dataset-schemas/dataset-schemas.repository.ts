import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { DatasetSchemaEntity } from './dataset-schema.entity.js';

registerConstraintCodes({
  uq_dataset_schemas_dataset_version: 'DATASET_SCHEMA_ALREADY_EXISTS',
  fk_dataset_schemas_dataset: 'DATASET_NOT_FOUND',
});

@Injectable()
export class DatasetSchemasRepository {
  readonly crud: CrudRepository<DatasetSchemaEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: DatasetSchemaEntity,
      notFound: 'DATASET_SCHEMA_NOT_FOUND',
      softDelete: false,
    });
  }

  /**
   * Serialises version numbering per dataset until the transaction ends, without locking the dataset
   * row itself (its updates and field inserts go on).
   */
  async lockVersioning(datasetId: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('dataset_schemas:' || $1, 0))`, [
      datasetId,
    ]);
  }

  async nextVersionNum(datasetId: string, manager: EntityManager): Promise<number> {
    const rows: { next: number }[] = await manager.query(
      'SELECT COALESCE(MAX(version_num), 0) + 1 AS next FROM dataset_schemas WHERE dataset_id = $1',
      [datasetId],
    );
    return Number(rows[0]?.next ?? 1);
  }

  async hasBindings(schemaId: string, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.crud.repo().manager).query(
      'SELECT 1 FROM field_bindings WHERE dataset_schema_id = $1 LIMIT 1',
      [schemaId],
    );
    return rows.length > 0;
  }

  /** The current version: the highest version that has bindings. */
  async findCurrent(datasetId: string, manager?: EntityManager): Promise<DatasetSchemaEntity | undefined> {
    return (
      (await this.crud
        .repo(manager)
        .createQueryBuilder('s')
        .where('s.dataset_id = :datasetId', { datasetId })
        .andWhere('EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = s.id)')
        .orderBy('s.version_num', 'DESC')
        .limit(1)
        .getOne()) ?? undefined
    );
  }

  /**
   * The current version of each of many datasets, in one query (datasets without one are absent). Raw
   * rows: the columns are the entity's properties, and a thousand headers skip the entity mapping.
   */
  async findCurrentOfMany(
    datasetIds: readonly string[],
    manager: EntityManager,
  ): Promise<DatasetSchemaEntity[]> {
    if (datasetIds.length === 0) return [];
    return manager.query(
      `SELECT DISTINCT ON (s.dataset_id) s.* FROM dataset_schemas s
       WHERE s.dataset_id = ANY($1::uuid[])
         AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = s.id)
       ORDER BY s.dataset_id, s.version_num DESC`,
      [datasetIds],
    );
  }

  async findByVersion(datasetId: string, versionNum: number, manager?: EntityManager) {
    return (
      (await this.crud.repo(manager).findOneBy({ dataset_id: datasetId, version_num: versionNum })) ??
      undefined
    );
  }

  /** Every version of a dataset with its column count, newest first. */
  async history(datasetId: string): Promise<(DatasetSchemaEntity & { column_count: number })[]> {
    const rows: (DatasetSchemaEntity & { column_count: string })[] = await this.crud.repo().manager.query(
      `SELECT s.*, (SELECT count(*) FROM field_bindings b WHERE b.dataset_schema_id = s.id) AS column_count
       FROM dataset_schemas s WHERE s.dataset_id = $1 ORDER BY s.version_num DESC`,
      [datasetId],
    );
    return rows.map((r) => ({ ...r, column_count: Number(r.column_count) }));
  }
}
