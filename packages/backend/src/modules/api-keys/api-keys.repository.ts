import type { ApiKeyScope } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { queryPrepared } from '../../database/prepared-query.js';
import { ApiKeyEntity } from './api-key.entity.js';

registerConstraintCodes({
  fk_api_keys_user: 'USER_NOT_FOUND',
  // Two random 256-bit keys with one hash: never in practice; a retry makes another key.
  uq_api_keys_key_hash: 'SERVICE_UNAVAILABLE',
});

/** A valid key's owner and scope, as the authenticator needs them. */
export interface VerifiedApiKey {
  id: string;
  user_id: string;
  is_superuser: boolean;
  user_type: 'regular' | 'technical';
  workspace_ids: string[];
  scopes: ApiKeyScope[];
}

const VERIFY_SQL = `WITH k AS (
    SELECT k.id, k.user_id, u.is_superuser, u.user_type, k.workspace_ids, k.scopes
    FROM api_keys k JOIN users u ON u.id = k.user_id
    WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
      AND u.is_active),
  touched AS (
    UPDATE api_keys a SET last_used_at = now() FROM k
    WHERE a.id = k.id AND (a.last_used_at IS NULL OR a.last_used_at < now() - interval '1 minute'))
  SELECT id, user_id, is_superuser, user_type, workspace_ids, scopes FROM k`;

@Injectable()
export class ApiKeysRepository {
  readonly crud: CrudRepository<ApiKeyEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: ApiKeyEntity,
      notFound: 'API_KEY_NOT_FOUND',
      softDelete: false,
    });
  }

  /**
   * The key with this hash if it is usable now: not revoked, not expired, its user active. Every
   * request reads it, so a revocation (or a deactivated user) takes effect at once on every replica.
   * `last_used_at` is refreshed at most once a minute, so reads do not turn into a write each. One
   * prepared statement, one round trip (every request of an integration makes it: ADR 0056).
   */
  async verify(keyHash: string): Promise<VerifiedApiKey | undefined> {
    const rows = await queryPrepared<VerifiedApiKey>(this.dataSource, VERIFY_SQL, [keyHash]);
    return rows[0];
  }
}
