import { Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { ConnectionProfileEntity } from '../connection-profiles/connection-profile.entity.js';
import { DataTypeEntity } from '../data-types/data-type.entity.js';
import { DatasetEntity } from '../datasets/dataset.entity.js';
import { WorkspaceEntity } from '../workspaces/workspace.entity.js';

// uq_schema_hint_groups_key (connection, lower schema, lower table) and uq_schema_hint_columns_name
// (group, lower column) are on expressions TypeORM cannot declare: it records their names only, and
// the migration owns them.

/**
 * The schema hints a DataCoolie document declares for one source table (ADR 0050), keyed as DataCoolie
 * keys them: the source connection, the schema and the table. `dataset_id` is the table's dataset when
 * the connection's system can address it; `position` keeps the document's order of groups.
 */
@Entity('schema_hint_groups')
@Index('ix_schema_hint_groups_workspace', ['workspace_id', 'position'])
@Index('ix_schema_hint_groups_dataset', ['dataset_id'])
@Index('uq_schema_hint_groups_key', { synchronize: false })
export class SchemaHintGroupEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_schema_hint_groups' })
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => WorkspaceEntity, { name: 'fk_schema_hint_groups_workspace', onDelete: 'CASCADE' })
  workspace_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => ConnectionProfileEntity, { name: 'fk_schema_hint_groups_profile', onDelete: 'CASCADE' })
  connection_profile_id: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  schema_name: string | null;

  @Column({ type: 'varchar', length: 255 })
  table_name: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DatasetEntity, { name: 'fk_schema_hint_groups_dataset', onDelete: 'SET NULL' })
  dataset_id: string | null;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;

  @Column({ type: 'uuid', nullable: true })
  created_by: string | null;

  @Column({ type: 'uuid', nullable: true })
  updated_by: string | null;
}

/**
 * One declared hint, as written (`data_type` keeps its spelling), at `position` in its group. When its
 * type system has a seeded flavor, `data_type_id` and `type_params` are the registry type it maps to.
 */
@Entity('schema_hint_columns')
@Index('ix_schema_hint_columns_data_type', ['data_type_id'])
@Index('uq_schema_hint_columns_name', { synchronize: false })
export class SchemaHintColumnEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_schema_hint_columns' })
  @ForeignKey(() => SchemaHintGroupEntity, { name: 'fk_schema_hint_columns_group', onDelete: 'CASCADE' })
  group_id: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'pk_schema_hint_columns' })
  position: number;

  @Column({ type: 'varchar', length: 255 })
  column_name: string;

  @Column({ type: 'varchar', length: 255 })
  data_type: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  format: string | null;

  @Column({ type: 'integer', nullable: true })
  precision: number | null;

  @Column({ type: 'integer', nullable: true })
  scale: number | null;

  @Column({ type: 'text', nullable: true })
  default_value: string | null;

  @Column({ type: 'integer', nullable: true })
  ordinal_position: number | null;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => DataTypeEntity, { name: 'fk_schema_hint_columns_data_type' })
  data_type_id: string | null;

  @Column({ type: 'jsonb', nullable: true })
  type_params: Record<string, unknown> | null;
}
