import type { FieldLink } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { FieldLinkEntity } from './field-link.entity.js';

export function toFieldLink(e: FieldLinkEntity): FieldLink {
  return withAudit<FieldLink>(e, {
    dataset_link_id: e.dataset_link_id,
    source_field_id: e.source_field_id,
    target_field_id: e.target_field_id,
    transformations: e.transformations ?? [],
  });
}
