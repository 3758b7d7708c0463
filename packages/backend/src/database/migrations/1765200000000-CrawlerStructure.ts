import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a crawler sees, on the immutable schema version (ADR 0012): per column (field_bindings) the
 * native type text, default, comment, identity, generation and collation, and a type that may be
 * missing when the native type has no data type; per version (dataset_schemas) the table kind,
 * comment, view definition, primary key, unique constraints, foreign keys, indexes and checks.
 */
export class CrawlerStructure1765200000000 implements MigrationInterface {
  name = 'CrawlerStructure1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE field_bindings
      ADD COLUMN native_type text,
      ADD COLUMN default_expression text,
      ADD COLUMN comment text,
      ADD COLUMN identity varchar(20) CONSTRAINT ck_field_bindings_identity CHECK (identity IN ('always', 'by_default')),
      ADD COLUMN generated_expression text,
      ADD COLUMN collation_name text,
      ALTER COLUMN type_instance_id DROP NOT NULL,
      ADD CONSTRAINT ck_field_bindings_type_or_native CHECK (type_instance_id IS NOT NULL OR native_type IS NOT NULL)`);
    await q.query(`ALTER TABLE dataset_schemas
      ADD COLUMN table_kind varchar(30) CONSTRAINT ck_dataset_schemas_table_kind
        CHECK (table_kind IN ('table', 'view', 'materialized_view', 'partitioned_table', 'foreign_table')),
      ADD COLUMN table_comment text,
      ADD COLUMN view_definition text,
      ADD COLUMN primary_key jsonb,
      ADD COLUMN unique_constraints jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN foreign_keys jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN indexes jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN check_constraints jsonb NOT NULL DEFAULT '[]'::jsonb`);
    // The snapshot reads a system's datasets by keyset (id) and their newest versions in bulk.
    await q.query(
      `CREATE INDEX ix_datasets_system_id_active ON datasets (system_id, id) WHERE deleted_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_datasets_system_id_active`);
    await q.query(`ALTER TABLE dataset_schemas
      DROP COLUMN table_kind, DROP COLUMN table_comment, DROP COLUMN view_definition,
      DROP COLUMN primary_key, DROP COLUMN unique_constraints, DROP COLUMN foreign_keys,
      DROP COLUMN indexes, DROP COLUMN check_constraints`);
    // Columns without a data type cannot exist in the older model.
    await q.query(`DELETE FROM field_bindings WHERE type_instance_id IS NULL`);
    await q.query(`ALTER TABLE field_bindings
      DROP CONSTRAINT ck_field_bindings_type_or_native,
      ALTER COLUMN type_instance_id SET NOT NULL,
      DROP COLUMN native_type, DROP COLUMN default_expression, DROP COLUMN comment,
      DROP COLUMN identity, DROP COLUMN generated_expression, DROP COLUMN collation_name`);
  }
}
