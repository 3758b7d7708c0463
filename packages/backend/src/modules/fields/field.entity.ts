import type { FieldOrigin } from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { DatasetEntity } from '../datasets/dataset.entity.js';

@AuditedTable('fields')
@Index('uq_fields_root_name', ['dataset_id', 'name'], { unique: true, where: 'parent_id IS NULL' })
@Index('uq_fields_nested_name', ['dataset_id', 'parent_id', 'name'], {
  unique: true,
  where: 'parent_id IS NOT NULL',
})
@Index('ix_fields_parent', ['parent_id'])
@Index('ix_fields_dataset', ['dataset_id'])
@Index('ix_fields_classified', ['dataset_id'], { where: 'pii_tags IS NOT NULL' })
@Check('fields_origin_check', "origin IN ('mapped', 'tech', 'deprecated')")
export class FieldEntity extends AuditedEntity {
  /** Search text (ADR 0018), kept by a trigger from the names and note; never read or written here. */
  @Column({ type: 'tsvector', nullable: true, select: false, insert: false, update: false })
  search_vector: string | null;

  /** The current PII tags (newest classification), kept by a trigger on field_classifications (ADR 0018). */
  @Column({ type: 'text', array: true, nullable: true, select: false, insert: false, update: false })
  pii_tags: string[] | null;

  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetEntity, { name: 'fk_fields_dataset', onDelete: 'CASCADE' })
  dataset_id: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => FieldEntity, { name: 'fk_fields_parent', onDelete: 'CASCADE' })
  parent_id: string | null;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  path: string | null;

  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 20, default: 'mapped' })
  origin: FieldOrigin;
}
