import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statistics on the lower-cased dataset names that search reads by prefix (ADR 0031). Their btree
 * indexes (ix_datasets_name_lower, ix_datasets_last_name_lower) are partial (`WHERE deleted_at IS
 * NULL`), and PostgreSQL ignores the statistics of a partial index's expressions: a name prefix was
 * estimated at the default 0.5 % of datasets whatever it was. A prefix shared by a quarter of 100,000
 * datasets (`ledger_refund`) was then read through a bitmap of all 25,000 matches and sorted, instead
 * of the index in order up to the branch's 500 candidates (690 ms instead of 24 ms). Expression
 * statistics (PostgreSQL 14+) give the planner the names' histogram. The expressions are, character
 * for character, those of `modules/search/search-documents.ts`.
 */
export class SearchNameStatistics1766220000000 implements MigrationInterface {
  name = 'SearchNameStatistics1766220000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE STATISTICS st_datasets_name_lower ON ((lower(object_name) COLLATE "C")) FROM datasets`,
    );
    await q.query(
      `CREATE STATISTICS st_datasets_last_name_lower
       ON ((lower(regexp_replace(object_name, '^.*[.]', '')) COLLATE "C")) FROM datasets`,
    );
    // Collected now rather than at the next auto-analyze, which a table that rarely changes may not see
    // for a long time (ANALYZE samples at most 30,000 rows: seconds on any catalogue).
    await q.query(`ANALYZE datasets`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP STATISTICS st_datasets_last_name_lower`);
    await q.query(`DROP STATISTICS st_datasets_name_lower`);
  }
}
