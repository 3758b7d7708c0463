import { Column, Entity } from 'typeorm';
import { SoftDeletableEntity } from '../../common/crud/audited-entity.js';

@Entity('data_types')
export class DataTypeEntity extends SoftDeletableEntity {
  @Column({ type: 'uuid' })
  system_flavor_id: string;

  @Column({ type: 'varchar', length: 255 })
  code: string;

  /** JSON Schema (2020-12) of the type's parameters. */
  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  params_schema: Record<string, unknown>;

  /** Jinja2 template, validated against the sandbox's allow-list when written. */
  @Column({ type: 'text', nullable: true })
  render_template: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;
}
