import type { MigrationInterface, QueryRunner } from 'typeorm';

const AUDIT = `
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  note text,
  row_version integer NOT NULL DEFAULT 1 CHECK (row_version >= 1)`;

const SOFT_DELETE = `
  deleted_at timestamptz,
  deleted_by uuid`;

/** The type system, polymorphic datasets, fields and PII history, schema versions and crawl runs. */
export class Catalogue1764700000000 implements MigrationInterface {
  name = 'Catalogue1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE data_types (${AUDIT}, ${SOFT_DELETE},
      system_flavor_id uuid NOT NULL,
      code varchar(255) NOT NULL,
      params_schema jsonb NOT NULL DEFAULT '{}'::jsonb,
      render_template text,
      description text,
      CONSTRAINT fk_data_types_flavor FOREIGN KEY (system_flavor_id) REFERENCES system_flavors (id)
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_data_types_flavor_code_active ON data_types (system_flavor_id, code) WHERE deleted_at IS NULL`,
    );

    await q.query(`CREATE TABLE type_instances (${AUDIT},
      data_type_id uuid NOT NULL,
      type_params jsonb,
      parent_id uuid,
      slot varchar(300),
      ordinal integer NOT NULL DEFAULT 0,
      CONSTRAINT fk_type_instances_data_type FOREIGN KEY (data_type_id) REFERENCES data_types (id) ON DELETE CASCADE,
      CONSTRAINT fk_type_instances_parent FOREIGN KEY (parent_id) REFERENCES type_instances (id) ON DELETE CASCADE,
      CONSTRAINT ck_type_instances_slot CHECK ((parent_id IS NULL) = (slot IS NULL))
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_type_instances_parent_slot ON type_instances (parent_id, slot)`);
    await q.query(`CREATE INDEX ix_type_instances_data_type ON type_instances (data_type_id)`);

    await q.query(`CREATE TABLE cast_rules (${AUDIT},
      source_data_type_id uuid NOT NULL,
      target_data_type_id uuid NOT NULL,
      param_mapping jsonb NOT NULL DEFAULT '{}'::jsonb,
      safety varchar(20) NOT NULL CHECK (safety IN ('implicit', 'safe', 'unsafe')),
      CONSTRAINT fk_cast_rules_source FOREIGN KEY (source_data_type_id) REFERENCES data_types (id) ON DELETE CASCADE,
      CONSTRAINT fk_cast_rules_target FOREIGN KEY (target_data_type_id) REFERENCES data_types (id) ON DELETE CASCADE
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_cast_rules_source_target ON cast_rules (source_data_type_id, target_data_type_id)`,
    );
    await q.query(`CREATE INDEX ix_cast_rules_target ON cast_rules (target_data_type_id)`);

    await q.query(`CREATE TABLE datasets (${AUDIT}, ${SOFT_DELETE},
      system_id uuid NOT NULL,
      object_name text NOT NULL,
      layer varchar(255),
      pattern_code varchar(32),
      is_active boolean NOT NULL DEFAULT true,
      extra jsonb,
      kind varchar(20) NOT NULL CHECK (kind IN ('rdbms', 'kafka', 'storage', 'sftp', 'hive')),
      CONSTRAINT fk_datasets_system FOREIGN KEY (system_id) REFERENCES systems (id)
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_datasets_system_object_active ON datasets (system_id, object_name) WHERE deleted_at IS NULL`,
    );
    await q.query(`CREATE INDEX ix_datasets_kind ON datasets (kind)`);
    await q.query(`CREATE INDEX ix_datasets_layer ON datasets (layer)`);

    const child = (name: string, columns: string) =>
      q.query(`CREATE TABLE ${name} (
        id uuid PRIMARY KEY,
        ${columns},
        CONSTRAINT fk_${name}_dataset FOREIGN KEY (id) REFERENCES datasets (id) ON DELETE CASCADE
      )`);
    await child(
      'dataset_rdbms',
      `catalog_name text, schema_name text NOT NULL, table_name text NOT NULL,
       is_view boolean NOT NULL DEFAULT false, distribution varchar(255)[], pk_columns varchar(255)[],
       uq_constraints jsonb`,
    );
    await child(
      'dataset_kafka',
      `topic text NOT NULL, format varchar(255) NOT NULL, partitions integer NOT NULL,
       retention_ms bigint NOT NULL, key_columns varchar(255)[] NOT NULL`,
    );
    await child(
      'dataset_storage',
      `path text NOT NULL, file_format varchar(255) NOT NULL, compression varchar(255), partition_by varchar(255)[]`,
    );
    await child(
      'dataset_sftp',
      `path text NOT NULL, file_format varchar(255) NOT NULL, compression varchar(255), archive text`,
    );
    await child(
      'dataset_hive',
      `catalog_uri text NOT NULL, db_name text NOT NULL, table_name text NOT NULL,
       is_external boolean NOT NULL DEFAULT false, file_format varchar(255) NOT NULL, location text,
       partition_cols varchar(255)[], serde text, tblproperties jsonb, bkey_columns varchar(255)[]`,
    );

    await q.query(`CREATE TABLE fields (${AUDIT},
      dataset_id uuid NOT NULL,
      parent_id uuid,
      name text NOT NULL,
      path text,
      extra jsonb,
      origin varchar(20) NOT NULL DEFAULT 'mapped' CHECK (origin IN ('mapped', 'tech', 'deprecated')),
      CONSTRAINT fk_fields_dataset FOREIGN KEY (dataset_id) REFERENCES datasets (id) ON DELETE CASCADE,
      CONSTRAINT fk_fields_parent FOREIGN KEY (parent_id) REFERENCES fields (id) ON DELETE CASCADE
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_fields_root_name ON fields (dataset_id, name) WHERE parent_id IS NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX uq_fields_nested_name ON fields (dataset_id, parent_id, name) WHERE parent_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX ix_fields_parent ON fields (parent_id)`);

    // clock_timestamp(): rows written in one transaction still order by creation.
    await q.query(`CREATE TABLE field_classifications (${AUDIT.replace(
      'created_at timestamptz NOT NULL DEFAULT now()',
      'created_at timestamptz NOT NULL DEFAULT clock_timestamp()',
    )},
      field_id uuid NOT NULL,
      pii_tags text[] NOT NULL,
      reason text,
      CONSTRAINT fk_field_classifications_field FOREIGN KEY (field_id) REFERENCES fields (id) ON DELETE CASCADE
    )`);
    await q.query(
      `CREATE INDEX ix_field_classifications_field_created ON field_classifications (field_id, created_at DESC, id DESC)`,
    );

    await q.query(`CREATE TABLE dataset_schemas (${AUDIT},
      dataset_id uuid NOT NULL,
      version_num integer NOT NULL CHECK (version_num >= 1),
      schema_ jsonb,
      extra jsonb,
      CONSTRAINT fk_dataset_schemas_dataset FOREIGN KEY (dataset_id) REFERENCES datasets (id) ON DELETE CASCADE
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_dataset_schemas_dataset_version ON dataset_schemas (dataset_id, version_num)`,
    );

    await q.query(`CREATE TABLE field_bindings (${AUDIT},
      field_id uuid NOT NULL,
      dataset_schema_id uuid NOT NULL,
      position integer NOT NULL CHECK (position >= 0),
      is_nullable boolean NOT NULL DEFAULT true,
      type_instance_id uuid NOT NULL,
      CONSTRAINT fk_field_bindings_field FOREIGN KEY (field_id) REFERENCES fields (id) ON DELETE CASCADE,
      CONSTRAINT fk_field_bindings_schema FOREIGN KEY (dataset_schema_id) REFERENCES dataset_schemas (id) ON DELETE CASCADE,
      CONSTRAINT fk_field_bindings_type_instance FOREIGN KEY (type_instance_id) REFERENCES type_instances (id) ON DELETE CASCADE
    )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_field_bindings_schema_field ON field_bindings (dataset_schema_id, field_id)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX uq_field_bindings_schema_position ON field_bindings (dataset_schema_id, position)`,
    );
    await q.query(`CREATE INDEX ix_field_bindings_field ON field_bindings (field_id)`);
    await q.query(`CREATE INDEX ix_field_bindings_type_instance ON field_bindings (type_instance_id)`);

    await q.query(`CREATE TABLE crawl_runs (${AUDIT},
      system_id uuid NOT NULL,
      status varchar(20) NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      config jsonb NOT NULL DEFAULT '{}'::jsonb,
      summary jsonb,
      diff_payload jsonb,
      error_message text,
      CONSTRAINT fk_crawl_runs_system FOREIGN KEY (system_id) REFERENCES systems (id),
      CONSTRAINT ck_crawl_runs_finished CHECK (finished_at IS NULL OR finished_at >= started_at)
    )`);
    await q.query(`CREATE INDEX ix_crawl_runs_system_started ON crawl_runs (system_id, started_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'crawl_runs',
      'field_bindings',
      'dataset_schemas',
      'field_classifications',
      'fields',
      'dataset_hive',
      'dataset_sftp',
      'dataset_storage',
      'dataset_kafka',
      'dataset_rdbms',
      'datasets',
      'cast_rules',
      'type_instances',
      'data_types',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
