import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * DataCoolie schema hints beyond a column's type (ADR 0030): `format`, `default_value` and
 * `is_active` per (workspace, dataset, column), applied to the hints derived from the dataset's schema
 * version; and a dataflow's optional pinned hint schema version (reference §8.5). The overrides are a
 * snapshot input: their statement trigger notes the writing transaction in provider_changes.
 */
export class SchemaHintOverrides1766210000000 implements MigrationInterface {
  name = 'SchemaHintOverrides1766210000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE schema_hint_overrides (
      workspace_id uuid NOT NULL,
      dataset_id uuid NOT NULL,
      column_name varchar(255) NOT NULL,
      format varchar(255),
      default_value text,
      is_active boolean NOT NULL DEFAULT true,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by uuid,
      CONSTRAINT pk_schema_hint_overrides PRIMARY KEY (workspace_id, dataset_id, column_name),
      CONSTRAINT fk_schema_hint_overrides_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
      CONSTRAINT fk_schema_hint_overrides_dataset FOREIGN KEY (dataset_id) REFERENCES datasets (id) ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX ix_schema_hint_overrides_dataset ON schema_hint_overrides (dataset_id)`);
    await q.query(
      `CREATE TRIGGER provider_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON schema_hint_overrides
       FOR EACH STATEMENT EXECUTE FUNCTION provider_note_change()`,
    );
    await q.query(`ALTER TABLE dataflows ADD COLUMN pinned_hint_schema_version_id uuid`);
    await q.query(
      `ALTER TABLE dataflows ADD CONSTRAINT fk_dataflows_pinned_hint_schema_version
       FOREIGN KEY (pinned_hint_schema_version_id) REFERENCES dataset_schemas (id)`,
    );
    await q.query(
      `CREATE INDEX ix_dataflows_pinned_hint_schema_version ON dataflows (pinned_hint_schema_version_id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_dataflows_pinned_hint_schema_version`);
    await q.query(`ALTER TABLE dataflows DROP CONSTRAINT fk_dataflows_pinned_hint_schema_version`);
    await q.query(`ALTER TABLE dataflows DROP COLUMN pinned_hint_schema_version_id`);
    await q.query(`DROP TRIGGER provider_change ON schema_hint_overrides`);
    await q.query(`DROP TABLE schema_hint_overrides`);
  }
}
