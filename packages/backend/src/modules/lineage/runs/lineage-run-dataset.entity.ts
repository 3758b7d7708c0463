import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DatasetEntity } from '../../datasets/dataset.entity.js';
import { LineageRunEntity } from './lineage-run.entity.js';

/** An input or output of a run, with its input/output facets (the latest of each name). */
@Entity('lineage_run_datasets')
@Index('uq_lineage_run_datasets_name', ['lineage_run_id', 'role', 'namespace', 'name'], { unique: true })
@Index('ix_lineage_run_datasets_dataset', ['dataset_id', 'event_time'])
@Check('ck_lineage_run_datasets_role', "role IN ('input', 'output')")
export class LineageRunDatasetEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_lineage_run_datasets' })
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => LineageRunEntity, { name: 'fk_lineage_run_datasets_run', onDelete: 'CASCADE' })
  lineage_run_id: string;

  @Column({ type: 'varchar', length: 8 })
  role: 'input' | 'output';

  @Column({ type: 'text' })
  namespace: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetEntity, { name: 'fk_lineage_run_datasets_dataset', onDelete: 'SET NULL' })
  dataset_id: string | null;

  @Column({ type: 'jsonb', default: {} })
  facets: Record<string, unknown>;

  /** The eventTime of the latest event of the run naming it. */
  @Column({ type: 'timestamptz' })
  event_time: Date;
}
