import type { SystemKind } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { SystemKindEntity } from './system-kind.entity.js';

export function toSystemKind(e: SystemKindEntity): SystemKind {
  return withSoftDelete<SystemKind>(e, { code: e.code, name: e.name });
}
