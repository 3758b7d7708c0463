import type { CredentialRef } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { CredentialRefEntity } from './credential-ref.entity.js';

export function toCredentialRef(e: CredentialRefEntity): CredentialRef {
  return withSoftDelete<CredentialRef>(e, { provider: e.provider, path: e.path, version: e.version });
}
