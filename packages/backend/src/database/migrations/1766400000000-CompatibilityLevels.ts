import type { MigrationInterface, QueryRunner } from 'typeorm';

const LEVELS = `('NONE', 'BACKWARD', 'BACKWARD_TRANSITIVE', 'FORWARD', 'FORWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE')`;

/**
 * Compatibility levels (ADR 0048): a dataset's own level, a system's default for its datasets (both
 * null: inherit), and the registry's default in a one-row `registry_settings` table, NONE to begin
 * with so that no existing registry starts refusing publishes. A forced publish keeps its reason and
 * the violations it overrode on the version (`dataset_schemas.compatibility_override`).
 *
 * `down` drops the levels and the overrides kept on versions.
 */
export class CompatibilityLevels1766400000000 implements MigrationInterface {
  name = 'CompatibilityLevels1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE datasets ADD COLUMN compatibility varchar(30),
      ADD CONSTRAINT ck_datasets_compatibility CHECK (compatibility IN ${LEVELS})`);
    await q.query(`ALTER TABLE systems ADD COLUMN default_compatibility varchar(30),
      ADD CONSTRAINT ck_systems_default_compatibility CHECK (default_compatibility IN ${LEVELS})`);
    await q.query(`ALTER TABLE dataset_schemas ADD COLUMN compatibility_override jsonb`);
    await q.query(`CREATE TABLE registry_settings (
      id smallint NOT NULL DEFAULT 1,
      CONSTRAINT pk_registry_settings PRIMARY KEY (id),
      compatibility varchar(30) NOT NULL DEFAULT 'NONE',
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by uuid,
      row_version integer NOT NULL DEFAULT 1,
      CONSTRAINT ck_registry_settings_single_row CHECK (id = 1),
      CONSTRAINT ck_registry_settings_compatibility CHECK (compatibility IN ${LEVELS})
    )`);
    await q.query(`INSERT INTO registry_settings (id) VALUES (1)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE registry_settings`);
    await q.query(`ALTER TABLE dataset_schemas DROP COLUMN compatibility_override`);
    await q.query(`ALTER TABLE systems DROP COLUMN default_compatibility`);
    await q.query(`ALTER TABLE datasets DROP COLUMN compatibility`);
  }
}
