import type { CastFidelity, CastSafety } from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { DataTypeEntity } from '../data-types/data-type.entity.js';

@AuditedTable('cast_rules')
@Index('uq_cast_rules_source_target', ['source_data_type_id', 'target_data_type_id'], { unique: true })
@Index('ix_cast_rules_target', ['target_data_type_id'])
@Check('cast_rules_safety_check', "safety IN ('implicit', 'safe', 'unsafe')")
@Check('cast_rules_fidelity_check', "fidelity IN ('exact', 'widening', 'lossy')")
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

  /** Null: nobody classified the rule (one created through the API without it). */
  @Column({ type: 'varchar', length: 10, nullable: true })
  fidelity: CastFidelity | null;

  /** What a lossy cast loses (`range`, `time zone offset`, …); empty otherwise. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  loss: string[];
}
