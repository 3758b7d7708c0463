import { Column, ForeignKey, Index } from 'typeorm';
import { AuditedTable, ClockAuditedEntity } from '../../common/crud/audited-entity.js';
import { FieldEntity } from '../fields/field.entity.js';

// ix_field_classifications_field_created orders created_at and id DESC in the migration.
@AuditedTable('field_classifications')
@Index('ix_field_classifications_field_created', ['field_id', 'created_at', 'id'])
// A GIN index (search, migration 1765400000000): TypeORM cannot declare the access method, so it only
// records the name and leaves the index alone.
@Index('ix_field_classifications_pii_tags', { synchronize: false })
export class FieldClassificationEntity extends ClockAuditedEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => FieldEntity, { name: 'fk_field_classifications_field', onDelete: 'CASCADE' })
  field_id: string;

  @Column({ type: 'text', array: true })
  pii_tags: string[];

  @Column({ type: 'text', nullable: true })
  reason: string | null;
}
