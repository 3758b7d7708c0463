import type { FieldTransformation } from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { DatasetLinkEntity } from '../dataset-links/dataset-link.entity.js';
import { FieldEntity } from '../fields/field.entity.js';

/**
 * Column lineage at identity level (fields, not bindings), so it survives a re-pin (AIDE v2 §1.11). A
 * target may have several sources in a link, one row per (source, target) edge with the transformations
 * the edge goes through (ADR 0052).
 */
@AuditedTable('field_links')
@Index('uq_field_links_edge_in_link', ['dataset_link_id', 'source_field_id', 'target_field_id'], {
  unique: true,
})
@Index('ix_field_links_source', ['source_field_id', 'target_field_id', 'dataset_link_id'])
@Index('ix_field_links_target', ['target_field_id', 'source_field_id', 'dataset_link_id'])
@Check('ck_field_links_transformations_array', `jsonb_typeof(transformations) = 'array'`)
export class FieldLinkEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => DatasetLinkEntity, { name: 'fk_field_links_dataset_link', onDelete: 'CASCADE' })
  dataset_link_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => FieldEntity, { name: 'fk_field_links_source_field', onDelete: 'CASCADE' })
  source_field_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => FieldEntity, { name: 'fk_field_links_target_field', onDelete: 'CASCADE' })
  target_field_id: string;

  /** `[]` when the transformation is not known (REST links without it, lake syncs, older facets). */
  @Column({ type: 'jsonb', default: [] })
  transformations: FieldTransformation[];
}
