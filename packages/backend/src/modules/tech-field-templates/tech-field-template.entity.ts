import type { DatasetLayer, TechFieldTemplateField } from '@aide/schemas';
import { Check, Column, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';

// The fields live in one jsonb array: a template is a small preset edited and applied as a whole, never
// referenced field by field, so the template's row_version guards the fields too.
@AuditedTable('tech_field_templates')
@Index('uq_tech_field_templates_code', ['code'], { unique: true })
@Check('ck_tech_field_templates_layer', "layer IN ('source', 'cdc', 'kafka', 'raw', 'core')")
@Check('ck_tech_field_templates_fields_array', "jsonb_typeof(fields) = 'array'")
export class TechFieldTemplateEntity extends AuditedEntity {
  // Restated: TypeORM builds entities after FieldClassificationEntity (which overrides created_at with
  // clock_timestamp()) with that override unless the entity declares its own.
  @Column({ type: 'timestamptz', default: () => 'now()' })
  declare created_at: Date;

  @Column({ type: 'varchar', length: 100 })
  code: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 32 })
  layer: DatasetLayer;

  @Column({ type: 'jsonb', default: [] })
  fields: TechFieldTemplateField[];
}
