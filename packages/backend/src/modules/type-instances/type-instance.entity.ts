import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { DataTypeEntity } from '../data-types/data-type.entity.js';

@AuditedTable('type_instances')
@Index('uq_type_instances_parent_slot', ['parent_id', 'slot'], { unique: true })
@Index('ix_type_instances_data_type', ['data_type_id'])
@Check('ck_type_instances_slot', '(parent_id IS NULL) = (slot IS NULL)')
export class TypeInstanceEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => DataTypeEntity, { name: 'fk_type_instances_data_type', onDelete: 'CASCADE' })
  data_type_id: string;

  @Column({ type: 'jsonb', nullable: true })
  type_params: Record<string, unknown> | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => TypeInstanceEntity, { name: 'fk_type_instances_parent', onDelete: 'CASCADE' })
  parent_id: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  slot: string | null;

  /** Order among siblings: struct members keep their declared order. */
  @Column({ type: 'integer', default: 0 })
  ordinal: number;
}
