import type { CastSafety } from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { DataTypeEntity } from '../data-types/data-type.entity.js';

@AuditedTable('cast_rules')
@Index('uq_cast_rules_source_target', ['source_data_type_id', 'target_data_type_id'], { unique: true })
@Index('ix_cast_rules_target', ['target_data_type_id'])
@Check('cast_rules_safety_check', "safety IN ('implicit', 'safe', 'unsafe')")
export class CastRuleEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => DataTypeEntity, { name: 'fk_cast_rules_source', onDelete: 'CASCADE' })
  source_data_type_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => DataTypeEntity, { name: 'fk_cast_rules_target', onDelete: 'CASCADE' })
  target_data_type_id: string;

  @Column({ type: 'jsonb', default: {} })
  param_mapping: Record<string, unknown>;

  @Column({ type: 'varchar', length: 20 })
  safety: CastSafety;
}
