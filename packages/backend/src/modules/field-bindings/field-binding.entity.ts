import type { IdentityKind } from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import { FieldEntity } from '../fields/field.entity.js';
import { TypeInstanceEntity } from '../type-instances/type-instance.entity.js';

@AuditedTable('field_bindings')
@Index('uq_field_bindings_schema_field', ['dataset_schema_id', 'field_id'], { unique: true })
@Index('uq_field_bindings_schema_position', ['dataset_schema_id', 'position'], { unique: true })
@Index('ix_field_bindings_field', ['field_id'])
@Index('ix_field_bindings_type_instance', ['type_instance_id'])
@Check('field_bindings_position_check', 'position >= 0')
@Check('ck_field_bindings_identity', "identity IN ('always', 'by_default')")
@Check('ck_field_bindings_type_or_native', 'type_instance_id IS NOT NULL OR native_type IS NOT NULL')
export class FieldBindingEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => FieldEntity, { name: 'fk_field_bindings_field', onDelete: 'CASCADE' })
  field_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetSchemaEntity, { name: 'fk_field_bindings_schema', onDelete: 'CASCADE' })
  dataset_schema_id: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'boolean', default: true })
  is_nullable: boolean;

  /** Null only for a column whose native type has no data type in the flavor (native_type is then set). */
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => TypeInstanceEntity, { name: 'fk_field_bindings_type_instance', onDelete: 'CASCADE' })
  type_instance_id: string | null;

  // What a crawler sees of the column (ADR 0012); `default`, `generated` and `collation` on the wire
  // (the first and the last are reserved words in SQL).
  @Column({ type: 'text', nullable: true })
  native_type: string | null;

  @Column({ type: 'text', nullable: true })
  default_expression: string | null;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  identity: IdentityKind | null;

  @Column({ type: 'text', nullable: true })
  generated_expression: string | null;

  @Column({ type: 'text', nullable: true })
  collation_name: string | null;
}
