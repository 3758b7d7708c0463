import type { MigrationInterface, QueryRunner } from 'typeorm';
import { AUDIT_COLUMNS, SOFT_DELETE_COLUMNS } from './columns.js';

const PROFILE_TYPE_FORMATS = `(connection_type = 'file' AND format IN ('parquet', 'csv', 'json', 'jsonl', 'avro', 'excel'))
    OR (connection_type = 'lakehouse' AND format IN ('delta', 'iceberg'))
    OR (connection_type = 'database' AND format = 'sql')
    OR (connection_type = 'api' AND format = 'api')
    OR (connection_type = 'function' AND format = 'function')`;

const DATAFLOW_SOURCE = `(source_kind = 'dataset' AND source_dataset_id IS NOT NULL AND source_query IS NULL AND source_python_function IS NULL)
    OR (source_kind = 'query' AND source_query IS NOT NULL AND source_dataset_id IS NULL AND source_python_function IS NULL)
    OR (source_kind = 'function' AND source_python_function IS NOT NULL AND source_dataset_id IS NULL AND source_query IS NULL)`;

/** The tables a DataCoolie snapshot is read from: a write to any of them may change one. */
export const SNAPSHOT_INPUT_TABLES = [
  'workspaces',
  'connection_profiles',
  'connection_profile_secrets',
  'credential_refs',
  'systems',
  'system_flavors',
  'system_kinds',
  'dataflows',
  'datasets',
  'dataset_rdbms',
  'dataset_storage',
  'dataset_sftp',
  'dataset_hive',
  'dataset_schemas',
  'field_bindings',
  'fields',
  'type_instances',
  'data_types',
];

/**
 * The metadata provider's registry (DESIGN §7, DataCoolie reference §8.5): workspaces, connection
 * profiles over systems (secrets only as credential references), dataflows, watermarks (verbatim text,
 * provenance, revision, append-only history) and API keys (hashed, workspace-scoped).
 */
export class Provider1765600000000 implements MigrationInterface {
  name = 'Provider1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE workspaces (${AUDIT_COLUMNS}, ${SOFT_DELETE_COLUMNS},
      code varchar(100) NOT NULL,
      name text NOT NULL,
      description text
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_workspaces_code_active ON workspaces (code) WHERE deleted_at IS NULL`,
    );

    await q.query(`CREATE TABLE connection_profiles (${AUDIT_COLUMNS}, ${SOFT_DELETE_COLUMNS},
      workspace_id uuid NOT NULL,
      system_id uuid NOT NULL,
      name varchar(255) NOT NULL,
      description text,
      connection_type varchar(20) NOT NULL,
      format varchar(20) NOT NULL,
      catalog varchar(255),
      database varchar(255),
      configure jsonb NOT NULL DEFAULT '{}',
      use_schema_hint boolean NOT NULL DEFAULT true,
      is_active boolean NOT NULL DEFAULT true,
      CONSTRAINT fk_connection_profiles_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id),
      CONSTRAINT fk_connection_profiles_system FOREIGN KEY (system_id) REFERENCES systems (id),
      CONSTRAINT ck_connection_profiles_type_format CHECK (${PROFILE_TYPE_FORMATS})
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_connection_profiles_workspace_name_active ON connection_profiles (workspace_id, name) WHERE deleted_at IS NULL`,
    );
    await q.query(`CREATE INDEX ix_connection_profiles_system ON connection_profiles (system_id)`);

    await q.query(`CREATE TABLE connection_profile_secrets (
      profile_id uuid NOT NULL,
      configure_field varchar(255) NOT NULL,
      credential_ref_id uuid NOT NULL,
      position integer NOT NULL,
      CONSTRAINT pk_connection_profile_secrets PRIMARY KEY (profile_id, configure_field),
      CONSTRAINT fk_connection_profile_secrets_profile FOREIGN KEY (profile_id) REFERENCES connection_profiles (id) ON DELETE CASCADE,
      CONSTRAINT fk_connection_profile_secrets_credential_ref FOREIGN KEY (credential_ref_id) REFERENCES credential_refs (id)
    )`);
    await q.query(
      `CREATE INDEX ix_connection_profile_secrets_credential_ref ON connection_profile_secrets (credential_ref_id)`,
    );

    await q.query(`CREATE TABLE dataflows (${AUDIT_COLUMNS}, ${SOFT_DELETE_COLUMNS},
      workspace_id uuid NOT NULL,
      name varchar(255) NOT NULL,
      description text,
      stage varchar(100),
      group_number integer,
      execution_order integer,
      processing_mode varchar(20) NOT NULL DEFAULT 'batch',
      is_active boolean NOT NULL DEFAULT true,
      source_kind varchar(20) NOT NULL,
      source_connection_id uuid NOT NULL,
      source_dataset_id uuid,
      source_query text,
      source_python_function varchar(500),
      source_watermark_columns varchar(255)[] NOT NULL DEFAULT '{}',
      source_filter_expression text,
      source_configure jsonb NOT NULL DEFAULT '{}',
      destination_connection_id uuid NOT NULL,
      destination_dataset_id uuid NOT NULL,
      load_type varchar(20) NOT NULL,
      merge_keys varchar(255)[] NOT NULL DEFAULT '{}',
      partition_columns jsonb NOT NULL DEFAULT '[]',
      destination_configure jsonb NOT NULL DEFAULT '{}',
      transform jsonb NOT NULL DEFAULT '{}',
      configure jsonb NOT NULL DEFAULT '{}',
      dataset_link_id uuid,
      CONSTRAINT fk_dataflows_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id),
      CONSTRAINT fk_dataflows_source_connection FOREIGN KEY (source_connection_id) REFERENCES connection_profiles (id),
      CONSTRAINT fk_dataflows_destination_connection FOREIGN KEY (destination_connection_id) REFERENCES connection_profiles (id),
      CONSTRAINT fk_dataflows_source_dataset FOREIGN KEY (source_dataset_id) REFERENCES datasets (id),
      CONSTRAINT fk_dataflows_destination_dataset FOREIGN KEY (destination_dataset_id) REFERENCES datasets (id),
      CONSTRAINT fk_dataflows_dataset_link FOREIGN KEY (dataset_link_id) REFERENCES dataset_links (id),
      CONSTRAINT ck_dataflows_stage CHECK (stage IS NULL OR strpos(stage, ',') = 0),
      CONSTRAINT ck_dataflows_processing_mode CHECK (processing_mode IN ('batch', 'microbatch', 'streaming')),
      CONSTRAINT ck_dataflows_load_type CHECK (load_type IN ('full_load', 'overwrite', 'append', 'merge_upsert', 'merge_overwrite', 'scd2')),
      CONSTRAINT ck_dataflows_source CHECK (${DATAFLOW_SOURCE})
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_dataflows_workspace_name_active ON dataflows (workspace_id, name) WHERE deleted_at IS NULL`,
    );
    await q.query(`CREATE INDEX ix_dataflows_source_connection ON dataflows (source_connection_id)`);
    await q.query(
      `CREATE INDEX ix_dataflows_destination_connection ON dataflows (destination_connection_id)`,
    );
    await q.query(`CREATE INDEX ix_dataflows_source_dataset ON dataflows (source_dataset_id)`);
    await q.query(`CREATE INDEX ix_dataflows_destination_dataset ON dataflows (destination_dataset_id)`);
    await q.query(`CREATE INDEX ix_dataflows_dataset_link ON dataflows (dataset_link_id)`);

    // Verbatim text (not jsonb): a watermark is returned byte for byte, even when it is not JSON.
    await q.query(`CREATE TABLE watermarks (
      dataflow_id uuid NOT NULL,
      current_value text,
      previous_value text,
      job_id varchar(255),
      dataflow_run_id varchar(255),
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by uuid,
      revision integer NOT NULL,
      CONSTRAINT pk_watermarks PRIMARY KEY (dataflow_id),
      CONSTRAINT fk_watermarks_dataflow FOREIGN KEY (dataflow_id) REFERENCES dataflows (id) ON DELETE CASCADE,
      CONSTRAINT ck_watermarks_revision CHECK (revision >= 1)
    )`);
    await q.query(`CREATE TABLE watermark_history (
      dataflow_id uuid NOT NULL,
      revision integer NOT NULL,
      value text NOT NULL,
      job_id varchar(255),
      dataflow_run_id varchar(255),
      written_at timestamptz NOT NULL DEFAULT now(),
      written_by uuid,
      CONSTRAINT pk_watermark_history PRIMARY KEY (dataflow_id, revision),
      CONSTRAINT fk_watermark_history_dataflow FOREIGN KEY (dataflow_id) REFERENCES dataflows (id) ON DELETE CASCADE
    )`);

    await q.query(`CREATE TABLE api_keys (${AUDIT_COLUMNS},
      name varchar(255) NOT NULL,
      user_id uuid NOT NULL,
      workspace_ids uuid[] NOT NULL,
      prefix varchar(32) NOT NULL,
      key_hash varchar(64) NOT NULL,
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz,
      revoked_by uuid,
      CONSTRAINT fk_api_keys_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_api_keys_key_hash ON api_keys (key_hash)`);
    await q.query(`CREATE INDEX ix_api_keys_user ON api_keys (user_id)`);

    // Built snapshots are kept and served again while nothing they were read from has changed since:
    // every transaction writing an input table leaves its id in provider_changes (one row per
    // transaction, by statement triggers: no shared row to contend on), and a kept snapshot is current
    // while every committed change is visible in the MVCC snapshot it was read in.
    await q.query(`CREATE TABLE provider_changes (
      xid xid8 NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pk_provider_changes PRIMARY KEY (xid)
    )`);
    await q.query(`CREATE FUNCTION provider_note_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO provider_changes (xid) VALUES (pg_current_xact_id()) ON CONFLICT (xid) DO NOTHING;
        RETURN NULL;
      END $$`);
    for (const table of SNAPSHOT_INPUT_TABLES) {
      await q.query(
        `CREATE TRIGGER provider_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION provider_note_change()`,
      );
    }
    await q.query(`CREATE TABLE provider_snapshots (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL,
      revision varchar(64) NOT NULL,
      read_in pg_snapshot NOT NULL,
      pages integer NOT NULL,
      page_size integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pk_provider_snapshots PRIMARY KEY (id),
      CONSTRAINT fk_provider_snapshots_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE
    )`);
    await q.query(
      `CREATE INDEX ix_provider_snapshots_workspace ON provider_snapshots (workspace_id, page_size, created_at DESC)`,
    );
    await q.query(`CREATE TABLE provider_snapshot_pages (
      snapshot_id uuid NOT NULL,
      page integer NOT NULL,
      body bytea NOT NULL,
      CONSTRAINT pk_provider_snapshot_pages PRIMARY KEY (snapshot_id, page),
      CONSTRAINT fk_provider_snapshot_pages_snapshot FOREIGN KEY (snapshot_id) REFERENCES provider_snapshots (id) ON DELETE CASCADE
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_snapshot_pages`);
    await q.query(`DROP TABLE provider_snapshots`);
    for (const table of SNAPSHOT_INPUT_TABLES) await q.query(`DROP TRIGGER provider_change ON ${table}`);
    await q.query(`DROP FUNCTION provider_note_change()`);
    await q.query(`DROP TABLE provider_changes`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE watermark_history`);
    await q.query(`DROP TABLE watermarks`);
    await q.query(`DROP TABLE dataflows`);
    await q.query(`DROP TABLE connection_profile_secrets`);
    await q.query(`DROP TABLE connection_profiles`);
    await q.query(`DROP TABLE workspaces`);
  }
}
