import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { DatasetEntity } from '../../datasets/dataset.entity.js';
import { LineageJobEntity } from './lineage-job.entity.js';

/**
 * A current input or output of a job, as an edge of the job graph (ADR 0053): rewritten when the job's
 * current version changes. `dataset_key` names the node: `dataset:<registered id>`, else
 * `dataset:<namespace>/<name>`. A registered dataset deleted for good takes its edges with it.
 */
@Entity('lineage_job_datasets')
@Index('ix_lineage_job_datasets_key', ['dataset_key', 'role'])
@Check('ck_lineage_job_datasets_role', "role IN ('input', 'output')")
export class LineageJobDatasetEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_lineage_job_datasets' })
  @ForeignKey(() => LineageJobEntity, { name: 'fk_lineage_job_datasets_job', onDelete: 'CASCADE' })
  job_id: string;

  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'pk_lineage_job_datasets' })
  role: 'input' | 'output';

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_lineage_job_datasets' })
  dataset_key: string;

  @Column({ type: 'text' })
  namespace: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetEntity, { name: 'fk_lineage_job_datasets_dataset', onDelete: 'CASCADE' })
  dataset_id: string | null;
}
