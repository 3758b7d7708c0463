import { Column, Entity } from 'typeorm';
import { SoftDeletableEntity } from '../../common/crud/audited-entity.js';

@Entity('system_kinds')
export class SystemKindEntity extends SoftDeletableEntity {
  @Column({ type: 'varchar', length: 255 })
  code: string;

  @Column({ type: 'text' })
  name: string;
}
