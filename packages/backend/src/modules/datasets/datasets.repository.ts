import type { DatasetKind, ListQuery, Page } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { applyFilters, applySort, fetchPage } from '../../common/crud/list.js';
import { AppError } from '../../common/errors/app-error.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { DATASET_KIND_ENTITIES, DatasetEntity } from './dataset.entity.js';

registerConstraintCodes({
  uq_datasets_system_object_active: 'DATASET_ALREADY_EXISTS',
  fk_datasets_system: 'SYSTEM_NOT_FOUND',
});

const KINDS = Object.keys(DATASET_KIND_ENTITIES) as DatasetKind[];

/**
 * Datasets with their kind details. Reads join all five kind tables in the same query, so a page costs
 * two queries (rows and count) whatever its size.
 */
@Injectable()
export class DatasetsRepository {
  readonly crud: CrudRepository<DatasetEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: DatasetEntity,
      notFound: 'DATASET_NOT_FOUND',
      softDelete: true,
    });
  }

  private withDetails(manager?: EntityManager): SelectQueryBuilder<DatasetEntity> {
    const qb = this.crud.repo(manager).createQueryBuilder('d');
    for (const kind of KINDS) {
      qb.leftJoinAndMapOne(`d.${kind}`, DATASET_KIND_ENTITIES[kind], kind, `${kind}.id = d.id`);
    }
    return qb;
  }

  private static attachDetails(row: DatasetEntity): DatasetEntity {
    const joined = row as DatasetEntity & Partial<Record<DatasetKind, Record<string, unknown>>>;
    row.details = joined[row.kind] ?? {};
    for (const kind of KINDS) delete joined[kind];
    return row;
  }

  async findPage(query: ListQuery): Promise<Page<DatasetEntity>> {
    const qb = this.withDetails();
    if (!query.include_deleted) qb.where('d.deleted_at IS NULL');
    applyFilters(qb, 'd', query.filters);
    applySort(qb, 'd', query.sort);
    const page = await fetchPage(qb, query);
    for (const item of page.items) DatasetsRepository.attachDetails(item);
    return page;
  }

  async findWithDetails(
    id: string,
    manager?: EntityManager,
    includeDeleted = false,
  ): Promise<DatasetEntity | undefined> {
    const qb = this.withDetails(manager).where('d.id = :id', { id });
    if (!includeDeleted) qb.andWhere('d.deleted_at IS NULL');
    const row = await qb.getOne();
    return row ? DatasetsRepository.attachDetails(row) : undefined;
  }

  async getWithDetails(id: string, manager?: EntityManager): Promise<DatasetEntity> {
    const row = await this.findWithDetails(id, manager);
    if (!row) throw new AppError('DATASET_NOT_FOUND');
    return row;
  }

  async insertDetails(
    kind: DatasetKind,
    id: string,
    details: Record<string, unknown>,
    manager: EntityManager,
  ) {
    await manager.getRepository(DATASET_KIND_ENTITIES[kind]).insert({ ...details, id });
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
  async findManyWithDetails(ids: readonly string[], manager: EntityManager): Promise<DatasetEntity[]> {
    const rows = await this.withDetails(manager)
      .where('d.id = ANY(:ids::uuid[])', { ids: [...ids] })
      .getMany();
    const byId = new Map(rows.map((r) => [r.id, DatasetsRepository.attachDetails(r)]));
    return ids.map((id) => byId.get(id) as DatasetEntity);
  }

  /** The active datasets of the given systems with the given names, keyed `system_id/object_name`. */
  async findActiveIdsByNames(
    pairs: readonly { system_id: string; object_name: string }[],
  ): Promise<Map<string, string>> {
    if (pairs.length === 0) return new Map();
    const rows: { id: string; system_id: string; object_name: string }[] = await this.crud
      .repo()
      .manager.query(
        `SELECT d.id, d.system_id, d.object_name FROM datasets d
       JOIN unnest($1::uuid[], $2::text[]) AS p(system_id, object_name)
         ON d.system_id = p.system_id AND d.object_name = p.object_name
       WHERE d.deleted_at IS NULL`,
        [pairs.map((p) => p.system_id), pairs.map((p) => p.object_name)],
      );
    return new Map(rows.map((r) => [`${r.system_id}/${r.object_name}`, r.id]));
  }

  async updateDetails(
    kind: DatasetKind,
    id: string,
    details: Record<string, unknown>,
    manager: EntityManager,
  ) {
    if (Object.keys(details).length === 0) return;
    await manager.getRepository(DATASET_KIND_ENTITIES[kind]).update({ id }, details);
  }

  /**
   * The targets foreign keys may name: active datasets by id (any system), and the active rdbms datasets
   * of a system by table name. One query whatever the number of keys.
   */
  async findTableTargets(
    systemId: string,
    ids: readonly string[],
    tables: readonly string[],
    manager: EntityManager,
  ): Promise<{ id: string; system_id: string; schema_name: string | null; table_name: string | null }[]> {
    return manager.query(
      `SELECT d.id, d.system_id, r.schema_name, r.table_name
       FROM datasets d LEFT JOIN dataset_rdbms r ON r.id = d.id
       WHERE d.deleted_at IS NULL
         AND (d.id = ANY($1::uuid[]) OR (d.system_id = $2 AND r.table_name = ANY($3::text[])))`,
      [ids, systemId, tables],
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
  ): Promise<DatasetEntity[]> {
    const qb = this.withDetails(manager)
      .where('d.system_id = :systemId AND d.deleted_at IS NULL', { systemId })
      .orderBy('d.id')
      .limit(limit);
    if (afterId) qb.andWhere('d.id > :afterId', { afterId });
    return (await qb.getMany()).map((row) => DatasetsRepository.attachDetails(row));
  }

  /**
   * An active dataset held FOR SHARE until the transaction ends (it cannot be deleted under a publish),
   * with its system and the system's flavor: one query.
   */
  async findActiveWithFlavor(
    id: string,
    manager: EntityManager,
  ): Promise<{ id: string; system_id: string; flavor_id: string } | undefined> {
    const rows: { id: string; system_id: string; flavor_id: string }[] = await manager.query(
      `SELECT d.id, d.system_id, s.flavor_id FROM datasets d JOIN systems s ON s.id = d.system_id
       WHERE d.id = $1 AND d.deleted_at IS NULL FOR SHARE OF d`,
      [id],
    );
    return rows[0];
  }
}
