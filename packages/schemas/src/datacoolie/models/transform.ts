// `Transform` and its rule models (reference §1.6).
import {
  asInputObject,
  casefold,
  ensureStringList,
  isPlainObject,
  optionalString,
  parseJsonObject,
  withFieldPath,
  type JsonObject,
} from '../coerce.js';
import { ConfigurationError } from '../errors.js';
import { createSchemaHint, type SchemaHint } from './schema-hint.js';

export interface AdditionalColumn {
  column: string;
  expression: string;
}

/**
 * Value, masking and hash rules keep every key they were given: their documented keys are validated
 * (see docs/provider.md for what is checked), the rest is carried to the pipeline untouched.
 */
export interface ValueRule extends JsonObject {
  operation: string;
  columns: string[];
  order: number;
}

export interface MaskingRule extends JsonObject {
  method: string;
  columns: string[];
}

export interface HashColumn extends JsonObject {
  target_column: string;
  columns: string[];
  algorithm: string;
  serialization: string;
}

export interface Transform {
  deduplicate_columns: string[];
  latest_data_columns: string[];
  filter_expression: string | null;
  additional_columns: AdditionalColumn[];
  schema_hints: SchemaHint[];
  select_columns: string[];
  drop_columns: string[];
  rename_columns: Record<string, string>;
  value_rules: ValueRule[];
  hash_columns: HashColumn[];
  masking_rules: MaskingRule[];
  configure: JsonObject;
}

function fail(message: string, details: JsonObject = {}): never {
  throw new ConfigurationError(message, details);
}

/** Rule lists: a list, a single object, or null; every item an object. */
function objectList(value: unknown, field: string): JsonObject[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : isPlainObject(value) ? [value] : null;
  if (items === null) fail(`transform.${field} must be a list of objects`, { field });
  return items.map((item, index) => {
    if (!isPlainObject(item)) fail(`transform.${field}[${index}] must be an object`, { field });
    return item;
  });
}

function nonEmpty(value: unknown, message: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(message);
  return value;
}

function uniqueColumns(columns: string[], field: string): void {
  const seen = new Set<string>();
  for (const column of columns) {
    if (column.trim() === '') fail(`${field} must contain non-empty column names`, { field });
    const key = casefold(column);
    if (seen.has(key)) fail(`${field} must not contain duplicate columns: ${column}`, { field });
    seen.add(key);
  }
}

function renameColumns(value: unknown): Record<string, string> {
  const renames = parseJsonObject(value);
  const sources = new Set(Object.keys(renames).map(casefold));
  const targets = new Set<string>();
  for (const [from, to] of Object.entries(renames)) {
    if (from.trim() === '' || typeof to !== 'string' || to.trim() === '') {
      fail('rename_columns must map non-empty column names to non-empty column names', {
        field: 'rename_columns',
      });
    }
    const target = casefold(to);
    if (targets.has(target))
      fail(`rename_columns has duplicate target column: ${to}`, { field: 'rename_columns' });
    if (sources.has(target)) {
      fail(
        `rename_columns target '${to}' is also a source column (chains, cycles and no-op renames are not allowed)`,
        {
          field: 'rename_columns',
        },
      );
    }
    targets.add(target);
  }
  return renames as Record<string, string>;
}

function additionalColumn(item: JsonObject): AdditionalColumn {
  return {
    column: nonEmpty(item['column'], 'additional_columns column must be a non-empty string'),
    expression: nonEmpty(item['expression'], 'additional_columns expression must be a non-empty string'),
  };
}

const VALUE_OPERATIONS = ['trim', 'case', 'regex_replace', 'empty_to_null', 'fill_null', 'map'];
const MASKING_METHODS = ['redact', 'nullify', 'partial', 'numeric_bucket', 'date_truncate'];
const HASH_ALGORITHMS = ['sha256', 'xxhash64'];
const TRUNCATE_UNITS = ['year', 'month', 'day', 'hour'];

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function nonNegativeInteger(value: unknown, message: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(message);
  return value;
}

function valueRule(item: JsonObject): ValueRule {
  const operation = item['operation'];
  if (typeof operation !== 'string' || !VALUE_OPERATIONS.includes(operation)) {
    fail(`ValueRule.operation must be one of: ${VALUE_OPERATIONS.join(', ')}`);
  }
  const columns = ensureStringList(item['columns'], 'columns');
  if (columns.length === 0) fail('ValueRule.columns must not be empty');
  if (operation === 'case' && !['lower', 'upper'].includes(String(item['mode']))) {
    fail("ValueRule 'case' requires mode 'lower' or 'upper'");
  }
  if (operation === 'regex_replace' && typeof item['pattern'] === 'string' && item['pattern'].length > 4096) {
    fail('ValueRule regex pattern must be at most 4096 characters');
  }
  if (operation === 'fill_null' && !isScalar(item['value']))
    fail("ValueRule 'fill_null' requires a scalar value");
  if (operation === 'map') {
    const onUnmapped = item['on_unmapped'] ?? 'keep';
    if (onUnmapped !== 'keep' && onUnmapped !== 'null')
      fail("ValueRule 'map' on_unmapped must be 'keep' or 'null'");
  }
  const order =
    'order' in item
      ? nonNegativeInteger(item['order'], 'ValueRule.order must be a non-negative integer')
      : 100;
  return { ...structuredClone(item), operation, columns, order };
}

function maskingRule(item: JsonObject): MaskingRule {
  const method = item['method'];
  if (typeof method !== 'string' || !MASKING_METHODS.includes(method)) {
    fail(`MaskingRule.method must be one of: ${MASKING_METHODS.join(', ')}`);
  }
  const columns = ensureStringList(item['columns'], 'columns');
  if (columns.length === 0) fail('MaskingRule.columns must not be empty');
  if (method === 'redact' && !isScalar(item['value'])) fail("MaskingRule 'redact' requires a scalar value");
  if (method === 'partial') {
    for (const key of ['keep_start', 'keep_end']) {
      if (key in item) nonNegativeInteger(item[key], `MaskingRule ${key} must be a non-negative integer`);
    }
    if ('mask_char' in item && (typeof item['mask_char'] !== 'string' || item['mask_char'].length !== 1)) {
      fail('MaskingRule mask_char must be a single character');
    }
  }
  if (method === 'numeric_bucket' && !(typeof item['bucket_size'] === 'number' && item['bucket_size'] > 0)) {
    fail('MaskingRule bucket_size must be a positive number');
  }
  if (method === 'date_truncate' && !TRUNCATE_UNITS.includes(String(item['unit']))) {
    fail(`MaskingRule unit must be one of: ${TRUNCATE_UNITS.join(', ')}`);
  }
  return { ...structuredClone(item), method, columns };
}

function hashColumn(item: JsonObject): HashColumn {
  const target = nonEmpty(item['target_column'], 'HashColumn.target_column must be a non-empty string');
  const columns = ensureStringList(item['columns'], 'columns');
  if (columns.length === 0) fail('HashColumn.columns must not be empty');
  uniqueColumns(columns, 'HashColumn.columns');
  const algorithm = item['algorithm'] ?? 'sha256';
  if (typeof algorithm !== 'string' || !HASH_ALGORITHMS.includes(algorithm)) {
    fail(`HashColumn.algorithm must be one of: ${HASH_ALGORITHMS.join(', ')}`);
  }
  const serialization = item['serialization'] ?? 'dc_hash_v1';
  if (serialization !== 'dc_hash_v1') fail("HashColumn.serialization must be 'dc_hash_v1'");
  return { ...structuredClone(item), target_column: target, columns, algorithm, serialization };
}

function mapItems<T>(items: JsonObject[], field: string, build: (item: JsonObject) => T): T[] {
  return items.map((item, index) => withFieldPath(`${field}[${index}]`, () => build(item)));
}

function validateTransform(transform: Transform): void {
  if (transform.select_columns.length > 0 && transform.drop_columns.length > 0) {
    fail('select_columns and drop_columns are mutually exclusive');
  }
  uniqueColumns(transform.select_columns, 'select_columns');
  uniqueColumns(transform.drop_columns, 'drop_columns');
  const hashTargets = transform.hash_columns.map((rule) => rule.target_column);
  uniqueColumns(hashTargets, 'hash_columns target_column');
  const masked = new Set<string>();
  for (const rule of transform.masking_rules) {
    for (const column of rule.columns) {
      if (masked.has(casefold(column))) fail(`Column '${column}' appears in more than one masking rule`);
      masked.add(casefold(column));
    }
  }
  const hintColumns = transform.schema_hints.map((hint) => hint.column_name);
  const duplicates = hintColumns.filter(
    (column, index) => hintColumns.findIndex((other) => casefold(other) === casefold(column)) !== index,
  );
  if (duplicates.length > 0) fail('schema_hints must not contain duplicate columns', { columns: duplicates });
  const policy = transform.configure['missing_column_policy'];
  if (policy !== undefined && policy !== 'error' && policy !== 'ignore') {
    fail("configure.missing_column_policy must be 'error' or 'ignore'");
  }
  const timezone = transform.configure['timestamp_timezone'];
  if (
    timezone !== undefined &&
    timezone !== null &&
    (typeof timezone !== 'string' || timezone.trim() === '')
  ) {
    fail('configure.timestamp_timezone must be null or a non-empty string');
  }
}

export function createTransform(value: unknown = {}): Transform {
  const input = value === null || value === undefined ? {} : asInputObject(value, 'Transform');
  const transform: Transform = {
    deduplicate_columns: ensureStringList(input['deduplicate_columns'], 'deduplicate_columns'),
    latest_data_columns: ensureStringList(input['latest_data_columns'], 'latest_data_columns'),
    filter_expression: optionalString(input['filter_expression'], 'filter_expression'),
    additional_columns: mapItems(
      objectList(input['additional_columns'], 'additional_columns'),
      'additional_columns',
      additionalColumn,
    ),
    schema_hints: mapItems(
      objectList(input['schema_hints'], 'schema_hints'),
      'schema_hints',
      createSchemaHint,
    ),
    select_columns: ensureStringList(input['select_columns'], 'select_columns'),
    drop_columns: ensureStringList(input['drop_columns'], 'drop_columns'),
    rename_columns: renameColumns(input['rename_columns']),
    value_rules: mapItems(objectList(input['value_rules'], 'value_rules'), 'value_rules', valueRule),
    hash_columns: mapItems(objectList(input['hash_columns'], 'hash_columns'), 'hash_columns', hashColumn),
    masking_rules: mapItems(
      objectList(input['masking_rules'], 'masking_rules'),
      'masking_rules',
      maskingRule,
    ),
    configure: parseJsonObject(input['configure']),
  };
  validateTransform(transform);
  return transform;
}
