import type { CastSafety } from '@aide/schemas';
import { Column, Entity } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

@Entity('cast_rules')
export class CastRuleEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  source_data_type_id: string;

  @Column({ type: 'uuid' })
  target_data_type_id: string;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  param_mapping: Record<string, unknown>;

  @Column({ type: 'varchar', length: 20 })
  safety: CastSafety;
}
