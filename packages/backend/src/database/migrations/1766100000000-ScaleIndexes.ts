import type { MigrationInterface, QueryRunner } from 'typeorm';

// Indexes found missing by `pnpm bench scale` (issue 13 §2, ADR 0024). The dataset list's: each
// serves a sort the list offers, in the order the list asks for it (the sort, then id ascending), so
// a page is an index range read whatever the catalogue's size. The plans are checked by
// `pnpm bench scale` (EXPLAIN of every statement at the largest size) and test/e2e/catalogue/dataset-paging.e2e-spec.ts.
const INDEXES = [
  // The default sort (object_name) over all systems.
  `CREATE INDEX ix_datasets_object_name_active ON datasets (object_name, id) WHERE deleted_at IS NULL`,
  // Newest first (sort=-created_at), over all systems and within one.
  `CREATE INDEX ix_datasets_created_active ON datasets (created_at DESC, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX ix_datasets_system_created_active ON datasets (system_id, created_at DESC, id) WHERE deleted_at IS NULL`,
  // A publish resolves foreign keys to their target table by name (findTableTargets).
  `CREATE INDEX ix_dataset_rdbms_table_name ON dataset_rdbms (table_name)`,
];

export class ScaleIndexes1766100000000 implements MigrationInterface {
  name = 'ScaleIndexes1766100000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of INDEXES) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of [...INDEXES].reverse()) {
      await q.query(`DROP INDEX ${/CREATE INDEX (\w+)/.exec(sql)?.[1]}`);
    }
  }
}
