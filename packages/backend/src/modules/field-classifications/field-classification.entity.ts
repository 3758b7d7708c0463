import { Column, Entity } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

@Entity('field_classifications')
export class FieldClassificationEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  field_id: string;

  @Column({ type: 'text', array: true })
  pii_tags: string[];

  @Column({ type: 'text', nullable: true })
  reason: string | null;
}
