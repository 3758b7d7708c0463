import { Check, Column, Index } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';

@AuditedTable('credential_refs')
@Index('uq_credential_refs_provider_path_active', ['provider', 'path'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
@Check('credential_refs_version_check', 'version IS NULL OR version >= 1')
export class CredentialRefEntity extends SoftDeletableEntity {
  @Column({ type: 'varchar', length: 255 })
  provider: string;

  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'integer', nullable: true })
  version: number | null;
}
