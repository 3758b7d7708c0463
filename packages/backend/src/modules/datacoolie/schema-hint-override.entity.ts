import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { DatasetEntity } from '../datasets/dataset.entity.js';
import { WorkspaceEntity } from '../workspaces/workspace.entity.js';

/**
 * What a DataCoolie schema hint carries beyond its type, per workspace, dataset and column (ADR 0030):
 * applied to the hint derived from the dataset's schema version for that column.
 */
@Entity('schema_hint_overrides')
@Index('ix_schema_hint_overrides_dataset', ['dataset_id'])
export class SchemaHintOverrideEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_schema_hint_overrides' })
  @ForeignKey(() => WorkspaceEntity, { name: 'fk_schema_hint_overrides_workspace', onDelete: 'CASCADE' })
  workspace_id: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_schema_hint_overrides' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_schema_hint_overrides_dataset', onDelete: 'CASCADE' })
  dataset_id: string;

  @PrimaryColumn({ type: 'varchar', length: 255, primaryKeyConstraintName: 'pk_schema_hint_overrides' })
  column_name: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  format: string | null;

  @Column({ type: 'text', nullable: true })
  default_value: string | null;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;

  @Column({ type: 'uuid', nullable: true })
  updated_by: string | null;
}
