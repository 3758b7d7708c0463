import type { Engine } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { EngineEntity } from './engine.entity.js';

/** Parent columns plus the kind's attributes, flat, as the wire's discriminated union. */
export function toEngine(e: EngineEntity): Engine {
  const { id: _id, ...details } = e.details ?? {};
  return Object.assign(
    withSoftDelete(e, {
      code: e.code,
      name: e.name,
      kind: e.kind,
      role: e.role,
      version: e.version,
    }),
    details,
  ) as Engine;
}
