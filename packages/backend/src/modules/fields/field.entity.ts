import type { FieldOrigin } from '@aide/schemas';
import { Column, Entity } from 'typeorm';
import { AuditedEntity } from '../../common/crud/audited-entity.js';

@Entity('fields')
export class FieldEntity extends AuditedEntity {
  @Column({ type: 'uuid' })
  dataset_id: string;

  @Column({ type: 'uuid', nullable: true })
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
