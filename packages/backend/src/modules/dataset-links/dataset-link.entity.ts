import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';
import { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import { DatasetEntity } from '../datasets/dataset.entity.js';
import { EngineEntity } from '../engines/engine.entity.js';

/** One pipeline hop source → target, pinned to a schema version on each side (AIDE v2 §1.11). */
@AuditedTable('dataset_links')
@Index('uq_dataset_links_pair_active', ['source_dataset_id', 'target_dataset_id'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
@Index('ix_dataset_links_target_active', ['target_dataset_id', 'source_dataset_id'], {
  where: 'deleted_at IS NULL',
})
@Index('ix_dataset_links_source_schema', ['source_schema_id'])
@Index('ix_dataset_links_target_schema', ['target_schema_id'])
@Index('ix_dataset_links_engine', ['engine_id'])
@Check('ck_dataset_links_no_self', 'source_dataset_id <> target_dataset_id')
export class DatasetLinkEntity extends SoftDeletableEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_links_source_dataset' })
  source_dataset_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_links_target_dataset' })
  target_dataset_id: string;

  /** Null: the source had no published version when the OpenLineage intake linked it (ADR 0054). */
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetSchemaEntity, { name: 'fk_dataset_links_source_schema', onDelete: 'RESTRICT' })
  source_schema_id: string | null;

  /** Null: the target had no published version when the OpenLineage intake linked it (ADR 0054). */
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetSchemaEntity, { name: 'fk_dataset_links_target_schema', onDelete: 'RESTRICT' })
  target_schema_id: string | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => EngineEntity, { name: 'fk_dataset_links_engine', onDelete: 'RESTRICT' })
  engine_id: string | null;
}
