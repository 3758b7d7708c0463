import type { OpenLineageEventType } from '@aide/schemas';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity.js';

/**
 * An OpenLineage event received (ADR 0022): one row per run id and event type, so that a repeated event
 * is answered from `result` instead of being applied again.
 */
@Entity('openlineage_events')
@Index('ix_openlineage_events_job', ['job_namespace', 'job_name'])
@Check(
  'ck_openlineage_events_type',
  `event_type IN ('START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER')`,
)
export class OpenLineageEventEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_openlineage_events' })
  run_id: string;

  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'pk_openlineage_events' })
  event_type: OpenLineageEventType;

  @Column({ type: 'timestamptz' })
  event_time: Date;

  @Column({ type: 'text' })
  job_namespace: string;

  @Column({ type: 'text' })
  job_name: string;

  @Column({ type: 'text' })
  producer: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  received_at: Date;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => UserEntity, { name: 'fk_openlineage_events_user', onDelete: 'SET NULL' })
  received_by: string | null;

  /** The answer given the first time (`OpenLineageIntakeResult`); null while the event is applied. */
  @Column({ type: 'jsonb', nullable: true })
  result: Record<string, unknown> | null;
}
