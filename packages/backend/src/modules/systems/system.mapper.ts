import type { System } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { SystemEntity } from './system.entity.js';

export function toSystem(e: SystemEntity): System {
  return withSoftDelete<System>(e, {
    code: e.code,
    name: e.name,
    is_active: e.is_active,
    tags: e.tags,
    extra: e.extra,
    flavor_id: e.flavor_id,
    credential_ref_id: e.credential_ref_id,
  });
}
