import { Column, Entity } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

@Entity('field_bindings')
export class FieldBindingEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  field_id: string;

  @Column({ type: 'uuid' })
  dataset_schema_id: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'boolean', default: true })
  is_nullable: boolean;

  @Column({ type: 'uuid' })
  type_instance_id: string;
}
