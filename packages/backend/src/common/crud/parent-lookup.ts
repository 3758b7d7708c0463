import type { EntityManager } from 'typeorm';
import type { AuditedEntity } from './audited-entity.js';
import type { CrudRepository } from './crud-repository.js';

/**
 * What another module may ask about an entity's rows (ADR 0026): the parent checks of the modules
 * whose rows reference it. A module exports a `<Entities>Lookup` extending this (with the named
 * queries its dependants need) and keeps its repository to itself. Errors are the entity's not-found
 * code, as its own routes answer.
 */
export class ParentLookup<E extends AuditedEntity> {
  constructor(private readonly rows: CrudRepository<E>) {}

  /**
   * The active row, held FOR SHARE until the caller's transaction ends (it can be neither deleted nor
   * changed under the row being written), or the entity's not-found error.
   */
  lockActive(id: string, m: EntityManager): Promise<E> {
    return this.rows.getActive(id, m, 'share');
  }

  /** The active rows among `ids`, held FOR SHARE, by id, in one query (batch parent checks). */
  lockActiveMany(ids: readonly string[], m: EntityManager): Promise<Map<string, E>> {
    return this.rows.findActiveMany(ids, m, 'share');
  }

  /** `lockActive`, or undefined when the row is not active (the caller answers with its own details). */
  lockIfActive(id: string, m: EntityManager): Promise<E | undefined> {
    return this.rows.findActive(id, m, 'share');
  }

  /** The active row without a lock, or the entity's not-found error. */
  requireActive(id: string, m?: EntityManager): Promise<E> {
    return this.rows.getActive(id, m);
  }

  /** The active row without a lock, or undefined. */
  findActive(id: string, m?: EntityManager): Promise<E | undefined> {
    return this.rows.findActive(id, m);
  }
}
