import { Column, Index } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';

@AuditedTable('system_kinds')
@Index('uq_system_kinds_code_active', ['code'], { unique: true, where: 'deleted_at IS NULL' })
export class SystemKindEntity extends SoftDeletableEntity {
  @Column({ type: 'varchar', length: 255 })
  code: string;

  @Column({ type: 'text' })
  name: string;
}
