import type { LineageRunState } from '@aide/schemas';
import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { LineageJobVersionEntity } from './lineage-job-version.entity.js';
import { LineageJobEntity } from './lineage-job.entity.js';

/** An OpenLineage run (ADR 0053), by its runId: the state its events drove it to, its times and facets. */
@Entity('lineage_runs')
@Index('uq_lineage_runs_run', ['run_id'], { unique: true })
@Index('ix_lineage_runs_job', ['job_id', 'first_event_time'])
@Index('ix_lineage_runs_parent', ['parent_run_id'])
@Check('ck_lineage_runs_state', "state IN ('NEW', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED')")
export class LineageRunEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_lineage_runs' })
  id: string;

  /** The OpenLineage runId (lower case). */
  @Column({ type: 'uuid' })
  run_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => LineageJobEntity, { name: 'fk_lineage_runs_job', onDelete: 'CASCADE' })
  job_id: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => LineageJobVersionEntity, { name: 'fk_lineage_runs_version', onDelete: 'SET NULL' })
  job_version_id: string | null;

  @Column({ type: 'varchar', length: 16 })
  state: LineageRunState;

  /** The eventTime of the event that set the state. */
  @Column({ type: 'timestamptz' })
  state_time: Date;

  @Column({ type: 'timestamptz', nullable: true })
  started_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  ended_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  nominal_start_time: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  nominal_end_time: Date | null;

  /** The `parent` facet's run id, kept as sent (the parent may never be seen). */
  @Column({ type: 'text', nullable: true })
  parent_run_id: string | null;

  @Column({ type: 'text', nullable: true })
  parent_job_namespace: string | null;

  @Column({ type: 'text', nullable: true })
  parent_job_name: string | null;

  /** The parent's row, once its events arrived. */
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => LineageRunEntity, { name: 'fk_lineage_runs_parent', onDelete: 'SET NULL' })
  parent_id: string | null;

  @Column({ type: 'jsonb', default: {} })
  facets: Record<string, unknown>;

  @Column({ type: 'timestamptz' })
  first_event_time: Date;

  @Column({ type: 'timestamptz' })
  last_event_time: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;
}
