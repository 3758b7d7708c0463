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

  @Column({ type: 'uuid' })
  @ForeignKey(() => TypeInstanceEntity, { name: 'fk_field_bindings_type_instance', onDelete: 'CASCADE' })
  type_instance_id: string;
}
