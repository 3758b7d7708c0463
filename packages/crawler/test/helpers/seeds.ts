// Checks type trees against the data types of packages/backend/seeds/<flavor>.yaml, read directly
// (the crawler must not import @aide/backend): every code exists in the flavor, params validate
// against its params schema (JSON Schema, or the original rule format converted the same way the
// backend converts it), children use the item / field:<name> slots.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import type { FlavorCode, TypeNode } from '../../src/model.js';

interface SeedType {
  code: string;
  params_schema?: Record<string, unknown>;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });

/** The original rule format: `{param: {type: int|str|float|bool, required, min, max}}`. */
function toJsonSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (schema === undefined) return { type: 'object', properties: {}, additionalProperties: false };
  if (typeof schema['type'] === 'string' || 'properties' in schema) return schema;
  const types: Record<string, string> = { int: 'integer', str: 'string', float: 'number', bool: 'boolean' };
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, raw] of Object.entries(schema)) {
    const rule = raw as { type: string; required?: boolean; min?: number | null; max?: number | null };
    properties[name] = {
      type: types[rule.type],
      ...(rule.min !== null && rule.min !== undefined ? { minimum: rule.min } : {}),
      ...(rule.max !== null && rule.max !== undefined ? { maximum: rule.max } : {}),
    };
    if (rule.required === true) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

export class SeedCatalogue {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly flavor: FlavorCode) {
    const file = parse(
      readFileSync(new URL(`../../../backend/seeds/${flavor}.yaml`, import.meta.url), 'utf8'),
    ) as { types: SeedType[] };
    for (const type of file.types) {
      this.validators.set(type.code, ajv.compile(toJsonSchema(type.params_schema)));
    }
  }

  get codes(): string[] {
    return [...this.validators.keys()];
  }

  /** The problems of a type tree (empty when it would be accepted by publish). */
  problems(type: TypeNode, path = '$'): string[] {
    const validate = this.validators.get(type.data_type);
    if (validate === undefined) return [`${path}: no data type '${type.data_type}' in ${this.flavor}`];
    const problems: string[] = [];
    if (!validate(type.params ?? {})) {
      problems.push(
        `${path}: ${type.data_type} params ${JSON.stringify(type.params)}: ${ajv.errorsText(validate.errors)}`,
      );
    }
    for (const child of type.children ?? []) {
      if (!/^(item|field:.+)$/.test(child.slot)) problems.push(`${path}: bad slot '${child.slot}'`);
      problems.push(...this.problems(child.type, `${path}.${child.slot}`));
    }
    return problems;
  }
}
