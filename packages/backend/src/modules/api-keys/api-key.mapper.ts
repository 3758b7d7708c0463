import type { ApiKey } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { ApiKeyEntity } from './api-key.entity.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The read shape never carries the key or its hash. */
export function toApiKey(e: ApiKeyEntity): ApiKey {
  return withAudit<ApiKey>(e, {
    name: e.name,
    user_id: e.user_id,
    workspace_ids: e.workspace_ids,
    scopes: e.scopes,
    prefix: e.prefix,
    expires_at: iso(e.expires_at),
    last_used_at: iso(e.last_used_at),
    revoked_at: iso(e.revoked_at),
    revoked_by: e.revoked_by,
  });
}
