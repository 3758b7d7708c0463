import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { LineageJobEntity } from './lineage-job.entity.js';
import { LineageRunEntity } from './lineage-run.entity.js';

/** A dataset an event names, as a version or a job stores it. */
export interface StoredDatasetRef {
  namespace: string;
  name: string;
  dataset_id: string | null;
}

/**
 * A version of a job (ADR 0053): content-addressed by its inputs, outputs, source code location and
 * SQL, numbered per job in the order they appeared.
 */
@Entity('lineage_job_versions')
@Index('uq_lineage_job_versions_version', ['job_id', 'version'], { unique: true })
@Index('uq_lineage_job_versions_hash', ['job_id', 'content_hash'], { unique: true })
export class LineageJobVersionEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_lineage_job_versions' })
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => LineageJobEntity, { name: 'fk_lineage_job_versions_job', onDelete: 'CASCADE' })
  job_id: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'text' })
  content_hash: string;

  @Column({ type: 'jsonb' })
  inputs: StoredDatasetRef[];

  @Column({ type: 'jsonb' })
  outputs: StoredDatasetRef[];

  @Column({ type: 'jsonb', nullable: true })
  source_code_location: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  sql: string | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => LineageRunEntity, { name: 'fk_lineage_job_versions_run', onDelete: 'SET NULL' })
  introduced_by_run_id: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at: Date;
}
