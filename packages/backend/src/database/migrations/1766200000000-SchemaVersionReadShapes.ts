import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each published version's read shape (ADR 0029): the version's JSON as the routes answer it, PII
 * tags left out, with the row_version of each data type its type texts were rendered from. The system
 * snapshot sends these texts instead of assembling each column from its field, type nodes and data
 * types. Versions published before this migration have none: the snapshot reads them the old way
 * once and stores their shapes then.
 *
 * The PII tags are joined live from `fields.pii_tags`; `ix_fields_classified` finds a page's
 * classified fields without reading the others.
 */
export class SchemaVersionReadShapes1766200000000 implements MigrationInterface {
  name = 'SchemaVersionReadShapes1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE schema_version_read_shapes (
         dataset_schema_id uuid NOT NULL,
         version_json text NOT NULL,
         data_types jsonb NOT NULL,
         CONSTRAINT pk_schema_version_read_shapes PRIMARY KEY (dataset_schema_id),
         CONSTRAINT fk_schema_version_read_shapes_schema FOREIGN KEY (dataset_schema_id)
           REFERENCES dataset_schemas (id) ON DELETE CASCADE
       )`,
    );
    await q.query(`CREATE INDEX ix_fields_classified ON fields (dataset_id) WHERE pii_tags IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_fields_classified`);
    await q.query(`DROP TABLE schema_version_read_shapes`);
  }
}
