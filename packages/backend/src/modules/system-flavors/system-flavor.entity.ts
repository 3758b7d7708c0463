import { Column, ForeignKey, Index } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';
import { SystemKindEntity } from '../system-kinds/system-kind.entity.js';

@AuditedTable('system_flavors')
@Index('uq_system_flavors_code_active', ['code'], { unique: true, where: 'deleted_at IS NULL' })
@Index('ix_system_flavors_kind', ['kind_id'])
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
  @ForeignKey(() => SystemKindEntity, { name: 'fk_system_flavors_kind' })
  kind_id: string;
}
