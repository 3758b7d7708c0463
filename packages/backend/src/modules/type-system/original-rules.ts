import { ParamsSchemaError, type ParamsIssue } from './params-schema-error.js';
import type { ParamPropertySchema, ParamsJsonSchema } from './params-json-schema.js';

/** The original's parameter rule (aide-original §1.6): `{type, required, default, min, max}`. */
export interface OriginalParamRule {
  type: 'int' | 'float' | 'str' | 'bool';
  required?: boolean;
  default?: unknown;
  min?: number | null;
  max?: number | null;
}

const JSON_TYPE_OF_RULE = {
  int: 'integer',
  float: 'number',
  str: 'string',
  bool: 'boolean',
} as const satisfies Record<OriginalParamRule['type'], ParamPropertySchema['type']>;
const RULE_KEYS = new Set(['type', 'required', 'default', 'min', 'max']);
// A JSON Schema has at least one of these at its root with this shape; a rule map has only objects.
const JSON_SCHEMA_ROOT_MARKERS: Array<[string, (value: unknown) => boolean]> = [
  ['$schema', () => true],
  ['type', (value) => typeof value === 'string'],
  ['properties', () => true],
  ['required', (value) => Array.isArray(value)],
  ['additionalProperties', (value) => typeof value === 'boolean'],
  ['description', (value) => typeof value === 'string'],
  ['title', (value) => typeof value === 'string'],
];

/**
 * Whether `value` is in the original's rule-map format rather than JSON Schema: an object whose values
 * are all objects, with none of the root keywords of a JSON Schema. `{}` (no parameters) is a rule map.
 */
export function isOriginalRuleFormat(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) {
    return false;
  }
  if (
    JSON_SCHEMA_ROOT_MARKERS.some(([key, looksLikeSchema]) => key in value && looksLikeSchema(value[key]))
  ) {
    return false;
  }
  return Object.values(value).every(isPlainObject);
}

/**
 * Converts the original rule map to the equivalent JSON Schema (unknown keys rejected, bounds
 * inclusive, `default: null` dropped, `min`/`max` kept for numbers only as the original ignores them
 * elsewhere).
 *
 * @throws ParamsSchemaError when a rule is malformed.
 */
export function convertOriginalRules(rules: unknown): ParamsJsonSchema {
  if (!isPlainObject(rules)) {
    throw new ParamsSchemaError([{ path: [], message: 'must be an object of parameter rules' }]);
  }
  const issues: ParamsIssue[] = [];
  const properties: Record<string, ParamPropertySchema> = {};
  const required: string[] = [];
  for (const [name, rule] of Object.entries(rules)) {
    const property = convertRule(rule, [name], issues);
    if (property !== null) {
      properties[name] = property;
      if (isPlainObject(rule) && rule['required'] === true) {
        required.push(name);
      }
    }
  }
  if (issues.length > 0) {
    throw new ParamsSchemaError(issues);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

function convertRule(rule: unknown, path: string[], issues: ParamsIssue[]): ParamPropertySchema | null {
  if (!isPlainObject(rule)) {
    issues.push({ path, message: 'rule must be an object' });
    return null;
  }
  const before = issues.length;
  for (const key of Object.keys(rule)) {
    if (!RULE_KEYS.has(key)) {
      issues.push({
        path: [...path, key],
        message: `unknown rule key (allowed: ${[...RULE_KEYS].join(', ')})`,
      });
    }
  }
  const ruleType = rule['type'];
  if (typeof ruleType !== 'string' || !(ruleType in JSON_TYPE_OF_RULE)) {
    issues.push({ path: [...path, 'type'], message: 'must be one of int, float, str, bool' });
    return null;
  }
  const type = JSON_TYPE_OF_RULE[ruleType as OriginalParamRule['type']];
  if (rule['required'] !== undefined && typeof rule['required'] !== 'boolean') {
    issues.push({ path: [...path, 'required'], message: 'must be a boolean' });
  }
  const property: ParamPropertySchema = { type };
  const numeric = type === 'integer' || type === 'number';
  for (const [key, keyword] of [
    ['min', 'minimum'],
    ['max', 'maximum'],
  ] as const) {
    const bound = rule[key];
    if (bound === undefined || bound === null) {
      continue;
    }
    if (typeof bound !== 'number' || !Number.isFinite(bound)) {
      issues.push({ path: [...path, key], message: 'must be a number or null' });
    } else if (numeric) {
      property[keyword] = bound;
    }
  }
  if (rule['default'] !== undefined && rule['default'] !== null) {
    property.default = rule['default'];
  }
  return issues.length > before ? null : property;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
