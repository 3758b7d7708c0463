import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { DataflowEntity } from '../dataflows/dataflow.entity.js';

/** One row per written dataflow: the text as written (never parsed), its predecessor, provenance, revision. */
@Entity('watermarks')
@Check('ck_watermarks_revision', 'revision >= 1')
export class WatermarkEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_watermarks' })
  @ForeignKey(() => DataflowEntity, { name: 'fk_watermarks_dataflow', onDelete: 'CASCADE' })
  dataflow_id: string;

  @Column({ type: 'text', nullable: true })
  current_value: string | null;

  @Column({ type: 'text', nullable: true })
  previous_value: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  job_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  dataflow_run_id: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;

  @Column({ type: 'uuid', nullable: true })
  updated_by: string | null;

  @Column({ type: 'integer' })
  revision: number;
}

/** The append-only record of every write (audit and replay). */
@Entity('watermark_history')
export class WatermarkHistoryEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_watermark_history' })
  @ForeignKey(() => DataflowEntity, { name: 'fk_watermark_history_dataflow', onDelete: 'CASCADE' })
  dataflow_id: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'pk_watermark_history' })
  revision: number;

  @Column({ type: 'text' })
  value: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  job_id: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  dataflow_run_id: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  written_at: Date;

  @Column({ type: 'uuid', nullable: true })
  written_by: string | null;
}
