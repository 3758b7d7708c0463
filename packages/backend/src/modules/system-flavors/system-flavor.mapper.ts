import type { SystemFlavor } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { SystemFlavorEntity } from './system-flavor.entity.js';

export function toSystemFlavor(e: SystemFlavorEntity): SystemFlavor {
  return withSoftDelete<SystemFlavor>(e, {
    code: e.code,
    name: e.name,
    vendor: e.vendor,
    versions: e.versions,
    kind_id: e.kind_id,
  });
}
