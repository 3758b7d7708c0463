import type {
  CheckConstraint,
  ForeignKey,
  Index,
  PrimaryKey,
  TableKind,
  UniqueConstraint,
} from '@aide/schemas';
import { Column, Entity } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

@Entity('dataset_schemas')
export class DatasetSchemaEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
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

  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  unique_constraints: UniqueConstraint[];

  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  foreign_keys: ForeignKey[];

  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  indexes: Index[];

  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  check_constraints: CheckConstraint[];
}
