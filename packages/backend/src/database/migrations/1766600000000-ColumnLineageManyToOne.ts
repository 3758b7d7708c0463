import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Column lineage is many-to-one (ADR 0052): a target field may have several source fields inside a
 * dataset link (`agg = f(a, b)`), so the unique key becomes (link, source, target); each field link
 * keeps the transformations the `columnLineage` facet gives (type, subtype, description, masking).
 *
 * `down` restores one source per target: where a target has several, the oldest field link is kept
 * (created_at, then id) and the others are deleted — deterministic, and lossy by nature.
 */
export class ColumnLineageManyToOne1766600000000 implements MigrationInterface {
  name = 'ColumnLineageManyToOne1766600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE field_links ADD COLUMN transformations jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD CONSTRAINT ck_field_links_transformations_array CHECK (jsonb_typeof(transformations) = 'array')`);
    await q.query(`DROP INDEX uq_field_links_target_in_link`);
    await q.query(
      `CREATE UNIQUE INDEX uq_field_links_edge_in_link ON field_links (dataset_link_id, source_field_id, target_field_id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM field_links f USING (
        SELECT id, row_number() OVER (PARTITION BY dataset_link_id, target_field_id ORDER BY created_at, id) AS n
        FROM field_links) r
      WHERE r.id = f.id AND r.n > 1`);
    await q.query(`DROP INDEX uq_field_links_edge_in_link`);
    await q.query(
      `CREATE UNIQUE INDEX uq_field_links_target_in_link ON field_links (dataset_link_id, target_field_id)`,
    );
    await q.query(`ALTER TABLE field_links DROP CONSTRAINT ck_field_links_transformations_array,
      DROP COLUMN transformations`);
  }
}
