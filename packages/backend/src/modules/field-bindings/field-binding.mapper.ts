import type { FieldBinding } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { FieldBindingEntity } from './field-binding.entity.js';

export function toFieldBinding(e: FieldBindingEntity): FieldBinding {
  return withAudit<FieldBinding>(e, {
    field_id: e.field_id,
    dataset_schema_id: e.dataset_schema_id,
    position: e.position,
    is_nullable: e.is_nullable,
    type_instance_id: e.type_instance_id,
  });
}
