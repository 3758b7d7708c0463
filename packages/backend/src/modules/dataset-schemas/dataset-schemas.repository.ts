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
   * row itself (its updates and field inserts go on). Many datasets are locked in one statement, in id
   * order, so that two batches over the same datasets cannot deadlock.
   */
  async lockVersioning(datasetIds: string | readonly string[], manager: EntityManager): Promise<void> {
    const ids = typeof datasetIds === 'string' ? [datasetIds] : [...datasetIds].sort();
    if (ids.length === 0) return;
    await manager.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('dataset_schemas:' || id, 0))
       FROM (SELECT id FROM unnest($1::text[]) AS id ORDER BY id) AS ordered`,
      [ids],
    );
  }

  async nextVersionNum(datasetId: string, manager: EntityManager): Promise<number> {
    return (await this.nextVersionNums([datasetId], manager)).get(datasetId) ?? 1;
  }

  /** The next version number of each dataset (highest + 1, or 1), keyed by the ids as given. */
  async nextVersionNums(datasetIds: readonly string[], manager: EntityManager): Promise<Map<string, number>> {
    if (datasetIds.length === 0) return new Map();
    const rows: { id: string; next: number }[] = await manager.query(
      `SELECT u.id, COALESCE(MAX(s.version_num), 0) + 1 AS next
       FROM unnest($1::text[]) AS u(id) LEFT JOIN dataset_schemas s ON s.dataset_id = u.id::uuid
       GROUP BY u.id`,
      [datasetIds],
    );
    return new Map(rows.map((r) => [r.id, Number(r.next)]));
  }

  /** Which of the (dataset, version number) pairs exist, as `dataset_id/version_num` keys. */
  async existingVersions(
    pairs: readonly { dataset_id: string; version_num: number }[],
    manager: EntityManager,
  ): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows: { key: string }[] = await manager.query(
      `SELECT u.id || '/' || u.num AS key
       FROM unnest($1::text[], $2::int[]) AS u(id, num)
       WHERE EXISTS (SELECT 1 FROM dataset_schemas s WHERE s.dataset_id = u.id::uuid AND s.version_num = u.num)`,
      [pairs.map((p) => p.dataset_id), pairs.map((p) => p.version_num)],
    );
    return new Set(rows.map((r) => r.key));
  }

  async hasBindings(schemaId: string, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await (manager ?? this.crud.repo().manager).query(
      'SELECT 1 FROM field_bindings WHERE dataset_schema_id = $1 LIMIT 1',
      [schemaId],
    );
    return rows.length > 0;
  }

  /** The type tree of each column of the version (null: no type), in column order. */
  async boundTypesInOrder(schemaId: string, manager: EntityManager): Promise<(string | null)[]> {
    const rows: { type_instance_id: string | null }[] = await manager.query(
      'SELECT type_instance_id FROM field_bindings WHERE dataset_schema_id = $1 ORDER BY position',
      [schemaId],
    );
    return rows.map((r) => r.type_instance_id);
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
    // Per dataset, its versions newest first through the (dataset_id, version_num) index.
    return manager.query(
      `SELECT s.* FROM unnest($1::uuid[]) AS d(id)
       CROSS JOIN LATERAL (
         SELECT s.* FROM dataset_schemas s
         WHERE s.dataset_id = d.id
           AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = s.id)
         ORDER BY s.version_num DESC LIMIT 1
       ) s`,
      [[...new Set(datasetIds)]],
    );
  }

  /** Version headers by id (those that exist), in one query. */
  async findByIds(ids: readonly string[], manager: EntityManager): Promise<DatasetSchemaEntity[]> {
    if (ids.length === 0) return [];
    return manager.query(`SELECT s.* FROM dataset_schemas s WHERE s.id = ANY($1::uuid[])`, [
      [...new Set(ids)],
    ]);
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

  /**
   * Dataset links pinning the version, soft-deleted ones included (their foreign key still holds it):
   * the delete guard.
   */
  async countPinningLinks(schemaId: string, manager: EntityManager): Promise<number> {
    const rows: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM dataset_links WHERE source_schema_id = $1 OR target_schema_id = $1`,
      [schemaId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Version headers of a publish, one INSERT, in input order. */
  insertHeaders(
    rows: readonly Partial<DatasetSchemaEntity>[],
    actorId: string,
    manager: EntityManager,
  ): Promise<DatasetSchemaEntity[]> {
    return this.crud.insertMany(rows, actorId, manager);
  }
}
