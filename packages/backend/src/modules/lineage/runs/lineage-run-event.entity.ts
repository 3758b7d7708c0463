import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { LineageRunEntity } from './lineage-run.entity.js';

/** A run's event as it was sent, under the intake's event key (`run:<run id>:<event type>`). */
@Entity('lineage_run_events')
@Index('ix_lineage_run_events_run', ['lineage_run_id', 'event_time'])
@Index('ix_lineage_run_events_received', ['received_at'])
export class LineageRunEventEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_lineage_run_events' })
  event_key: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => LineageRunEntity, { name: 'fk_lineage_run_events_run', onDelete: 'CASCADE' })
  lineage_run_id: string;

  @Column({ type: 'varchar', length: 16 })
  event_type: string;

  @Column({ type: 'timestamptz' })
  event_time: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  received_at: Date;

  @Column({ type: 'jsonb' })
  event: Record<string, unknown>;
}
