import { describe, expect, it } from '@jest/globals';
import {
  convertOriginalRules,
  isOriginalRuleFormat,
  normalizeParamsSchema,
  ParamsSchemaError,
  validateParamsSchema,
  validateTypeParams,
  type ParamsIssue,
} from './params-schema.js';

const NUMERIC_RULES = {
  precision: { type: 'int', required: false, default: null, min: 1, max: 1000 },
  scale: { type: 'int', required: false, default: null, min: -1000, max: 1000 },
};
const NUMERIC_SCHEMA = {
  type: 'object',
  properties: {
    precision: { type: 'integer', minimum: 1, maximum: 1000 },
    scale: { type: 'integer', minimum: -1000, maximum: 1000 },
  },
  additionalProperties: false,
};
const DECIMAL_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    precision: { type: 'integer', minimum: 1, maximum: 38 },
    scale: { type: 'integer', minimum: 0, maximum: 38, default: 0 },
  },
  required: ['precision'],
  additionalProperties: false,
};

function issuesOf(schema: unknown, params: unknown): ParamsIssue[] {
  const result = validateTypeParams(schema, params);
  if (result.ok) {
    throw new Error(`expected issues, got ${JSON.stringify(result.value)}`);
  }
  return result.issues;
}

function schemaIssues(schema: unknown): ParamsIssue[] {
  try {
    validateParamsSchema(schema);
  } catch (err) {
    expect(err).toBeInstanceOf(ParamsSchemaError);
    return (err as ParamsSchemaError).issues;
  }
  throw new Error('expected a ParamsSchemaError');
}

describe('validateTypeParams', () => {
  it('accepts valid params and applies defaults', () => {
    expect(validateTypeParams(DECIMAL_SCHEMA, { precision: 12 })).toEqual({
      ok: true,
      value: { precision: 12, scale: 0 },
    });
    expect(validateTypeParams(NUMERIC_SCHEMA, null)).toEqual({ ok: true, value: {} });
  });

  it('does not mutate the params it is given', () => {
    const params = { precision: 12 };
    validateTypeParams(DECIMAL_SCHEMA, params);
    expect(params).toEqual({ precision: 12 });
  });

  it('reports a wrong type with its path', () => {
    expect(issuesOf(NUMERIC_SCHEMA, { precision: '12' })).toEqual([
      { path: ['precision'], message: 'must be integer' },
    ]);
    expect(issuesOf(NUMERIC_SCHEMA, { precision: true })).toEqual([
      { path: ['precision'], message: 'must be integer' },
    ]);
    expect(issuesOf(NUMERIC_SCHEMA, { precision: 1.5 })).toEqual([
      { path: ['precision'], message: 'must be integer' },
    ]);
  });

  it('reports out-of-range values, bounds inclusive', () => {
    expect(issuesOf(NUMERIC_SCHEMA, { precision: 0 })).toEqual([
      { path: ['precision'], message: 'must be >= 1' },
    ]);
    expect(issuesOf(NUMERIC_SCHEMA, { scale: 1001 })).toEqual([
      { path: ['scale'], message: 'must be <= 1000' },
    ]);
    expect(validateTypeParams(NUMERIC_SCHEMA, { precision: 1000, scale: -1000 }).ok).toBe(true);
  });

  it('reports unknown keys', () => {
    expect(issuesOf(NUMERIC_SCHEMA, { precison: 10 })).toEqual([
      { path: ['precison'], message: 'is not a parameter of this data type' },
    ]);
  });

  it('reports missing required params, and a required param set to null', () => {
    expect(issuesOf(DECIMAL_SCHEMA, {})).toEqual([{ path: ['precision'], message: 'is required' }]);
    expect(issuesOf(DECIMAL_SCHEMA, { precision: null })).toEqual([
      { path: ['precision'], message: 'must be integer' },
    ]);
  });

  it('treats an optional param set to null as absent', () => {
    expect(validateTypeParams(NUMERIC_SCHEMA, { precision: 10, scale: null })).toEqual({
      ok: true,
      value: { precision: 10 },
    });
  });

  it('reports every issue at once', () => {
    const issues = issuesOf(DECIMAL_SCHEMA, { scale: 'x', extra: 1 });
    expect(issues.map((issue) => issue.path[0]).sort()).toEqual(['extra', 'precision', 'scale']);
  });

  it('rejects params that are not an object', () => {
    expect(issuesOf(NUMERIC_SCHEMA, [1])).toEqual([{ path: [], message: 'must be an object' }]);
  });

  it('reports enum values', () => {
    const schema = {
      type: 'object',
      properties: { unit: { enum: ['s', 'ms'] } },
      additionalProperties: false,
    };
    expect(issuesOf(schema, { unit: 'h' })).toEqual([
      { path: ['unit'], message: 'must be one of "s", "ms"' },
    ]);
  });

  it('throws ParamsSchemaError when the schema itself is invalid', () => {
    expect(() => validateTypeParams({ type: 'object', properties: { p: { type: 'date' } } }, {})).toThrow(
      ParamsSchemaError,
    );
  });
});

describe('validateParamsSchema', () => {
  it('accepts the supported shape', () => {
    expect(() => validateParamsSchema(NUMERIC_SCHEMA)).not.toThrow();
    expect(() => validateParamsSchema(DECIMAL_SCHEMA)).not.toThrow();
    expect(() => validateParamsSchema({ type: 'object' })).not.toThrow();
  });

  it('rejects what is not a valid JSON Schema', () => {
    expect(
      schemaIssues({ type: 'object', properties: { p: { type: 'integer', minimum: 'one' } } }),
    ).toContainEqual({
      path: ['properties', 'p', 'minimum'],
      message: 'must be number',
    });
    expect(schemaIssues({ type: 'object', required: 'p' }).length).toBeGreaterThan(0);
    expect(schemaIssues('not a schema')).toEqual([{ path: [], message: 'must be an object' }]);
  });

  it('refuses deep nesting before the recursive JSON Schema validator walks it', () => {
    // A seed file is not bounded by the HTTP body parser: 20,000 nested schemas would overflow Ajv.
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { p: deep } };
    expect(schemaIssues(deep)).toEqual([{ path: [], message: 'must not nest more than 16 levels' }]);
  });

  it('rejects valid JSON Schemas outside the accepted shape', () => {
    expect(schemaIssues({ type: 'array' })).toContainEqual({ path: ['type'], message: "must be 'object'" });
    expect(schemaIssues({ type: 'object', additionalProperties: true })[0]?.path).toEqual([
      'additionalProperties',
    ]);
    expect(
      schemaIssues({ type: 'object', properties: { p: { type: 'string', pattern: '(a+)+$' } } })[0]?.path,
    ).toEqual(['properties', 'p', 'pattern']);
    expect(schemaIssues({ type: 'object', properties: { p: { type: 'object' } } })[0]?.path).toEqual([
      'properties',
      'p',
      'type',
    ]);
    expect(schemaIssues({ type: 'object', $ref: '#/x' })[0]?.path).toEqual(['$ref']);
    expect(schemaIssues({ type: 'object', properties: { p: {} } })[0]?.message).toMatch(/type or an enum/);
    expect(
      schemaIssues({ type: 'object', properties: { s: { type: 'string', minimum: 1 } } })[0]?.path,
    ).toEqual(['properties', 's', 'minimum']);
  });

  it('rejects parameter names that cannot be template variables', () => {
    for (const name of ['__proto__x', '_p', 'item', 'fields', 'loop', 'params', 'self', '1x', 'a-b']) {
      const schema = { type: 'object', properties: { [name]: { type: 'integer' } } };
      expect(schemaIssues(schema)[0]?.path).toEqual(['properties', name]);
    }
  });

  it('rejects required names that are not properties, inverted bounds and invalid defaults', () => {
    expect(schemaIssues({ type: 'object', properties: {}, required: ['p'] })[0]?.path).toEqual([
      'required',
      0,
    ]);
    expect(
      schemaIssues({ type: 'object', properties: { p: { type: 'integer', minimum: 5, maximum: 1 } } })[0]
        ?.path,
    ).toEqual(['properties', 'p', 'minimum']);
    expect(
      schemaIssues({ type: 'object', properties: { p: { type: 'integer', maximum: 6, default: 9 } } }),
    ).toEqual([{ path: ['properties', 'p', 'default'], message: 'default must be <= 6' }]);
  });

  it('puts the issues in the error message', () => {
    expect(() => validateParamsSchema({ type: 'array' })).toThrow(
      "params_schema is invalid: type: must be 'object'",
    );
  });
});

describe('original rule format', () => {
  it('converts to JSON Schema', () => {
    expect(convertOriginalRules(NUMERIC_RULES)).toEqual(NUMERIC_SCHEMA);
    expect(
      convertOriginalRules({
        length: { type: 'int', required: true, min: 1 },
        name: { type: 'str', default: 'x', min: 1 },
        ratio: { type: 'float', max: 1.5 },
        flag: { type: 'bool' },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        length: { type: 'integer', minimum: 1 },
        name: { type: 'string', default: 'x' },
        ratio: { type: 'number', maximum: 1.5 },
        flag: { type: 'boolean' },
      },
      required: ['length'],
      additionalProperties: false,
    });
    expect(convertOriginalRules({})).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('validates the same as the original rules', () => {
    const cases: Array<[unknown, boolean]> = [
      [{}, true],
      [{ precision: 10, scale: 2 }, true],
      [{ precision: 1000, scale: -1000 }, true],
      [{ precision: 0 }, false],
      [{ scale: 1001 }, false],
      [{ precision: true }, false],
      [{ precision: '10' }, false],
      [{ other: 1 }, false],
      [{ precision: null }, true],
    ];
    for (const [params, ok] of cases) {
      expect([params, validateTypeParams(NUMERIC_RULES, params).ok]).toEqual([params, ok]);
      expect([params, validateTypeParams(NUMERIC_SCHEMA, params).ok]).toEqual([params, ok]);
    }
    const required = { length: { type: 'int', required: true } };
    expect(validateTypeParams(required, {}).ok).toBe(false);
    expect(validateTypeParams(required, { length: null }).ok).toBe(false);
  });

  it('tells rule maps from JSON Schemas', () => {
    expect(isOriginalRuleFormat(NUMERIC_RULES)).toBe(true);
    expect(isOriginalRuleFormat({})).toBe(true);
    expect(isOriginalRuleFormat({ type: { type: 'str' } })).toBe(true);
    expect(isOriginalRuleFormat(NUMERIC_SCHEMA)).toBe(false);
    expect(isOriginalRuleFormat({ properties: {} })).toBe(false);
    expect(normalizeParamsSchema(NUMERIC_RULES)).toEqual({
      schema: NUMERIC_SCHEMA,
      format: 'original-rules',
    });
    expect(normalizeParamsSchema(NUMERIC_SCHEMA).format).toBe('json-schema');
  });

  it('rejects malformed rules with paths', () => {
    const error = (() => {
      try {
        convertOriginalRules({
          p: { type: 'decimal' },
          q: { type: 'int', minimum: 1 },
          r: { type: 'int', max: 'x' },
        });
      } catch (err) {
        return err as ParamsSchemaError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(ParamsSchemaError);
    expect(error.issues.map((issue) => issue.path)).toEqual([
      ['p', 'type'],
      ['q', 'minimum'],
      ['r', 'max'],
    ]);
  });
});
