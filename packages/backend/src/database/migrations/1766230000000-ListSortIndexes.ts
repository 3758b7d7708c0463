import type { MigrationInterface, QueryRunner } from 'typeorm';

// The dataset list's other sorts (issue 13 §2, ADR 0024 §2): `kind`, `layer` and newest-changed first
// (`-updated_at`), each then `id` ascending as the list orders them, partial on `deleted_at IS NULL`
// as the list filters. Within one system (the web UI's system page, `system_id=` lists) and over all
// systems. A page in these orders — first, `page`-deep or by `cursor` — is an index range read. The
// reverse of `kind`/`layer` (`-kind`: kind descending, then id ascending) is not indexed: it sorts the
// rows of the first kind it reads (documented in docs/benchmarks.md, `pnpm bench scale`).
const INDEXES = [
  `CREATE INDEX ix_datasets_system_kind_active ON datasets (system_id, kind, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX ix_datasets_system_layer_active ON datasets (system_id, layer, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX ix_datasets_system_updated_active ON datasets (system_id, updated_at DESC, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX ix_datasets_kind_active ON datasets (kind, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX ix_datasets_layer_active ON datasets (layer, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX ix_datasets_updated_active ON datasets (updated_at DESC, id) WHERE deleted_at IS NULL`,
];

export class ListSortIndexes1766230000000 implements MigrationInterface {
  name = 'ListSortIndexes1766230000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of INDEXES) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of [...INDEXES].reverse()) {
      await q.query(`DROP INDEX ${/CREATE INDEX (\w+)/.exec(sql)?.[1]}`);
    }
  }
}
