import { Column, ForeignKey, Index } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';
import { SystemFlavorEntity } from '../system-flavors/system-flavor.entity.js';

@AuditedTable('data_types')
@Index('uq_data_types_flavor_code_active', ['system_flavor_id', 'code'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
export class DataTypeEntity extends SoftDeletableEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => SystemFlavorEntity, { name: 'fk_data_types_flavor' })
  system_flavor_id: string;

  @Column({ type: 'varchar', length: 255 })
  code: string;

  /** JSON Schema (2020-12) of the type's parameters. */
  @Column({ type: 'jsonb', default: {} })
  params_schema: Record<string, unknown>;

  /** Jinja2 template, validated against the sandbox's allow-list when written. */
  @Column({ type: 'text', nullable: true })
  render_template: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;
}
