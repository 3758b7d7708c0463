import type { ErrorCode, ListQuery, Page } from '@aide/schemas';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { compileFastFind } from '../../database/prepared-query.js';
import { AppError } from '../errors/app-error.js';
import { applyFilters, fetchKeysetPage, type FilterRelations } from './list.js';
import { bulkInsert } from './bulk-insert.js';
import type { AuditedEntity } from './audited-entity.js';

export interface CrudRepositoryOptions<E> {
  dataSource: DataSource;
  entity: EntityTarget<E>;
  /** The code answered when a row is missing (or soft-deleted). */
  notFound: ErrorCode;
  softDelete: boolean;
  /** The relations of the collection's `related` list filters (FilterRelation), by filter name. */
  relations?: FilterRelations;
}

export type Lock = 'share' | 'update';

/**
 * The mechanical part of an entity's persistence: paging, lookups, versioned updates, soft delete.
 * Composed by each entity's repository, which adds its named queries. Every method takes the
 * caller's EntityManager when it runs inside a service's transaction.
 */
export class CrudRepository<E extends AuditedEntity> {
  /** Compiled on first use (metadata is ready only once the DataSource is initialised); null = not eligible. */
  private fastFind: ((id: string) => Promise<E | undefined>) | null | undefined;

  constructor(private readonly options: CrudRepositoryOptions<E>) {}

  repo(manager?: EntityManager): Repository<E> {
    return (manager ?? this.options.dataSource.manager).getRepository(this.options.entity);
  }

  private activeClause(alias?: string): string {
    if (!this.options.softDelete) return 'TRUE';
    return alias ? `${alias}.deleted_at IS NULL` : 'deleted_at IS NULL';
  }

  async findPage(query: ListQuery, manager?: EntityManager): Promise<Page<E>> {
    const qb = this.repo(manager).createQueryBuilder('e');
    if (this.options.softDelete && !query.include_deleted) qb.where('e.deleted_at IS NULL');
    applyFilters(qb, 'e', query.filters, this.options.relations);
    return fetchKeysetPage(qb, 'e', query);
  }

  /**
   * The active row by one prepared statement, hydrated by hand from the entity's column metadata
   * (`compileFastFind`): the GET-by-id path, outside any transaction. Falls back to `findActive` for
   * entities the fast path does not cover. Not `async`: the promise of the query is handed on as it
   * is, without another hop (a GET-by-id's every await costs it a microtask).
   */
  findActivePrepared(id: string): Promise<E | undefined> {
    if (this.fastFind === undefined) {
      const { dataSource, entity, softDelete } = this.options;
      this.fastFind = dataSource.isInitialized
        ? (compileFastFind(dataSource, entity, softDelete) ?? null)
        : undefined;
    }
    return this.fastFind ? this.fastFind(id) : this.findActive(id);
  }

  /** `findActivePrepared`, or the resource's not-found error. */
  getActivePrepared(id: string): Promise<E> {
    return this.findActivePrepared(id).then((row) => {
      if (!row) throw new AppError(this.options.notFound);
      return row;
    });
  }

  /** The active row, or undefined. `lock` takes a row lock for the rest of the transaction. */
  async findActive(id: string, manager?: EntityManager, lock?: Lock): Promise<E | undefined> {
    const qb = this.repo(manager)
      .createQueryBuilder('e')
      .where('e.id = :id', { id })
      .andWhere(this.activeClause('e'));
    if (lock === 'share') qb.setLock('pessimistic_read');
    if (lock === 'update') qb.setLock('pessimistic_write');
    return (await qb.getOne()) ?? undefined;
  }

  /** The active rows among `ids`, by id, in one query (batch checks). */
  async findActiveMany(
    ids: readonly string[],
    manager?: EntityManager,
    lock?: Lock,
  ): Promise<Map<string, E>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const qb = this.repo(manager)
      .createQueryBuilder('e')
      .where('e.id IN (:...ids)', { ids: unique })
      .andWhere(this.activeClause('e'));
    if (lock === 'share') qb.setLock('pessimistic_read');
    if (lock === 'update') qb.setLock('pessimistic_write');
    return new Map((await qb.getMany()).map((row) => [row.id, row]));
  }

  async getActive(id: string, manager?: EntityManager, lock?: Lock): Promise<E> {
    const row = await this.findActive(id, manager, lock);
    if (!row) throw new AppError(this.options.notFound);
    return row;
  }

  /** Any row, deleted or not. */
  async findAny(id: string, manager?: EntityManager): Promise<E | undefined> {
    return (
      (await this.repo(manager).createQueryBuilder('e').where('e.id = :id', { id }).getOne()) ?? undefined
    );
  }

  async insert(values: Partial<E>, actorId: string, manager: EntityManager): Promise<E> {
    const [row] = await this.insertMany([values], actorId, manager);
    return row;
  }

  /** One INSERT for all rows; rows come back in input order. */
  async insertMany(values: readonly Partial<E>[], actorId: string, manager: EntityManager): Promise<E[]> {
    if (values.length === 0) return [];
    const rows = values.map((v) => ({ ...v, created_by: actorId, updated_by: actorId }));
    const result = await this.repo(manager)
      .createQueryBuilder()
      .insert()
      .values(rows as never)
      .returning('*')
      .execute();
    return result.raw as E[];
  }

  /**
   * One INSERT for any number of rows (see `bulkInsert`), for batches past the parameter limit of a
   * VALUES list; nothing is returned, so callers give the rows their ids.
   */
  async insertManyBulk(
    values: readonly Partial<E>[],
    actorId: string,
    manager: EntityManager,
  ): Promise<void> {
    await bulkInsert(
      manager,
      this.options.entity,
      values.map((v) => ({ ...v, created_by: actorId, updated_by: actorId })),
    );
  }

  /**
   * Compare-and-swap update: applies `changes` only if the row is active and still at
   * `expectedVersion`, in one UPDATE. A stale version is VERSION_CONFLICT, a missing row the not-found code.
   */
  async update(
    id: string,
    changes: Partial<E>,
    expectedVersion: number,
    actorId: string,
    manager: EntityManager,
  ): Promise<E> {
    const result = await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({
        ...(changes as ObjectLiteral),
        row_version: () => 'row_version + 1',
        updated_at: () => 'now()',
        updated_by: actorId,
      } as never)
      .where('id = :id AND row_version = :version', { id, version: expectedVersion })
      .andWhere(this.activeClause())
      .returning('*')
      .execute();
    const row = (result.raw as E[])[0];
    if (row) return row;
    const current = await this.findActive(id, manager);
    if (!current) throw new AppError(this.options.notFound);
    throw new AppError('VERSION_CONFLICT', undefined, { current_row_version: current.row_version });
  }

  async softDelete(id: string, actorId: string, manager: EntityManager): Promise<E> {
    const result = await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({ deleted_at: () => 'now()', deleted_by: actorId } as never)
      .where('id = :id AND deleted_at IS NULL', { id })
      .returning('*')
      .execute();
    const row = (result.raw as E[])[0];
    if (!row) throw new AppError(this.options.notFound);
    return row;
  }

  async restore(id: string, actorId: string, manager: EntityManager): Promise<E> {
    const result = await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({
        deleted_at: null,
        deleted_by: null,
        row_version: () => 'row_version + 1',
        updated_at: () => 'now()',
        updated_by: actorId,
      } as never)
      .where('id = :id AND deleted_at IS NOT NULL', { id })
      .returning('*')
      .execute();
    const row = (result.raw as E[])[0];
    if (row) return row;
    if (await this.findAny(id, manager)) throw new AppError('ENTITY_NOT_DELETED');
    throw new AppError(this.options.notFound);
  }

  async hardDelete(id: string, manager: EntityManager): Promise<E> {
    const result = await this.repo(manager)
      .createQueryBuilder()
      .delete()
      .where('id = :id', { id })
      .returning('*')
      .execute();
    const row = (result.raw as E[])[0];
    if (!row) throw new AppError(this.options.notFound);
    return row;
  }

  /** Active rows whose `column` equals `value` (delete guards). */
  async countActiveBy(column: keyof E & string, value: unknown, manager?: EntityManager): Promise<number> {
    return this.repo(manager)
      .createQueryBuilder('e')
      .where(`e.${column} = :value`, { value })
      .andWhere(this.activeClause('e'))
      .getCount();
  }
}
