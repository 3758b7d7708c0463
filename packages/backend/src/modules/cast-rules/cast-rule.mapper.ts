import type { CastRule } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { CastRuleEntity } from './cast-rule.entity.js';

export function toCastRule(e: CastRuleEntity): CastRule {
  return withAudit<CastRule>(e, {
    source_data_type_id: e.source_data_type_id,
    target_data_type_id: e.target_data_type_id,
    param_mapping: e.param_mapping,
    safety: e.safety,
    fidelity: e.fidelity ?? null,
    loss: e.loss ?? [],
  });
}
