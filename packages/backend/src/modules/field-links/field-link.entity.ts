import { Column, Entity, Index } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

/** Column lineage at identity level (fields, not bindings), so it survives a re-pin (AIDE v2 §1.11). */
@Entity('field_links')
@Index('uq_field_links_target_in_link', ['dataset_link_id', 'target_field_id'], { unique: true })
@Index('ix_field_links_source', ['source_field_id', 'target_field_id', 'dataset_link_id'])
@Index('ix_field_links_target', ['target_field_id', 'source_field_id', 'dataset_link_id'])
export class FieldLinkEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  dataset_link_id: string;

  @Column({ type: 'uuid' })
  source_field_id: string;

  @Column({ type: 'uuid' })
  target_field_id: string;
}
