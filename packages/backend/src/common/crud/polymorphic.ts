import type { ListQuery, Page } from '@aide/schemas';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { applyFilters, fetchKeysetPage } from './list.js';
import type { CrudRepository } from './crud-repository.js';
import type { AuditedEntity } from './audited-entity.js';

/** A parent row whose kind-specific columns live in one table per kind (datasets, engines). */
export interface PolymorphicEntity extends AuditedEntity {
  kind: string;
}

/** The kind table entity of each kind (`DATASET_KIND_ENTITIES`, `ENGINE_KIND_ENTITIES`). */
export type KindEntities<K extends string> = Readonly<Record<K, new () => { id: string }>>;

/**
 * A parent row with its kind table's row as `details`, typed by its kind: one union member per kind, so
 * a mapper that switches on `kind` reads the kind's columns with their entity types.
 */
export type WithKindRow<E extends PolymorphicEntity, T extends KindEntities<E['kind']>> = {
  [K in E['kind']]: Omit<E, 'kind'> & { kind: K; details: Omit<InstanceType<T[K]>, 'id'> };
}[E['kind']];

/**
 * Reads of a polymorphic parent with its kind row: every kind table is left-joined in the same query,
 * so a page costs two queries (rows and count) whatever its size and mix of kinds.
 */
export class PolymorphicReads<
  E extends PolymorphicEntity,
  K extends E['kind'],
  T extends KindEntities<E['kind']>,
  R = WithKindRow<E, T>,
> {
  private readonly kinds: K[];

  constructor(
    private readonly crud: CrudRepository<E>,
    private readonly kindEntities: T,
  ) {
    this.kinds = Object.keys(kindEntities) as K[];
  }

  /** A query builder on the parent (alias `alias`) joining every kind table. */
  withDetails(alias: string, manager?: EntityManager): SelectQueryBuilder<E> {
    const qb = this.crud.repo(manager).createQueryBuilder(alias);
    for (const kind of this.kinds) {
      qb.leftJoinAndMapOne(`${alias}.${kind}`, this.kindEntities[kind], kind, `${kind}.id = ${alias}.id`);
    }
    return qb;
  }

  /**
   * The rows of a `withDetails` query, read raw and assembled here: parent columns and the kind row's
   * columns (as `details`, in the entity's column order), the same values the entity mapping gives for
   * these column types, without its per-column work (a snapshot page reads 1,000 parents).
   */
  async getManyRaw(qb: SelectQueryBuilder<E>, alias: string): Promise<R[]> {
    const connection = qb.connection;
    const parent = connection.getMetadata(qb.expressionMap.mainAlias!.target).columns;
    const kinds = new Map(
      this.kinds.map((kind) => [kind as string, connection.getMetadata(this.kindEntities[kind]).columns]),
    );
    const rows: Record<string, unknown>[] = await qb.getRawMany();
    return rows.map((raw) => {
      const entity: Record<string, unknown> = {};
      for (const c of parent) entity[c.propertyName] = raw[`${alias}_${c.databaseName}`];
      const kind = entity['kind'] as string;
      const columns = kinds.get(kind) ?? [];
      const details: Record<string, unknown> = {};
      if (columns.length > 0 && raw[`${kind}_id`] !== null && raw[`${kind}_id`] !== undefined) {
        for (const c of columns) details[c.propertyName] = raw[`${kind}_${c.databaseName}`];
      }
      entity['details'] = details;
      // The database's row, typed here once: the kind table joined is the kind's entity.
      return entity as R;
    });
  }

  /** Moves the joined row of the entity's own kind to `details` (typed as the kind's entity, as above). */
  attach(row: E): R {
    const joined = row as E & Partial<Record<K, object>> & { details?: object };
    joined.details = joined[row.kind as K] ?? {};
    for (const kind of this.kinds) delete joined[kind];
    return joined as unknown as R;
  }

  /**
   * A page of parents (soft-deleted ones only with `include_deleted`), each with its kind row: the
   * page's ids are chosen on the parent table alone, then only those rows are joined (`fetchKeysetPage`).
   */
  async findPage(query: ListQuery): Promise<Page<R>> {
    const filtered = this.crud.repo().createQueryBuilder('p');
    if (!query.include_deleted) filtered.where('p.deleted_at IS NULL');
    applyFilters(filtered, 'p', query.filters);
    const page = await fetchKeysetPage(filtered, 'p', query, (ids) =>
      this.withDetails('p')
        // ANY(ARRAY(…)): the page's ids are computed once, then each row is read by primary key.
        .where(`p.id = ANY(ARRAY(${ids.getQuery()}))`)
        .setParameters(ids.getParameters()),
    );
    return { ...page, items: page.items.map((item) => this.attach(item)) };
  }

  /** One parent with its kind row, or undefined when missing (or soft-deleted, unless included). */
  async findOne(id: string, manager?: EntityManager, includeDeleted = false): Promise<R | undefined> {
    const qb = this.withDetails('p', manager).where('p.id = :id', { id });
    if (!includeDeleted) qb.andWhere('p.deleted_at IS NULL');
    const row = await qb.getOne();
    return row ? this.attach(row) : undefined;
  }

  async insertDetails(kind: K, id: string, details: Record<string, unknown>, manager: EntityManager) {
    await manager.getRepository(this.kindEntities[kind]).insert({ ...details, id });
  }

  async updateDetails(kind: K, id: string, details: Record<string, unknown>, manager: EntityManager) {
    if (Object.keys(details).length === 0) return;
    await manager.getRepository(this.kindEntities[kind]).update({ id }, details);
  }
}

/** Splits a body into the parent's columns and the kind table's columns (`kind` itself is neither). */
export function splitByTable<P>(kindKeys: readonly string[], body: Record<string, unknown>) {
  const keys = new Set(kindKeys);
  const common: Record<string, unknown> = {};
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'kind' || value === undefined) continue;
    (keys.has(key) ? details : common)[key] = value;
  }
  return { common: common as Partial<P>, details };
}
