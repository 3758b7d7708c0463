import { Check, Column, Entity, Index } from 'typeorm';
import { SoftDeletableEntity } from '../../common/crud/audited-entity.js';

/** One pipeline hop source → target, pinned to a schema version on each side (AIDE v2 §1.11). */
@Entity('dataset_links')
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
  source_dataset_id: string;

  @Column({ type: 'uuid' })
  target_dataset_id: string;

  @Column({ type: 'uuid' })
  source_schema_id: string;

  @Column({ type: 'uuid' })
  target_schema_id: string;

  @Column({ type: 'uuid', nullable: true })
  engine_id: string | null;
}
