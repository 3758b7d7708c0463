import type { Dataflow, DataflowSourceKind } from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';
import { ConnectionProfileEntity } from '../connection-profiles/connection-profile.entity.js';
import { DatasetLinkEntity } from '../dataset-links/dataset-link.entity.js';
import { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import { DatasetEntity } from '../datasets/dataset.entity.js';
import { WorkspaceEntity } from '../workspaces/workspace.entity.js';

/** A DataCoolie dataflow; its id is the exported `dataflow_id` (and its watermark's key). */
@AuditedTable('dataflows')
@Index('uq_dataflows_workspace_name_active', ['workspace_id', 'name'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
@Index('uq_dataflows_workspace_datacoolie_id', ['workspace_id', 'datacoolie_id'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
@Index('ix_dataflows_source_connection', ['source_connection_id'])
@Index('ix_dataflows_destination_connection', ['destination_connection_id'])
@Index('ix_dataflows_source_dataset', ['source_dataset_id'])
@Index('ix_dataflows_destination_dataset', ['destination_dataset_id'])
@Index('ix_dataflows_dataset_link', ['dataset_link_id'])
@Index('ix_dataflows_pinned_hint_schema_version', ['pinned_hint_schema_version_id'])
@Check('ck_dataflows_stage', `stage IS NULL OR strpos(stage, ',') = 0`)
@Check('ck_dataflows_processing_mode', `processing_mode IN ('batch', 'microbatch', 'streaming')`)
@Check(
  'ck_dataflows_load_type',
  `load_type IN ('full_load', 'overwrite', 'append', 'merge_upsert', 'merge_overwrite', 'scd2')`,
)
@Check(
  'ck_dataflows_source',
  `(source_kind = 'dataset' AND source_dataset_id IS NOT NULL AND source_query IS NULL AND source_python_function IS NULL)
    OR (source_kind = 'query' AND source_query IS NOT NULL AND source_dataset_id IS NULL AND source_python_function IS NULL)
    OR (source_kind = 'function' AND source_python_function IS NOT NULL AND source_dataset_id IS NULL AND source_query IS NULL)`,
)
export class DataflowEntity extends SoftDeletableEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => WorkspaceEntity, { name: 'fk_dataflows_workspace' })
  workspace_id: string;

  /** The dataflow_id DataCoolie sees (its watermark key), unique in the workspace (ADR 0050). */
  @Column({ type: 'varchar', length: 255 })
  datacoolie_id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  stage: string | null;

  @Column({ type: 'integer', nullable: true })
  group_number: number | null;

  @Column({ type: 'integer', nullable: true })
  execution_order: number | null;

  @Column({ type: 'varchar', length: 20, default: 'batch' })
  processing_mode: Dataflow['processing_mode'];

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'varchar', length: 20 })
  source_kind: DataflowSourceKind;

  @Column({ type: 'uuid' })
  @ForeignKey(() => ConnectionProfileEntity, { name: 'fk_dataflows_source_connection' })
  source_connection_id: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataflows_source_dataset' })
  source_dataset_id: string | null;

  @Column({ type: 'text', nullable: true })
  source_query: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  source_python_function: string | null;

  @Column({ type: 'varchar', length: 255, array: true, default: '{}' })
  source_watermark_columns: string[];

  @Column({ type: 'text', nullable: true })
  source_filter_expression: string | null;

  @Column({ type: 'json', default: {} })
  source_configure: Record<string, unknown>;

  @Column({ type: 'uuid' })
  @ForeignKey(() => ConnectionProfileEntity, { name: 'fk_dataflows_destination_connection' })
  destination_connection_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataflows_destination_dataset' })
  destination_dataset_id: string;

  @Column({ type: 'varchar', length: 20 })
  load_type: Dataflow['load_type'];

  @Column({ type: 'varchar', length: 255, array: true, default: '{}' })
  merge_keys: string[];

  @Column({ type: 'jsonb', default: [] })
  partition_columns: { column: string; expression: string | null }[];

  @Column({ type: 'json', default: {} })
  destination_configure: Record<string, unknown>;

  @Column({ type: 'json', default: {} })
  transform: Record<string, unknown>;

  @Column({ type: 'json', default: {} })
  configure: Record<string, unknown>;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetSchemaEntity, { name: 'fk_dataflows_pinned_hint_schema_version' })
  pinned_hint_schema_version_id: string | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetLinkEntity, { name: 'fk_dataflows_dataset_link' })
  dataset_link_id: string | null;
}
