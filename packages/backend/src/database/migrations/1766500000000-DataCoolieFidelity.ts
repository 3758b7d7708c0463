import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The free-form JSON objects of DataCoolie documents: kept as `json` so their key order survives. */
const DOCUMENT_OBJECTS: readonly [table: string, column: string][] = [
  ['connection_profiles', 'configure'],
  ['dataflows', 'source_configure'],
  ['dataflows', 'destination_configure'],
  ['dataflows', 'transform'],
  ['dataflows', 'configure'],
];

/**
 * What goes in comes out (ADR 0050):
 * - `datacoolie_id` on profiles and dataflows: the id DataCoolie sees, unique per workspace, so that a
 *   document's ids (any string; name-derived ones repeat across workspaces) are served as written;
 *   existing rows keep their registry id as it.
 * - `as_written` and `configure_keys` on profiles: an imported connection is served exactly as its
 *   document wrote it, secret fields in their places.
 * - the document objects become `json` (jsonb sorts keys).
 * - `schema_hint_groups` and `schema_hint_columns`: the hints a document declares, per source
 *   connection and table, in their spelling and order, each with the registry type it maps to when
 *   its type system has a flavor. Hints no longer become schema versions.
 *
 * `down` drops the hint tables and the new columns and turns the objects back into jsonb.
 */
export class DataCoolieFidelity1766500000000 implements MigrationInterface {
  name = 'DataCoolieFidelity1766500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['connection_profiles', 'dataflows']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN datacoolie_id varchar(255)`);
      await q.query(`UPDATE ${table} SET datacoolie_id = id::text`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN datacoolie_id SET NOT NULL`);
      await q.query(
        `CREATE UNIQUE INDEX uq_${table}_workspace_datacoolie_id ON ${table} (workspace_id, datacoolie_id)
         WHERE deleted_at IS NULL`,
      );
    }
    await q.query(`ALTER TABLE connection_profiles
      ADD COLUMN as_written boolean NOT NULL DEFAULT false,
      ADD COLUMN configure_keys text[]`);
    for (const [table, column] of DOCUMENT_OBJECTS) {
      await q.query(`ALTER TABLE ${table} ALTER COLUMN ${column} DROP DEFAULT,
        ALTER COLUMN ${column} TYPE json USING ${column}::json,
        ALTER COLUMN ${column} SET DEFAULT '{}'::json`);
    }
    await q.query(`CREATE TABLE schema_hint_groups (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL,
      connection_profile_id uuid NOT NULL,
      schema_name varchar(255),
      table_name varchar(255) NOT NULL,
      dataset_id uuid,
      position integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      created_by uuid,
      updated_by uuid,
      CONSTRAINT pk_schema_hint_groups PRIMARY KEY (id),
      CONSTRAINT fk_schema_hint_groups_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
      CONSTRAINT fk_schema_hint_groups_profile FOREIGN KEY (connection_profile_id) REFERENCES connection_profiles (id) ON DELETE CASCADE,
      CONSTRAINT fk_schema_hint_groups_dataset FOREIGN KEY (dataset_id) REFERENCES datasets (id) ON DELETE SET NULL
    )`);
    // DataCoolie's hint key: the connection exactly, schema and table case-insensitively.
    await q.query(`CREATE UNIQUE INDEX uq_schema_hint_groups_key ON schema_hint_groups
      (connection_profile_id, lower(coalesce(schema_name, '')), lower(table_name))`);
    await q.query(
      `CREATE INDEX ix_schema_hint_groups_workspace ON schema_hint_groups (workspace_id, position)`,
    );
    await q.query(`CREATE INDEX ix_schema_hint_groups_dataset ON schema_hint_groups (dataset_id)`);
    await q.query(`CREATE TABLE schema_hint_columns (
      group_id uuid NOT NULL,
      position integer NOT NULL,
      column_name varchar(255) NOT NULL,
      data_type varchar(255) NOT NULL,
      format varchar(255),
      precision integer,
      scale integer,
      default_value text,
      ordinal_position integer,
      is_active boolean NOT NULL DEFAULT true,
      data_type_id uuid,
      type_params jsonb,
      CONSTRAINT pk_schema_hint_columns PRIMARY KEY (group_id, position),
      CONSTRAINT fk_schema_hint_columns_group FOREIGN KEY (group_id) REFERENCES schema_hint_groups (id) ON DELETE CASCADE,
      CONSTRAINT fk_schema_hint_columns_data_type FOREIGN KEY (data_type_id) REFERENCES data_types (id)
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_schema_hint_columns_name ON schema_hint_columns (group_id, lower(column_name))`,
    );
    await q.query(`CREATE INDEX ix_schema_hint_columns_data_type ON schema_hint_columns (data_type_id)`);
    for (const table of ['schema_hint_groups', 'schema_hint_columns']) {
      await q.query(
        `CREATE TRIGGER provider_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION provider_note_change()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE schema_hint_columns`);
    await q.query(`DROP TABLE schema_hint_groups`);
    for (const [table, column] of DOCUMENT_OBJECTS) {
      await q.query(`ALTER TABLE ${table} ALTER COLUMN ${column} DROP DEFAULT,
        ALTER COLUMN ${column} TYPE jsonb USING ${column}::jsonb,
        ALTER COLUMN ${column} SET DEFAULT '{}'::jsonb`);
    }
    await q.query(`ALTER TABLE connection_profiles DROP COLUMN configure_keys, DROP COLUMN as_written`);
    for (const table of ['connection_profiles', 'dataflows']) {
      await q.query(`DROP INDEX uq_${table}_workspace_datacoolie_id`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN datacoolie_id`);
    }
  }
}
