import type { Dataset } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { DatasetEntity } from './dataset.entity.js';

/** Parent columns plus the kind's attributes, flat, as the wire's discriminated union. */
export function toDataset(e: DatasetEntity): Dataset {
  const { id: _id, ...details } = e.details ?? {};
  if (e.kind === 'kafka' && details['retention_ms'] !== undefined) {
    // bigint comes back from pg as a string.
    details['retention_ms'] = Number(details['retention_ms']);
  }
  return Object.assign(
    withSoftDelete(e, {
      system_id: e.system_id,
      object_name: e.object_name,
      layer: e.layer,
      pattern_code: e.pattern_code,
      is_active: e.is_active,
      extra: e.extra,
      kind: e.kind,
    }),
    details,
  ) as Dataset;
}
