import { Column, Entity } from 'typeorm';
import { SoftDeletableEntity } from '../../common/crud/audited-entity.js';

@Entity('system_flavors')
export class SystemFlavorEntity extends SoftDeletableEntity {
  @Column({ type: 'varchar', length: 255 })
  code: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  vendor: string | null;

  @Column({ type: 'varchar', length: 255, array: true, nullable: true })
  versions: string[] | null;

  @Column({ type: 'uuid' })
  kind_id: string;
}
