import type {
  CheckConstraint,
  CompatibilityOverride,
  ForeignKey as ForeignKeyConstraint,
  Index as IndexDefinition,
  PrimaryKey,
  TableKind,
  UniqueConstraint,
} from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { DatasetEntity } from '../datasets/dataset.entity.js';

@AuditedTable('dataset_schemas')
@Index('uq_dataset_schemas_dataset_version', ['dataset_id', 'version_num'], { unique: true })
@Check('dataset_schemas_version_num_check', 'version_num >= 1')
@Check(
  'ck_dataset_schemas_table_kind',
  "table_kind IN ('table', 'view', 'materialized_view', 'partitioned_table', 'foreign_table')",
)
export class DatasetSchemaEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_dataset_schemas_dataset', onDelete: 'CASCADE' })
  dataset_id: string;

  @Column({ type: 'integer' })
  version_num: number;

  @Column({ type: 'jsonb', nullable: true })
  schema_: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;

  // What a crawler sees of the table (ADR 0012). Lists are stored sorted, so equal sets are equal JSON.
  @Column({ type: 'varchar', length: 30, nullable: true })
  table_kind: TableKind | null;

  @Column({ type: 'text', nullable: true })
  table_comment: string | null;

  @Column({ type: 'text', nullable: true })
  view_definition: string | null;

  @Column({ type: 'jsonb', nullable: true })
  primary_key: PrimaryKey | null;

  @Column({ type: 'jsonb', default: [] })
  unique_constraints: UniqueConstraint[];

  @Column({ type: 'jsonb', default: [] })
  foreign_keys: ForeignKeyConstraint[];

  @Column({ type: 'jsonb', default: [] })
  indexes: IndexDefinition[];

  @Column({ type: 'jsonb', default: [] })
  check_constraints: CheckConstraint[];

  /** A forced publish (ADR 0048): its reason, who forced it, the level and the violations overridden. */
  @Column({ type: 'jsonb', nullable: true })
  compatibility_override: CompatibilityOverride | null;
}
