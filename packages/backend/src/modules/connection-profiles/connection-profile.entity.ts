import type { ConnectionProfile } from '@aide/schemas';
import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AuditedTable, SoftDeletableEntity } from '../../common/crud/audited-entity.js';
import { CredentialRefEntity } from '../credential-refs/credential-ref.entity.js';
import { SystemEntity } from '../systems/system.entity.js';
import { WorkspaceEntity } from '../workspaces/workspace.entity.js';

/** A DataCoolie connection over a registry system; its id is the exported `connection_id`. */
@AuditedTable('connection_profiles')
@Index('uq_connection_profiles_workspace_name_active', ['workspace_id', 'name'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
@Index('uq_connection_profiles_workspace_datacoolie_id', ['workspace_id', 'datacoolie_id'], {
  unique: true,
  where: 'deleted_at IS NULL',
})
@Index('ix_connection_profiles_system', ['system_id'])
@Check(
  'ck_connection_profiles_type_format',
  `(connection_type = 'file' AND format IN ('parquet', 'csv', 'json', 'jsonl', 'avro', 'excel'))
    OR (connection_type = 'lakehouse' AND format IN ('delta', 'iceberg'))
    OR (connection_type = 'database' AND format = 'sql')
    OR (connection_type = 'api' AND format = 'api')
    OR (connection_type = 'function' AND format = 'function')`,
)
export class ConnectionProfileEntity extends SoftDeletableEntity {
  @Column({ type: 'uuid' })
  @ForeignKey(() => WorkspaceEntity, { name: 'fk_connection_profiles_workspace' })
  workspace_id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => SystemEntity, { name: 'fk_connection_profiles_system' })
  system_id: string;

  /** The connection_id DataCoolie sees, unique in the workspace (ADR 0050). */
  @Column({ type: 'varchar', length: 255 })
  datacoolie_id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 20 })
  connection_type: ConnectionProfile['connection_type'];

  @Column({ type: 'varchar', length: 20 })
  format: ConnectionProfile['format'];

  @Column({ type: 'varchar', length: 255, nullable: true })
  catalog: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  database: string | null;

  /** `json`, not `jsonb`: the key order a document wrote is served back. */
  @Column({ type: 'json', default: {} })
  configure: Record<string, unknown>;

  @Column({ type: 'boolean', default: true })
  use_schema_hint: boolean;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  /** Served exactly as a document wrote it: nothing derived, only declared hints (ADR 0050). */
  @Column({ type: 'boolean', default: false })
  as_written: boolean;

  /** For `as_written`: every configure key in the document's order, secret fields included. */
  @Column({ type: 'text', array: true, nullable: true })
  configure_keys: string[] | null;
}

/** One configure field of a profile filled, at export, with a secret's name from a credential reference. */
@Entity('connection_profile_secrets')
@Index('ix_connection_profile_secrets_credential_ref', ['credential_ref_id'])
export class ConnectionProfileSecretEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_connection_profile_secrets' })
  @ForeignKey(() => ConnectionProfileEntity, {
    name: 'fk_connection_profile_secrets_profile',
    onDelete: 'CASCADE',
  })
  profile_id: string;

  @PrimaryColumn({ type: 'varchar', length: 255, primaryKeyConstraintName: 'pk_connection_profile_secrets' })
  configure_field: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => CredentialRefEntity, { name: 'fk_connection_profile_secrets_credential_ref' })
  credential_ref_id: string;

  @Column({ type: 'integer' })
  position: number;
}
