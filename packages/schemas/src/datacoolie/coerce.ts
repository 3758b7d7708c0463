// Coercion helpers shared by the models (reference §1.1): list and boolean coercion, JSON-object
// fields, integer fields, usable identifiers, name-derived ids, and the Python renderings that
// DataCoolie's messages contain.
import { NAME_UUID_NAMESPACE } from './constants.js';
import { ConfigurationError } from './errors.js';
import { sha1 } from './sha1.js';

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // Any realm's Object.prototype (structuredClone and vm contexts create objects in other realms).
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** The Python type name of a JSON-ish value, as DataCoolie's messages show it. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    case 'object':
      return isPlainObject(value) ? 'dict' : (value.constructor?.name ?? 'object');
    default:
      return typeof value;
  }
}

/** A value as message text: strings as they are, anything else as JSON. */
export function displayValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Python `repr` of a scalar: strings quoted as Python quotes them, null as `None`. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value !== 'string') return displayValue(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

/** Python-style tuple rendering, e.g. `('c-1', None, 'orders', 'ID')`. */
export function pyTuple(values: readonly unknown[]): string {
  return `(${values.map(pyRepr).join(', ')})`;
}

/** A string whose trimmed value is non-empty. */
export function isUsableIdentifier(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Unicode case folding for identifier comparison. JavaScript has no `casefold()`; upper- then
 * lower-casing folds the cases that matter for identifiers (`ß` → `ss`, final sigma) like Python's.
 */
export function casefold(value: string): string {
  return value.toUpperCase().toLowerCase();
}

/** UUIDv5 of the exact (untrimmed) name in DataCoolie's namespace. */
export function nameToUuid(name: string): string {
  const hex = NAME_UUID_NAMESPACE.replace(/-/g, '');
  const namespace = Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  const hash = sha1(namespace, name);
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const out = hash
    .slice(0, 16)
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('');
  return `${out.slice(0, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}-${out.slice(16, 20)}-${out.slice(20)}`;
}

/**
 * `ensure_list`: null → []; arrays as they are; strings trimmed, a JSON-array string parsed, else
 * split on commas with empty parts dropped; any other scalar → a one-element list.
 */
export function ensureList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return [];
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        // not JSON: split on commas below
      }
    }
    return text
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  }
  return [value];
}

/** `ensure_list` for fields whose items are column or key names. */
export function ensureStringList(value: unknown, field: string): string[] {
  const items = ensureList(value);
  for (const [index, item] of items.entries()) {
    if (typeof item !== 'string') {
      throw new ConfigurationError(`${field}[${index}] must be a string`, { field });
    }
  }
  return items as string[];
}

const TRUE_WORDS = new Set(['true', 'yes', '1', 'on', 't', 'y']);
const FALSE_WORDS = new Set(['false', 'no', '0', 'off', 'f', 'n', '']);

/** `convert_to_bool`; undefined means "not convertible" and is reported by the caller. */
export function toBoolean(value: unknown): boolean | undefined {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return undefined;
}

export function convertToBool(value: unknown, message: string): boolean {
  const result = toBoolean(value);
  if (result === undefined) throw new ConfigurationError(message);
  return result;
}

/** A JSON-object field (`configure`, `secrets_ref`): object, JSON object text, or null/blank → {}. */
export function parseJsonObject(value: unknown): JsonObject {
  if (value === null || value === undefined) return {};
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new ConfigurationError(`Invalid JSON format: ${value}`);
    }
    if (!isPlainObject(parsed)) {
      throw new ConfigurationError(`Expected JSON object, got ${pyTypeName(parsed)}: ${value}`);
    }
    return parsed;
  }
  if (isPlainObject(value)) return structuredClone(value);
  throw new ConfigurationError(`Expected str or dict, got ${pyTypeName(value)}: ${displayValue(value)}`);
}

/** An optional integer: integers and integer strings; "" and null → null; anything else rejected. */
export function parseOptionalInteger(value: unknown, field: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return null;
    if (/^[+-]?\d+$/.test(text)) return Number.parseInt(text, 10);
  }
  throw new ConfigurationError(`${field} must be an integer`, { field });
}

/** An optional string field: absent/null → null; other non-strings rejected. */
export function optionalString(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  throw new ConfigurationError(`${field} must be a string or null`, { field });
}

/** Re-throws a nested model's ConfigurationError with `details.field` set to its path. */
export function withFieldPath<T>(path: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      const inner = typeof error.details['field'] === 'string' ? `${path}.${error.details['field']}` : path;
      throw new ConfigurationError(error.message, { ...error.details, field: inner }, { cause: error });
    }
    throw error;
  }
}

export function requireField(input: JsonObject, field: string): unknown {
  if (!(field in input)) throw new ConfigurationError(`Missing required field: ${field}`, { field });
  return input[field];
}

export function asInputObject(value: unknown, model: string): JsonObject {
  if (isPlainObject(value)) return value;
  throw new ConfigurationError(`${model} must be an object, got ${pyTypeName(value)}`);
}
