import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel.js';

/** How a unit of work's statements are planned. */
export interface TransactionOptions {
  /**
   * PostgreSQL plans each prepared statement of the transaction once per connection (`plan_cache_mode =
   * force_generic_plan`, SET LOCAL) instead of again for every call while it compares generic and custom
   * plans. For hot paths made of constant, set-based statements over parameter arrays, whose plans do not
   * depend on the values (the OpenLineage intake with `preparingQueries`, ADR 0056).
   */
  genericPlans?: boolean;
}

/** Services own their transactions: one call is one unit of work, committed or rolled back as a whole. */
@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(
    work: (manager: EntityManager) => Promise<T>,
    isolation: IsolationLevel = 'READ COMMITTED',
    options: TransactionOptions = {},
  ): Promise<T> {
    if (!options.genericPlans || this.dataSource.options.type !== 'postgres') {
      return this.dataSource.transaction(isolation, work);
    }
    return this.dataSource.transaction(async (m) => {
      // The isolation level TypeORM would set, and the plan mode, in one round trip (simple protocol).
      await m.query(
        `SET TRANSACTION ISOLATION LEVEL ${isolation}; SET LOCAL plan_cache_mode = force_generic_plan`,
      );
      return work(m);
    });
  }
}
