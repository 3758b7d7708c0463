// A change's class, its reason and its rule (with what each direction of reading makes of it, ADR
// 0048), as every rule of the classifier (classify.ts, key-changes.ts) gives them.
import { COMPATIBILITY_RULES, type CompatibilityRule } from './compatibility-rules.js';

const ruled = (rule: CompatibilityRule) => ({
  rule,
  backward: COMPATIBILITY_RULES[rule].backward,
  forward: COMPATIBILITY_RULES[rule].forward,
});

export const compatible = (rule: CompatibilityRule, reason: string) => ({
  compatibility: 'compatible' as const,
  reason,
  ...ruled(rule),
});
export const breaking = (rule: CompatibilityRule, reason: string) => ({
  compatibility: 'breaking' as const,
  reason,
  ...ruled(rule),
});
