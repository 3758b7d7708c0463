import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cast matrix (ADR 0043): each cast rule says how faithful it is (exact, widening, lossy — null for
 * a rule nobody classified) and what a lossy one loses; `cast_gaps` holds the explicit "no mapping"
 * entries, (source data type, target flavor) with the reason, which resolve reports instead of
 * failing silently. Both are seeded from seeds/cast-matrix/; gaps are derived data, never edited.
 */
export class CastMatrix1766320000000 implements MigrationInterface {
  name = 'CastMatrix1766320000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cast_rules
      ADD COLUMN fidelity varchar(10) CONSTRAINT cast_rules_fidelity_check CHECK (fidelity IN ('exact', 'widening', 'lossy')),
      ADD COLUMN loss text[] NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE TABLE cast_gaps (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      source_data_type_id uuid NOT NULL,
      target_flavor_id uuid NOT NULL,
      reason text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT fk_cast_gaps_source FOREIGN KEY (source_data_type_id) REFERENCES data_types (id) ON DELETE CASCADE,
      CONSTRAINT fk_cast_gaps_target_flavor FOREIGN KEY (target_flavor_id) REFERENCES system_flavors (id) ON DELETE CASCADE
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_cast_gaps_source_flavor ON cast_gaps (source_data_type_id, target_flavor_id)`,
    );
    await q.query(`CREATE INDEX ix_cast_gaps_target_flavor ON cast_gaps (target_flavor_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE cast_gaps`);
    await q.query(`ALTER TABLE cast_rules DROP COLUMN loss, DROP COLUMN fidelity`);
  }
}
