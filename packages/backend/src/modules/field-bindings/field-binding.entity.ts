import type { IdentityKind } from '@aide/schemas';
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

  /** Null only for a column whose native type has no data type in the flavor (native_type is then set). */
  @Column({ type: 'uuid', nullable: true })
  type_instance_id: string | null;

  // What a crawler sees of the column (ADR 0012); `default`, `generated` and `collation` on the wire
  // (the first and the last are reserved words in SQL).
  @Column({ type: 'text', nullable: true })
  native_type: string | null;

  @Column({ type: 'text', nullable: true })
  default_expression: string | null;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  identity: IdentityKind | null;

  @Column({ type: 'text', nullable: true })
  generated_expression: string | null;

  @Column({ type: 'text', nullable: true })
  collation_name: string | null;
}
