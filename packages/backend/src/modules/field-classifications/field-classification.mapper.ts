import type { FieldClassification } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { FieldClassificationEntity } from './field-classification.entity.js';

export function toFieldClassification(e: FieldClassificationEntity): FieldClassification {
  return withAudit<FieldClassification>(e, { field_id: e.field_id, pii_tags: e.pii_tags, reason: e.reason });
}
