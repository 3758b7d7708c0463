import type { ParamsIssue } from './params-schema-error.js';
import { JSON_SCHEMA_2020_12 } from './params-json-schema.js';
import { isReservedTemplateName } from './template-validator.js';

/** Most parameters a data type may declare. */
export const MAX_PARAMS = 50;
const MAX_ENUM_VALUES = 200;
const MAX_PARAM_NAME_CHARS = 64;

const ROOT_KEYS = new Set([
  '$schema',
  '$comment',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'description',
  'title',
]);
// No `pattern`/`format`/`$ref`: user-supplied regexes could backtrack catastrophically, and references
// could reach outside the schema.
const PROPERTY_KEYS = new Set([
  '$comment',
  'type',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'default',
  'description',
  'title',
]);
const PROPERTY_TYPES = new Set(['integer', 'number', 'string', 'boolean']);
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const LENGTH_KEYWORDS = ['minLength', 'maxLength'] as const;

/**
 * Checks the restrictions this registry puts on a `params_schema` on top of JSON Schema validity: an
 * object schema of simple typed properties (`integer`/`number`/`string`/`boolean` or an `enum` of
 * scalars) with bounds, defaults and descriptions; `additionalProperties` absent or `false`; property
 * names usable as template variables. Returns the problems found (empty when none).
 */
export function restrictedShapeIssues(schema: Record<string, unknown>): ParamsIssue[] {
  const issues: ParamsIssue[] = [];
  for (const key of Object.keys(schema)) {
    if (!ROOT_KEYS.has(key)) {
      issues.push({
        path: [key],
        message: `keyword not allowed at the root (allowed: ${[...ROOT_KEYS].join(', ')})`,
      });
    }
  }
  if (schema['$schema'] !== undefined && schema['$schema'] !== JSON_SCHEMA_2020_12) {
    issues.push({ path: ['$schema'], message: `must be ${JSON_SCHEMA_2020_12}` });
  }
  if (schema['type'] !== 'object') {
    issues.push({ path: ['type'], message: "must be 'object'" });
  }
  if (schema['additionalProperties'] !== undefined && schema['additionalProperties'] !== false) {
    issues.push({ path: ['additionalProperties'], message: 'must be false when present' });
  }
  const properties = schema['properties'] ?? {};
  if (!isPlainObject(properties)) {
    issues.push({ path: ['properties'], message: 'must be an object' });
    return issues;
  }
  const names = Object.keys(properties);
  if (names.length > MAX_PARAMS) {
    issues.push({ path: ['properties'], message: `must declare at most ${MAX_PARAMS} parameters` });
  }
  for (const name of names) {
    propertyIssues(name, properties[name], issues);
  }
  const required = schema['required'];
  if (required !== undefined) {
    if (!Array.isArray(required)) {
      issues.push({ path: ['required'], message: 'must be a list of parameter names' });
    } else {
      required.forEach((name: unknown, index) => {
        if (typeof name !== 'string' || !names.includes(name)) {
          issues.push({ path: ['required', index], message: 'must name a declared property' });
        }
      });
    }
  }
  return issues;
}

function propertyIssues(name: string, property: unknown, issues: ParamsIssue[]): void {
  const path = ['properties', name];
  if (name.length > MAX_PARAM_NAME_CHARS || isReservedTemplateName(name)) {
    issues.push({
      path,
      message: 'parameter names must be identifiers (letter first) and not a reserved template name',
    });
  }
  if (!isPlainObject(property)) {
    issues.push({ path, message: 'must be an object' });
    return;
  }
  for (const key of Object.keys(property)) {
    if (!PROPERTY_KEYS.has(key)) {
      issues.push({
        path: [...path, key],
        message: `keyword not allowed (allowed: ${[...PROPERTY_KEYS].join(', ')})`,
      });
    }
  }
  const type = property['type'];
  if (type === undefined && property['enum'] === undefined) {
    issues.push({ path, message: 'needs a type or an enum' });
  }
  if (type !== undefined && (typeof type !== 'string' || !PROPERTY_TYPES.has(type))) {
    issues.push({ path: [...path, 'type'], message: 'must be one of integer, number, string, boolean' });
  }
  const values = property['enum'];
  if (values !== undefined) {
    const scalars =
      Array.isArray(values) && values.every((v) => ['string', 'number', 'boolean'].includes(typeof v));
    if (!scalars || values.length === 0 || values.length > MAX_ENUM_VALUES) {
      issues.push({
        path: [...path, 'enum'],
        message: `must be 1 to ${MAX_ENUM_VALUES} strings, numbers or booleans`,
      });
    }
  }
  for (const keyword of NUMBER_KEYWORDS) {
    if (property[keyword] !== undefined && type !== 'integer' && type !== 'number') {
      issues.push({ path: [...path, keyword], message: 'only allowed with type integer or number' });
    }
  }
  for (const keyword of LENGTH_KEYWORDS) {
    if (property[keyword] !== undefined && type !== 'string') {
      issues.push({ path: [...path, keyword], message: 'only allowed with type string' });
    }
  }
  const { minimum, maximum } = property;
  if (typeof minimum === 'number' && typeof maximum === 'number' && minimum > maximum) {
    issues.push({ path: [...path, 'minimum'], message: 'must not be greater than maximum' });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
