import type { FieldClassification } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { FieldClassificationEntity } from './field-classification.entity.js';

/** The read shape; `emails` names the authors (`created_by`) by their e-mail address. */
export function toFieldClassification(
  e: FieldClassificationEntity,
  emails: ReadonlyMap<string, string>,
): FieldClassification {
  return withAudit<FieldClassification>(e, {
    field_id: e.field_id,
    pii_tags: e.pii_tags,
    reason: e.reason,
    created_by_email: e.created_by ? (emails.get(e.created_by) ?? null) : null,
  });
}
