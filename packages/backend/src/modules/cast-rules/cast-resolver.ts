import type { CastFidelity, CastSafety } from '@aide/schemas';
import { AppError } from '../../common/errors/app-error.js';
import { applyParamMapping } from '../type-system/cast-mapping.js';
import { validateTypeParams } from '../type-system/params-schema.js';
import type { TypeTreeNode } from '../type-instances/type-tree.js';
import type { CastRuleEntity } from './cast-rule.entity.js';

/** A cast rule with its target data type, as needed to resolve a cast. */
export interface CastCandidate extends CastRuleEntity {
  target_code: string;
  target_params_schema: Record<string, unknown>;
  target_render_template: string | null;
}

const SAFETY_ORDER: CastSafety[] = ['implicit', 'safe', 'unsafe'];
const FIDELITY_ORDER: CastFidelity[] = ['exact', 'widening', 'lossy'];

/**
 * The tree a source tree becomes, with the rule of its root, the weakest safety and fidelity along the
 * way (fidelity null when a rule on the way is unclassified) and what the lossy rules lose.
 */
export interface CastOutcome {
  root: TypeTreeNode;
  rule: CastCandidate;
  safety: CastSafety;
  fidelity: CastFidelity | null;
  loss: string[];
}

function weaker(a: CastFidelity | null, b: CastFidelity | null): CastFidelity | null {
  if (a === null || b === null) return null;
  return FIDELITY_ORDER.indexOf(a) >= FIDELITY_ORDER.indexOf(b) ? a : b;
}

/** "No mapping" reasons (cast_gaps) by source data type id, for the target flavor being resolved. */
export type CastGaps = ReadonlyMap<string, string>;

// A target whose template renders no child (a list cast to json or string) holds its children in its
// own value: they are not cast on their own.
const RENDERS_CHILDREN = /\b(item|element|key|value|fields)\b/;

// Lists name their element `element`, PostgreSQL arrays `item`: a child moves to the slot the target reads.
const SLOT_ALIASES: Record<string, string> = { item: 'element', element: 'item' };

function targetSlot(slot: string | null, targetTemplate: string | null): string | null {
  if (slot === null || targetTemplate === null) return slot;
  const alias = SLOT_ALIASES[slot];
  return alias && !targetTemplate.includes(slot) && targetTemplate.includes(alias) ? alias : slot;
}

/**
 * Whether the target reads a child of this slot. One it does not is part of the target's own value (an
 * Avro map's keys are strings: a Spark map's `key` child is not cast, the rule declares the loss).
 */
function readsSlot(slot: string | null, targetTemplate: string | null): boolean {
  if (slot === null || targetTemplate === null) return true;
  const variable = slot.startsWith('field:') ? 'fields' : slot;
  return new RegExp(`\\b${variable}\\b`).test(targetTemplate);
}

/**
 * Maps a source type tree onto the target flavor node by node, with exactly one rule per source data
 * type: none is CAST_RULE_NOT_RESOLVABLE (with the reason when the matrix says there is no mapping,
 * `gaps`), several CAST_RULE_AMBIGUOUS (with the candidates).
 */
export function resolveCast(
  source: TypeTreeNode,
  rulesBySource: ReadonlyMap<string, CastCandidate[]>,
  gaps: CastGaps = new Map(),
): CastOutcome {
  const rules = rulesBySource.get(source.data_type_id) ?? [];
  if (rules.length === 0) {
    const reason = gaps.get(source.data_type_id);
    throw new AppError(
      'CAST_RULE_NOT_RESOLVABLE',
      reason === undefined
        ? `No cast rule from '${source.code}' to the target flavor.`
        : `No mapping from '${source.code}' to the target flavor: ${reason}.`,
      { source_code: source.code, ...(reason === undefined ? {} : { no_mapping: reason }) },
    );
  }
  if (rules.length > 1) {
    throw new AppError(
      'CAST_RULE_AMBIGUOUS',
      `Several cast rules from '${source.code}' to the target flavor.`,
      {
        source_code: source.code,
        candidates: rules.map((r) => r.target_code),
      },
    );
  }
  const rule = rules[0];
  const mapped = validateTypeParams(
    rule.target_params_schema,
    applyParamMapping(rule.param_mapping, source.type_params),
  );
  if (!mapped.ok) {
    throw new AppError(
      'TYPE_INSTANCE_PARAMS_INVALID',
      `The mapped params do not fit '${rule.target_code}'.`,
      {
        issues: mapped.issues,
      },
    );
  }
  let safety = rule.safety;
  let fidelity: CastFidelity | null = rule.fidelity ?? null;
  const loss = new Set(rule.loss ?? []);
  const leaf = rule.target_render_template !== null && !RENDERS_CHILDREN.test(rule.target_render_template);
  const template = rule.target_render_template;
  const read = (child: TypeTreeNode) => readsSlot(targetSlot(child.slot, template), template);
  const children = (leaf ? [] : source.children.filter(read)).map((child) => {
    const outcome = resolveCast(child, rulesBySource, gaps);
    if (SAFETY_ORDER.indexOf(outcome.safety) > SAFETY_ORDER.indexOf(safety)) safety = outcome.safety;
    fidelity = weaker(fidelity, outcome.fidelity);
    outcome.loss.forEach((l) => loss.add(l));
    return { ...outcome.root, slot: targetSlot(child.slot, rule.target_render_template) };
  });
  return {
    rule,
    safety,
    fidelity,
    loss: [...loss],
    root: {
      id: source.id,
      data_type_id: rule.target_data_type_id,
      code: rule.target_code,
      render_template: rule.target_render_template,
      type_params: Object.keys(mapped.value).length > 0 ? mapped.value : null,
      slot: source.slot,
      children,
    },
  };
}
