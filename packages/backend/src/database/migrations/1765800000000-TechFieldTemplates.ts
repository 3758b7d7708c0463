import type { MigrationInterface, QueryRunner } from 'typeorm';
import { AUDIT_COLUMNS } from './columns.js';

/** Tech-field templates: presets of technical columns for one layer (AIDE v2 §1.2, ADR-017). Hard delete. */
export class TechFieldTemplates1765800000000 implements MigrationInterface {
  name = 'TechFieldTemplates1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE tech_field_templates (${AUDIT_COLUMNS},
      code varchar(100) NOT NULL,
      name varchar(255) NOT NULL,
      layer varchar(32) NOT NULL,
      fields jsonb NOT NULL DEFAULT '[]',
      CONSTRAINT ck_tech_field_templates_layer CHECK (layer IN ('source', 'cdc', 'kafka', 'raw', 'core')),
      CONSTRAINT ck_tech_field_templates_fields_array CHECK (jsonb_typeof(fields) = 'array')
    )`);
    await q.query(`CREATE UNIQUE INDEX uq_tech_field_templates_code ON tech_field_templates (code)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tech_field_templates`);
  }
}
