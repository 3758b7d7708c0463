import type { ApiKey, ApiKeyCreated, CreateApiKey, ListQuery, Page } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import { mapPage } from '../../common/crud/list.js';
import { AppError, validationError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { WorkspacesLookup } from '../workspaces/workspaces.lookup.js';
import type { ApiKeyEntity } from './api-key.entity.js';
import { toApiKey } from './api-key.mapper.js';
import { hashApiKey, newApiKey } from './api-key-secret.js';
import { ApiKeysRepository, type VerifiedApiKey } from './api-keys.repository.js';

/**
 * API keys act as the user who created them, within their workspaces. A user sees and revokes their
 * own keys; a superuser sees and revokes anyone's. Another user's key answers 404, as if absent.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly workspaces: WorkspacesLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery, user: AuthUser): Promise<Page<ApiKey>> {
    const scoped: ListQuery = user.is_superuser
      ? query
      : { ...query, filters: [...query.filters, { field: 'user_id', op: 'eq', value: user.id }] };
    return mapPage(await this.keys.crud.findPage(scoped), toApiKey);
  }

  private visible(row: ApiKeyEntity | undefined, user: AuthUser): ApiKeyEntity {
    if (!row || (!user.is_superuser && row.user_id !== user.id)) throw new AppError('API_KEY_NOT_FOUND');
    return row;
  }

  async get(id: string, user: AuthUser): Promise<ApiKey> {
    return toApiKey(this.visible(await this.keys.crud.findActive(id), user));
  }

  /** The answer is the only time the key is shown; the registry keeps its hash. */
  create(input: CreateApiKey, user: AuthUser): Promise<ApiKeyCreated> {
    // A key never reaches this: key management is a person's (the route refuses keys, ADR 0020).
    if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) {
      throw validationError([{ path: ['expires_at'], message: 'must be in the future' }]);
    }
    const workspaceIds = [...new Set(input.workspace_ids)];
    return this.tx.run(async (m) => {
      const found = await this.workspaces.lockActiveMany(workspaceIds, m);
      const missing = workspaceIds.filter((id) => !found.has(id));
      if (missing.length > 0)
        throw new AppError('WORKSPACE_NOT_FOUND', undefined, { workspace_ids: missing });
      const secret = newApiKey();
      const row = await this.keys.crud.insert(
        {
          name: input.name,
          user_id: user.id,
          workspace_ids: workspaceIds,
          scopes: [...new Set(input.scopes ?? [])],
          prefix: secret.prefix,
          key_hash: secret.hash,
          expires_at: input.expires_at ? new Date(input.expires_at) : null,
          note: input.note ?? null,
        },
        user.id,
        m,
      );
      return { ...toApiKey(row), key: secret.key };
    });
  }

  /** Revocation is immediate: the authenticator reads the key row on every request. */
  revoke(id: string, user: AuthUser): Promise<ApiKey> {
    return this.tx.run(async (m) => {
      const row = this.visible(await this.keys.crud.findActive(id, m, 'update'), user);
      if (row.revoked_at) throw new AppError('API_KEY_REVOKED');
      const [updated] = (
        await this.keys.crud
          .repo(m)
          .createQueryBuilder()
          .update()
          .set({
            revoked_at: () => 'now()',
            revoked_by: user.id,
            row_version: () => 'row_version + 1',
            updated_at: () => 'now()',
            updated_by: user.id,
          })
          .where('id = :id', { id })
          .returning('*')
          .execute()
      ).raw as ApiKeyEntity[];
      return toApiKey(updated);
    });
  }

  /** The key's owner and scope when the presented key is valid now. */
  verify(key: string): Promise<VerifiedApiKey | undefined> {
    return this.keys.verify(hashApiKey(key));
  }
}
