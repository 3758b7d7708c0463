import type { CompatSeverity, FieldCompatIssue } from '@aide/schemas';
import { ERROR_ISSUES } from '@aide/schemas';
import { AppError } from '../../common/errors/app-error.js';
import { resolveCast } from '../cast-rules/cast-resolver.js';
import type { CastCandidate } from '../cast-rules/cast-resolver.js';
import { type TypeTreeNode, typeSignature } from '../type-instances/type-tree.js';

/** What the comparison needs of a data type: its params (an identity cast copies them all). */
export interface DataTypeParams {
  id: string;
  code: string;
  params_schema: { properties?: Record<string, unknown> } | null;
  render_template: string | null;
}

export type TypeIssue = Extract<
  FieldCompatIssue,
  'type_incompatible' | 'type_unsafe_cast' | 'type_narrowing' | 'type_needs_cast'
>;

const ISSUE_RANK: readonly (TypeIssue | null)[] = [
  null,
  'type_needs_cast',
  'type_narrowing',
  'type_unsafe_cast',
  'type_incompatible',
];
const worst = (a: TypeIssue | null, b: TypeIssue | null) =>
  ISSUE_RANK.indexOf(a) >= ISSUE_RANK.indexOf(b) ? a : b;

// Lists name their element `element`, PostgreSQL arrays `item` (as the cast resolver renames them).
const SLOT_ALIASES: Record<string, string> = { item: 'element', element: 'item' };
const sameSlot = (a: string | null, b: string | null) => a === b || (a !== null && SLOT_ALIASES[a] === b);

/**
 * Walks two type trees side by side (children by position, slots equal or list aliases); calls
 * `visit` for each pair. False when the shapes differ (another number of children or slots).
 */
export function pairNodes(
  source: TypeTreeNode,
  target: TypeTreeNode,
  visit: (s: TypeTreeNode, t: TypeTreeNode) => void,
): boolean {
  const stack: [TypeTreeNode, TypeTreeNode][] = [[source, target]];
  for (let pair = stack.pop(); pair !== undefined; pair = stack.pop()) {
    const [s, t] = pair;
    visit(s, t);
    if (s.children.length !== t.children.length) return false;
    for (let i = 0; i < s.children.length; i++) {
      const sc = s.children[i];
      const tc = t.children[i];
      if (!sameSlot(sc.slot, tc.slot)) return false;
      stack.push([sc, tc]);
    }
  }
  return true;
}

/** Smaller numeric limits on the target, or a limit where the source had none, narrow the type. */
function compareParams(
  source: Record<string, unknown> | null,
  target: Record<string, unknown> | null,
): TypeIssue | null {
  let issue: TypeIssue | null = null;
  for (const key of new Set([...Object.keys(source ?? {}), ...Object.keys(target ?? {})])) {
    const s = source?.[key] ?? null;
    const t = target?.[key] ?? null;
    if (JSON.stringify(s) === JSON.stringify(t)) continue;
    if (t === null) continue; // the target has no limit: wider
    if (typeof t === 'number' && (s === null || (typeof s === 'number' && t < s))) {
      issue = worst(issue, 'type_narrowing');
    } else if (!(typeof t === 'number' && typeof s === 'number')) {
      issue = worst(issue, 'type_needs_cast');
    }
  }
  return issue;
}

/** A cast of a data type to itself: implicit, every parameter copied. */
function identityCast(type: DataTypeParams): CastCandidate {
  const mapping = Object.fromEntries(
    Object.keys(type.params_schema?.properties ?? {}).map((p) => [p, `@${p}`]),
  );
  return {
    id: '',
    source_data_type_id: type.id,
    target_data_type_id: type.id,
    param_mapping: mapping,
    safety: 'implicit',
    target_code: type.code,
    target_params_schema: (type.params_schema ?? {}) as Record<string, unknown>,
    target_render_template: type.render_template,
  } as unknown as CastCandidate;
}

/** Cast rules by `sourceDataTypeId>targetDataTypeId`. */
export type RulesByPair = ReadonlyMap<string, CastCandidate>;
export const pairKey = (s: string, t: string) => `${s}>${t}`;

/**
 * Compares a source type tree with a target one structurally (data types, params, children): equal
 * trees need nothing. Otherwise each source node is cast to its counterpart — a node of the same data
 * type by an identity cast, another by the cast rule between the two — through the cast resolver, and
 * the resolved tree is compared with the target: same tree → the rules' safety decides (safe: needs a
 * cast; unsafe: unsafe cast); same shape but smaller limits → narrowing; anything else is incompatible.
 */
export function compareTypes(
  source: TypeTreeNode,
  target: TypeTreeNode,
  rules: RulesByPair,
  dataTypes: ReadonlyMap<string, DataTypeParams>,
): { issue: TypeIssue | null; castRuleId: string | null } {
  if (typeSignature(source) === typeSignature(target)) return { issue: null, castRuleId: null };
  const bySource = new Map<string, CastCandidate[]>();
  let castable = true;
  const shaped = pairNodes(source, target, (s, t) => {
    const rule =
      s.data_type_id === t.data_type_id
        ? dataTypes.get(s.data_type_id) && identityCast(dataTypes.get(s.data_type_id) as DataTypeParams)
        : rules.get(pairKey(s.data_type_id, t.data_type_id));
    if (!rule) {
      castable = false;
      return;
    }
    const known = bySource.get(s.data_type_id) ?? [];
    if (!known.some((r) => r.target_data_type_id === rule.target_data_type_id)) known.push(rule);
    bySource.set(s.data_type_id, known);
  });
  if (!shaped || !castable) return { issue: 'type_incompatible', castRuleId: null };
  let outcome;
  try {
    outcome = resolveCast(source, bySource);
  } catch (error) {
    if (error instanceof AppError) return { issue: 'type_incompatible', castRuleId: null };
    throw error;
  }
  const castRuleId = outcome.rule.id === '' ? null : outcome.rule.id;
  let issue: TypeIssue | null =
    outcome.safety === 'unsafe' ? 'type_unsafe_cast' : outcome.safety === 'safe' ? 'type_needs_cast' : null;
  pairNodes(outcome.root, target, (s, t) => {
    issue = worst(issue, compareParams(s.type_params, t.type_params));
  });
  return { issue, castRuleId };
}

/** A row's severity: `error` for any of ERROR_ISSUES, `warn` for any other issue, else `ok`. */
export function severityOf(issues: readonly FieldCompatIssue[]): CompatSeverity {
  if (issues.some((i) => ERROR_ISSUES.includes(i))) return 'error';
  return issues.length > 0 ? 'warn' : 'ok';
}
