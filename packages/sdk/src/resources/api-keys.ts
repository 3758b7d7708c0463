import { type ApiKey, type ApiKeyCreated, contract, type CreateApiKey } from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import { CollectionResource } from './crud.js';

/**
 * `/api/v1/api-keys`: credentials for pipelines, acting as their creator within workspaces. `create`
 * answers the key, shown this once (send it as `X-API-Key`, or as `token` of an `AideClient`);
 * `revoke` stops it at once. Users see their own keys; superusers see all.
 */
export class ApiKeysResource extends CollectionResource<ApiKey, CreateApiKey> {
  /** `POST /api-keys` — the key with its secret `key`, never shown again. */
  override create(body: CreateApiKey, options?: RequestOptions): Promise<ApiKeyCreated> {
    return this.api.invoke(contract.apiKeys.create, { body, options });
  }

  /** `POST /api-keys/{id}/revoke` — the owner or a superuser; `ConflictError` when already revoked. */
  revoke(id: string, options?: RequestOptions): Promise<ApiKey> {
    return this.api.invoke(contract.apiKeys.revoke, { params: { id }, options });
  }
}
