import { Column, Entity } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

@Entity('type_instances')
export class TypeInstanceEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  data_type_id: string;

  @Column({ type: 'jsonb', nullable: true })
  type_params: Record<string, unknown> | null;

  @Column({ type: 'uuid', nullable: true })
  parent_id: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  slot: string | null;

  /** Order among siblings: struct members keep their declared order. */
  @Column({ type: 'integer', default: 0 })
  ordinal: number;
}
