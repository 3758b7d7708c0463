import type { ApiKeyScope } from '@aide/schemas';
import { Column, ForeignKey, Index } from 'typeorm';
import { AuditedEntity, AuditedTable } from '../../common/crud/audited-entity.js';
import { UserEntity } from '../users/user.entity.js';

/** An API key: only its SHA-256 hash is kept; `prefix` identifies it in lists and logs. */
@AuditedTable('api_keys')
@Index('uq_api_keys_key_hash', ['key_hash'], { unique: true })
@Index('ix_api_keys_user', ['user_id'])
export class ApiKeyEntity extends AuditedEntity {
  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => UserEntity, { name: 'fk_api_keys_user', onDelete: 'CASCADE' })
  user_id: string;

  @Column({ type: 'uuid', array: true })
  workspace_ids: string[];

  /** What the key reaches outside its workspaces (ADR 0020): `catalogue:read`, `catalogue:write`. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  scopes: ApiKeyScope[];

  @Column({ type: 'varchar', length: 32 })
  prefix: string;

  @Column({ type: 'varchar', length: 64 })
  key_hash: string;

  @Column({ type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  last_used_at: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at: Date | null;

  @Column({ type: 'uuid', nullable: true })
  revoked_by: string | null;
}
