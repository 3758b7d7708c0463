import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { LineageJobVersionEntity } from './lineage-job-version.entity.js';

/** An OpenLineage job (ADR 0053): one per namespace and name, its facets the latest of each name. */
@Entity('lineage_jobs')
@Index('uq_lineage_jobs_name', ['namespace', 'name'], { unique: true })
@Index('ix_lineage_jobs_name', ['name'])
export class LineageJobEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_lineage_jobs' })
  id: string;

  @Column({ type: 'text' })
  namespace: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'jsonb', default: {} })
  facets: Record<string, unknown>;

  /** The eventTime of the latest event whose facets were merged: an older event's never win. */
  @Column({ type: 'timestamptz' })
  facets_time: Date;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => LineageJobVersionEntity, { name: 'fk_lineage_jobs_version', onDelete: 'SET NULL' })
  current_version_id: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;
}
