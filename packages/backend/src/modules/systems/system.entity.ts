import type { CompatibilityLevel } from '@aide/schemas';
import { Check, Column, ForeignKey, Index } from 'typeorm';
import { COMPATIBILITY_LEVELS_SQL } from '../../common/crud/compatibility-levels-sql.js';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';
import { CredentialRefEntity } from '../credential-refs/credential-ref.entity.js';
import { SystemFlavorEntity } from '../system-flavors/system-flavor.entity.js';

@AuditedTable('systems')
@Index('uq_systems_code_active', ['code'], { unique: true, where: 'deleted_at IS NULL' })
@Index('ix_systems_flavor', ['flavor_id'])
@Index('ix_systems_credential_ref', ['credential_ref_id'])
@Check('ck_systems_default_compatibility', `default_compatibility IN ${COMPATIBILITY_LEVELS_SQL}`)
export class SystemEntity extends SoftDeletableEntity {
  /** Search text (ADR 0018), kept by a trigger from the names and note; never read or written here. */
  @Column({ type: 'tsvector', nullable: true, select: false, insert: false, update: false })
  search_vector: string | null;

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
  @ForeignKey(() => SystemFlavorEntity, { name: 'fk_systems_flavor' })
  flavor_id: string;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey(() => CredentialRefEntity, { name: 'fk_systems_credential_ref' })
  credential_ref_id: string | null;

  /** The default compatibility level of the system's datasets (ADR 0048); null = the registry's. */
  @Column({ type: 'varchar', length: 30, nullable: true })
  default_compatibility: CompatibilityLevel | null;
}
