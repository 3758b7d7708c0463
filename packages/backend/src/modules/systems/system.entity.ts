import { Column, Entity } from 'typeorm';
import { SoftDeletableEntity } from '../../common/crud/audited-entity.js';

@Entity('systems')
export class SystemEntity extends SoftDeletableEntity {
  @Column({ type: 'varchar', length: 255 })
  code: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'varchar', length: 255, array: true, nullable: true })
  tags: string[] | null;

  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;

  @Column({ type: 'uuid' })
  flavor_id: string;

  @Column({ type: 'uuid', nullable: true })
  credential_ref_id: string | null;
}
