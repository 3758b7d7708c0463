import type { OpenLineageEventKind, OpenLineageEventType } from '@aide/schemas';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity.js';

/**
 * An OpenLineage event received (ADR 0022, ADR 0051): one row per event key — a RunEvent's run id and
 * event type, a JobEvent's or DatasetEvent's content hash — so that a repeated event is answered from
 * `result` instead of being applied again.
 */
@Entity('openlineage_events')
@Index('ix_openlineage_events_job', ['job_namespace', 'job_name'])
@Index('ix_openlineage_events_run', ['run_id'])
@Check(
  'ck_openlineage_events_type',
  `event_type IN ('START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER')`,
)
@Check('ck_openlineage_events_kind', `kind IN ('run', 'job', 'dataset')`)
@Check(
  'ck_openlineage_events_shape',
  "(kind = 'run' AND run_id IS NOT NULL AND event_type IS NOT NULL AND job_name IS NOT NULL) OR " +
    "(kind = 'job' AND run_id IS NULL AND event_type IS NULL AND job_name IS NOT NULL) OR " +
    "(kind = 'dataset' AND run_id IS NULL AND event_type IS NULL AND dataset_name IS NOT NULL)",
)
export class OpenLineageEventEntity {
  /** `run:<run id>:<event type>`, or `job:` / `dataset:` + the SHA-256 of the event's canonical JSON. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_openlineage_events' })
  event_key: string;

  @Column({ type: 'varchar', length: 8 })
  kind: OpenLineageEventKind;

  @Column({ type: 'uuid', nullable: true })
  run_id: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  event_type: OpenLineageEventType | null;

  @Column({ type: 'timestamptz' })
  event_time: Date;

  @Column({ type: 'text', nullable: true })
  job_namespace: string | null;

  @Column({ type: 'text', nullable: true })
  job_name: string | null;

  @Column({ type: 'text', nullable: true })
  dataset_namespace: string | null;

  @Column({ type: 'text', nullable: true })
  dataset_name: string | null;

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
