import type { TypeInstance } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { TypeInstanceEntity } from './type-instance.entity.js';

export function toTypeInstance(e: TypeInstanceEntity): TypeInstance {
  return withAudit<TypeInstance>(e, {
    data_type_id: e.data_type_id,
    type_params: e.type_params,
    parent_id: e.parent_id,
    slot: e.slot,
  });
}
