import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { nestedDeeperThan } from './json-depth.js';
import { convertOriginalRules, isOriginalRuleFormat } from './original-rules.js';
import { ParamsSchemaError, type ParamsIssue } from './params-schema-error.js';
import type { ParamsJsonSchema } from './params-json-schema.js';
import { restrictedShapeIssues } from './params-schema-shape.js';

export { ParamsSchemaError, type ParamsIssue } from './params-schema-error.js';
export { convertOriginalRules, isOriginalRuleFormat, type OriginalParamRule } from './original-rules.js';
export type { ParamPropertySchema, ParamsJsonSchema, ParamScalar } from './params-json-schema.js';

/** The outcome of {@link validateTypeParams}. */
export type TypeParamsResult =
  { ok: true; value: Record<string, unknown> } | { ok: false; issues: ParamsIssue[] };

/** A `params_schema` as stored, and which format it was written in. */
export interface NormalizedParamsSchema {
  schema: ParamsJsonSchema;
  format: 'json-schema' | 'original-rules';
}

const MAX_ISSUES = 50;
/** An accepted schema nests 4 levels (root, properties, a property, its enum); Ajv's walk is recursive. */
const MAX_SCHEMA_DEPTH = 16;
const VALIDATOR_CACHE_SIZE = 256;
const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true });
const validatorCache = new Map<string, ValidateFunction>();

/**
 * Asserts that `schema` is a valid JSON Schema 2020-12 within the accepted shape (see
 * {@link restrictedShapeIssues}) and that its defaults satisfy it.
 *
 * @throws ParamsSchemaError listing every problem found.
 */
export function validateParamsSchema(schema: unknown): asserts schema is ParamsJsonSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new ParamsSchemaError([{ path: [], message: 'must be an object' }]);
  }
  if (nestedDeeperThan(schema, MAX_SCHEMA_DEPTH)) {
    throw new ParamsSchemaError([
      { path: [], message: `must not nest more than ${MAX_SCHEMA_DEPTH} levels` },
    ]);
  }
  const issues = restrictedShapeIssues(schema as Record<string, unknown>);
  if (!ajv.validateSchema(schema)) {
    issues.push(...toIssues(ajv.errors ?? [], 'schema'));
  }
  if (issues.length > 0) {
    throw new ParamsSchemaError(issues.slice(0, MAX_ISSUES));
  }
  const validate = compileOrThrow(schema as ParamsJsonSchema);
  try {
    const defaultIssues = validate(defaultsOf(schema as ParamsJsonSchema))
      ? []
      : toIssues(validate.errors ?? [], 'params', { ignoreRequired: true });
    if (defaultIssues.length > 0) {
      throw new ParamsSchemaError(
        defaultIssues.map((issue) => ({
          path: ['properties', ...issue.path, 'default'],
          message: `default ${issue.message}`,
        })),
      );
    }
  } finally {
    ajv.removeSchema(schema);
  }
}

/**
 * Accepts a `params_schema` in either format — JSON Schema, or the original rule map
 * `{param: {type, required, default, min, max}}` — and returns the validated JSON Schema.
 *
 * @throws ParamsSchemaError when it is neither a valid rule map nor an accepted JSON Schema.
 */
export function normalizeParamsSchema(input: unknown): NormalizedParamsSchema {
  if (isOriginalRuleFormat(input)) {
    const schema = convertOriginalRules(input);
    validateParamsSchema(schema);
    return { schema, format: 'original-rules' };
  }
  validateParamsSchema(input);
  return { schema: input, format: 'json-schema' };
}

/** The parameter names a schema declares. */
export function paramNamesOf(schema: ParamsJsonSchema): string[] {
  return Object.keys(schema.properties ?? {});
}

/**
 * Validates a type instance's `type_params` against its data type's `params_schema` (either format).
 * `null`/absent params are `{}`; an optional parameter set to `null` counts as absent, as in the
 * original. On success returns the params with schema defaults applied; on failure the issues with
 * their paths as lists of keys (`['precision']`). Compiled validators are cached per schema JSON.
 *
 * @throws ParamsSchemaError when the schema itself is invalid.
 */
export function validateTypeParams(schema: unknown, params: unknown): TypeParamsResult {
  const validate = validatorFor(schema);
  if (params === null || params === undefined) {
    params = {};
  }
  if (typeof params !== 'object' || Array.isArray(params)) {
    return { ok: false, issues: [{ path: [], message: 'must be an object' }] };
  }
  const required = new Set((validate.schema as ParamsJsonSchema).required ?? []);
  const value: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(structuredClone(params) as Record<string, unknown>)) {
    if (item !== null || required.has(key)) {
      value[key] = item;
    }
  }
  if (validate(value)) {
    return { ok: true, value };
  }
  return { ok: false, issues: toIssues(validate.errors ?? [], 'params').slice(0, MAX_ISSUES) };
}

function validatorFor(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validatorCache.get(key);
  if (validate !== undefined) {
    // Re-insert to keep the map in least-recently-used order.
    validatorCache.delete(key);
    validatorCache.set(key, validate);
    return validate;
  }
  validate = compileOrThrow(normalizeParamsSchema(schema).schema);
  if (validatorCache.size >= VALIDATOR_CACHE_SIZE) {
    const [oldestKey, oldest] = validatorCache.entries().next().value as [string, ValidateFunction];
    validatorCache.delete(oldestKey);
    // Ajv keeps every compiled schema until removed; user-written schemas must not pile up.
    ajv.removeSchema(oldest.schema);
  }
  validatorCache.set(key, validate);
  return validate;
}

function compileOrThrow(schema: ParamsJsonSchema): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (err) {
    throw new ParamsSchemaError([{ path: [], message: err instanceof Error ? err.message : String(err) }]);
  }
}

function defaultsOf(schema: ParamsJsonSchema): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.default !== undefined) {
      defaults[name] = property.default;
    }
  }
  // Required parameters without defaults are not what is being checked here.
  return defaults;
}

function toIssues(
  errors: ErrorObject[],
  subject: 'schema' | 'params',
  options: { ignoreRequired?: boolean } = {},
): ParamsIssue[] {
  return errors
    .filter((error) => !(options.ignoreRequired === true && error.keyword === 'required'))
    .map((error) => toIssue(error, subject));
}

function toIssue(error: ErrorObject, subject: 'schema' | 'params'): ParamsIssue {
  const path: Array<string | number> = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
    return {
      path: [...path, params['additionalProperty']],
      message: subject === 'params' ? 'is not a parameter of this data type' : 'is not allowed',
    };
  }
  if (error.keyword === 'required' && typeof params['missingProperty'] === 'string') {
    return { path: [...path, params['missingProperty']], message: 'is required' };
  }
  if (error.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
    return {
      path,
      message: `must be one of ${params['allowedValues'].map((v) => JSON.stringify(v)).join(', ')}`,
    };
  }
  return { path, message: error.message ?? `fails ${error.keyword}` };
}
