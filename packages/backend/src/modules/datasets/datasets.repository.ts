import type { DatasetKind, ListQuery, Page } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { PolymorphicReads } from '../../common/crud/polymorphic.js';
import { AppError } from '../../common/errors/app-error.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { DATASET_KIND_ENTITIES, DatasetEntity, type DatasetRow } from './dataset.entity.js';

registerConstraintCodes({
  uq_datasets_system_object_active: 'DATASET_ALREADY_EXISTS',
  fk_datasets_system: 'SYSTEM_NOT_FOUND',
  fk_datasets_flavor: 'SYSTEM_FLAVOR_NOT_FOUND',
  // A kind's detail row is written with its dataset, in the same transaction.
  fk_dataset_rdbms_dataset: 'DATASET_NOT_FOUND',
  fk_dataset_kafka_dataset: 'DATASET_NOT_FOUND',
  fk_dataset_storage_dataset: 'DATASET_NOT_FOUND',
  fk_dataset_sftp_dataset: 'DATASET_NOT_FOUND',
  fk_dataset_hive_dataset: 'DATASET_NOT_FOUND',
});

/** Datasets with their kind details (all five kind tables joined in the same query). */
/** Active rows of `table` with the dataset as `source_dataset_id` or as `otherEnd` (constants). */
async function countActiveAtEitherEnd(
  manager: EntityManager,
  table: string,
  otherEnd: string,
  datasetId: string,
): Promise<number> {
  const rows: { n: number }[] = await manager.query(
    `SELECT count(*)::int AS n FROM ${table}
     WHERE (source_dataset_id = $1 OR ${otherEnd} = $1) AND deleted_at IS NULL`,
    [datasetId],
  );
  return rows[0]?.n ?? 0;
}

@Injectable()
export class DatasetsRepository {
  readonly crud: CrudRepository<DatasetEntity>;
  private readonly reads: PolymorphicReads<DatasetEntity, DatasetKind, typeof DATASET_KIND_ENTITIES>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: DatasetEntity,
      notFound: 'DATASET_NOT_FOUND',
      softDelete: true,
    });
    this.reads = new PolymorphicReads(this.crud, DATASET_KIND_ENTITIES);
  }

  findPage(query: ListQuery): Promise<Page<DatasetRow>> {
    return this.reads.findPage(query);
  }

  findWithDetails(id: string, manager?: EntityManager, includeDeleted = false) {
    return this.reads.findOne(id, manager, includeDeleted);
  }

  async getWithDetails(id: string, manager?: EntityManager, includeDeleted = false): Promise<DatasetRow> {
    const row = await this.findWithDetails(id, manager, includeDeleted);
    if (!row) throw new AppError('DATASET_NOT_FOUND');
    return row;
  }

  insertDetails(kind: DatasetKind, id: string, details: Record<string, unknown>, manager: EntityManager) {
    return this.reads.insertDetails(kind, id, details, manager);
  }

  updateDetails(kind: DatasetKind, id: string, details: Record<string, unknown>, manager: EntityManager) {
    return this.reads.updateDetails(kind, id, details, manager);
  }

  /** The kind rows of many datasets of one kind, in one INSERT. */
  async insertDetailsMany(
    kind: DatasetKind,
    rows: readonly ({ id: string } & Record<string, unknown>)[],
    manager: EntityManager,
  ): Promise<void> {
    if (rows.length === 0) return;
    await manager.getRepository(DATASET_KIND_ENTITIES[kind]).insert(rows as never);
  }

  /** Many datasets with their details, in one query, in the order of `ids`. */
  async findManyWithDetails(ids: readonly string[], manager: EntityManager): Promise<DatasetRow[]> {
    const rows = await this.reads
      .withDetails('p', manager)
      .where('p.id = ANY(:ids::uuid[])', { ids: [...ids] })
      .getMany();
    const byId = new Map(rows.map((r) => [r.id, this.reads.attach(r)]));
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) throw new AppError('DATASET_NOT_FOUND');
      return row;
    });
  }

  /** The active datasets of the given systems with the given names, keyed `system_id/object_name`. */
  async findActiveIdsByNames(
    pairs: readonly { system_id: string; object_name: string }[],
    manager?: EntityManager,
  ): Promise<Map<string, string>> {
    if (pairs.length === 0) return new Map();
    const rows: { id: string; system_id: string; object_name: string }[] = await this.crud
      .repo(manager)
      .manager.query(
        `SELECT d.id, d.system_id, d.object_name FROM datasets d
         JOIN unnest($1::uuid[], $2::text[]) AS p(system_id, object_name)
           ON d.system_id = p.system_id AND d.object_name = p.object_name
         WHERE d.deleted_at IS NULL`,
        [pairs.map((p) => p.system_id), pairs.map((p) => p.object_name)],
      );
    return new Map(rows.map((r) => [`${r.system_id}/${r.object_name}`, r.id]));
  }

  /**
   * The targets foreign keys may name: active datasets by id (any system), and the active rdbms datasets
   * of a system by table name. One query whatever the number of keys and systems.
   */
  async findTableTargets(
    ids: readonly string[],
    tables: readonly { system_id: string; table: string }[],
    manager: EntityManager,
  ): Promise<{ id: string; system_id: string; schema_name: string | null; table_name: string | null }[]> {
    if (ids.length === 0 && tables.length === 0) return [];
    // Two index reads (by id; by table name through ix_dataset_rdbms_table_name), not one OR that
    // only a scan of every dataset can answer.
    return manager.query(
      `SELECT d.id, d.system_id, r.schema_name, r.table_name
       FROM datasets d LEFT JOIN dataset_rdbms r ON r.id = d.id
       WHERE d.deleted_at IS NULL AND d.id = ANY($1::uuid[])
       UNION
       SELECT d.id, d.system_id, r.schema_name, r.table_name
       FROM unnest($2::uuid[], $3::text[]) AS t(system_id, table_name)
       JOIN dataset_rdbms r ON r.table_name = t.table_name
       JOIN datasets d ON d.id = r.id AND d.system_id = t.system_id AND d.deleted_at IS NULL`,
      [ids, tables.map((t) => t.system_id), tables.map((t) => t.table)],
    );
  }

  /**
   * A page of a system's active datasets with their kind details, by id after `afterId` (keyset
   * paging: one query, stable under concurrent inserts).
   */
  async findSystemPage(
    systemId: string,
    afterId: string | null,
    limit: number,
    manager?: EntityManager,
  ): Promise<DatasetRow[]> {
    // The page's ids from ix_datasets_system_id_active first, then only those rows joined to the kind
    // tables (by primary key): the cost follows the page, not the catalogue.
    const ids = this.crud
      .repo(manager)
      .createQueryBuilder('s')
      .select('s.id')
      .where('s.system_id = :systemId AND s.deleted_at IS NULL', { systemId })
      .orderBy('s.id')
      .limit(limit);
    if (afterId) ids.andWhere('s.id > :afterId', { afterId });
    const qb = this.reads
      .withDetails('d', manager)
      .where(`d.id = ANY(ARRAY(${ids.getQuery()}))`)
      .setParameters(ids.getParameters())
      .orderBy('d.id');
    return this.reads.getManyRaw(qb, 'd');
  }

  /** The given datasets of a system, deleted ones aside, in id order (the snapshot's versions route). */
  async findSystemDatasets(
    systemId: string,
    ids: readonly string[],
    manager?: EntityManager,
  ): Promise<DatasetRow[]> {
    if (ids.length === 0) return [];
    const qb = this.reads
      .withDetails('d', manager)
      .where('d.id = ANY(:ids::uuid[]) AND d.system_id = :systemId AND d.deleted_at IS NULL', {
        ids: [...new Set(ids)],
        systemId,
      })
      .orderBy('d.id');
    return this.reads.getManyRaw(qb, 'd');
  }

  /** Whether a version of the dataset has bound columns (typed in the dataset's flavor). */
  async hasBoundVersions(datasetId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM dataset_schemas v WHERE v.dataset_id = $1
         AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = v.id)
       LIMIT 1`,
      [datasetId],
    );
    return rows.length > 0;
  }

  /** Active dataset links with the dataset on either side (the delete guard). */
  countActiveLinks(datasetId: string, manager: EntityManager): Promise<number> {
    return countActiveAtEitherEnd(manager, 'dataset_links', 'target_dataset_id', datasetId);
  }

  /** Active dataflows reading or writing the dataset (the delete guard). */
  countActiveDataflows(datasetId: string, manager: EntityManager): Promise<number> {
    return countActiveAtEitherEnd(manager, 'dataflows', 'destination_dataset_id', datasetId);
  }

  /**
   * The flavor a dataset's columns are typed in — its own, else its system's (ADR 0045) — for resolving
   * type codes when publishing a version. The dataset and system rows are share-locked, so neither
   * flavor can change before the version is committed.
   */
  async flavorIdOf(datasetId: string, manager: EntityManager): Promise<string> {
    const flavorId = (await this.flavorIdsOf([datasetId], manager)).get(datasetId);
    if (flavorId === undefined) throw new AppError('DATASET_NOT_FOUND');
    return flavorId;
  }

  /** The code of the flavor a dataset's columns are typed in (its own, else its system's); no locks. */
  async flavorCodeOf(datasetId: string, manager: EntityManager): Promise<string | undefined> {
    const rows: { code: string }[] = await manager.query(
      `SELECT f.code FROM datasets d JOIN systems s ON s.id = d.system_id
       JOIN system_flavors f ON f.id = COALESCE(d.flavor_id, s.flavor_id) WHERE d.id = $1`,
      [datasetId],
    );
    return rows[0]?.code;
  }

  /** `flavorIdOf` for many datasets in one query, by dataset id. */
  async flavorIdsOf(datasetIds: readonly string[], manager: EntityManager): Promise<Map<string, string>> {
    if (datasetIds.length === 0) return new Map();
    const rows: { id: string; flavor_id: string }[] = await manager.query(
      `SELECT d.id, COALESCE(d.flavor_id, s.flavor_id) AS flavor_id FROM datasets d
       JOIN systems s ON s.id = d.system_id
       WHERE d.id = ANY($1::uuid[]) ORDER BY s.id, d.id FOR SHARE OF d, s`,
      [[...new Set(datasetIds)]],
    );
    return new Map(rows.map((r) => [r.id, r.flavor_id]));
  }

  /**
   * Active datasets held FOR SHARE until the transaction ends (none can be deleted under a publish),
   * with their systems and their flavors (own, else the system's): one query for any number, keyed by
   * dataset id.
   */
  async findActiveWithFlavor(
    ids: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, { id: string; system_id: string; flavor_id: string }>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; system_id: string; flavor_id: string }[] = await manager.query(
      `SELECT d.id, d.system_id, COALESCE(d.flavor_id, s.flavor_id) AS flavor_id
       FROM datasets d JOIN systems s ON s.id = d.system_id
       WHERE d.id = ANY($1::uuid[]) AND d.deleted_at IS NULL FOR SHARE OF d, s`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }
}
