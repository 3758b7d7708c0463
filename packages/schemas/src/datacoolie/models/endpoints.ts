// `Source`, `Destination` and `PartitionColumn` (reference §1.4–§1.5): the dataflow-scoped read and
// write sides, each holding its resolved Connection.
import {
  asInputObject,
  ensureStringList,
  isPlainObject,
  optionalString,
  parseJsonObject,
  pyTypeName,
  requireField,
  withFieldPath,
  type JsonObject,
} from '../coerce.js';
import { ConfigurationError, MetadataError } from '../errors.js';
import { createConnection, type Connection } from './connection.js';

export interface Source {
  connection: Connection;
  schema_name: string | null;
  /** null for query and function sources. */
  table: string | null;
  /** Inline SQL, or a relative `.sql` file reference (see `classifySourceQuery`). */
  query: string | null;
  /** Dotted `module.function` path of a function source. */
  python_function: string | null;
  watermark_columns: string[];
  filter_expression: string | null;
  configure: JsonObject;
}

export interface PartitionColumn {
  column: string;
  expression: string | null;
}

export interface Destination {
  connection: Connection;
  schema_name: string | null;
  table: string;
  load_type: string;
  merge_keys: string[];
  partition_columns: PartitionColumn[];
  configure: JsonObject;
}

function nestedConnection(input: JsonObject): Connection {
  const value = requireField(input, 'connection');
  return withFieldPath('connection', () => createConnection(value));
}

export function createSource(value: unknown): Source {
  const input = asInputObject(value, 'Source');
  return {
    connection: nestedConnection(input),
    schema_name: optionalString(input['schema_name'], 'schema_name'),
    table: optionalString(input['table'], 'table'),
    query: optionalString(input['query'], 'query'),
    python_function: optionalString(input['python_function'], 'python_function'),
    watermark_columns: ensureStringList(input['watermark_columns'], 'watermark_columns'),
    filter_expression: optionalString(input['filter_expression'], 'filter_expression'),
    configure: parseJsonObject(input['configure']),
  };
}

export function createPartitionColumn(value: unknown): PartitionColumn {
  const input = typeof value === 'string' ? { column: value } : asInputObject(value, 'PartitionColumn');
  const column = requireField(input, 'column');
  if (typeof column !== 'string' || column.trim() === '') {
    throw new ConfigurationError('column must be a non-empty string', { field: 'column' });
  }
  return { column, expression: optionalString(input['expression'], 'expression') };
}

function partitionColumns(value: unknown): PartitionColumn[] {
  const items = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  return items.map((item, index) =>
    withFieldPath(`partition_columns[${index}]`, () => createPartitionColumn(item)),
  );
}

export function createDestination(value: unknown): Destination {
  const input = asInputObject(value, 'Destination');
  const connection = nestedConnection(input);
  const table = requireField(input, 'table');
  if (typeof table !== 'string' || table.trim() === '') {
    throw new ConfigurationError('Destination.table must be a non-empty string', { field: 'table' });
  }
  const schema = optionalString(input['schema_name'], 'schema_name')?.trim() ?? null;
  const loadType = input['load_type'] ?? 'append';
  if (typeof loadType !== 'string') {
    throw new ConfigurationError(`load_type must be a string, got ${pyTypeName(loadType)}`, {
      field: 'load_type',
    });
  }
  const configure = parseJsonObject(input['configure']);
  let partitions = partitionColumns(input['partition_columns']);
  // An unauthored, empty partition list takes (and removes) the one kept inside configure.
  if (!('partition_columns' in input) && partitions.length === 0 && 'partition_columns' in configure) {
    partitions = partitionColumns(configure['partition_columns']);
    delete configure['partition_columns'];
  }
  return {
    connection,
    schema_name: schema === '' ? null : schema,
    table: table.trim(),
    load_type: loadType.trim().toLowerCase(),
    merge_keys: ensureStringList(input['merge_keys'], 'merge_keys'),
    partition_columns: partitions,
    configure,
  };
}

export type SourceQueryKind = 'inline' | 'artifact' | 'shorthand';

const SQL_FILE_SHORTHAND = /^[\w.-]+(?:\/[\w.-]+)*\.sql$/i;

/**
 * Classifies `source.query` by its shape only (no I/O): inline SQL, an `artifact:/…` file reference,
 * or a relative `.sql` file below the SQL roots. Absolute, URI-shaped or `?`/`#`-suffixed `.sql`
 * paths are rejected.
 */
export function classifySourceQuery(query: string | null): SourceQueryKind {
  if (query === null) return 'inline';
  const text = query.trim();
  if (text === '' || text.startsWith('--') || text.startsWith('/*')) return 'inline';
  if (text.startsWith('artifact:/')) return 'artifact';
  if (/\s/.test(text)) return 'inline';
  if (SQL_FILE_SHORTHAND.test(text) && !text.split('/').includes('..')) return 'shorthand';
  if (/\.sql(?:[?#].*)?$/i.test(text)) {
    throw new MetadataError(
      `Invalid SQL file reference '${text}': use a relative path below sql_base_path or artifact:/<relative-path>`,
    );
  }
  return 'inline';
}

/** Backward look-back (`backward_days|months|hours|years|closing_day`, overlaid by `backward`). */
export function dateBackward(configure: JsonObject): JsonObject | null {
  const result: JsonObject = {};
  for (const key of ['days', 'months', 'hours', 'years', 'closing_day']) {
    const value = configure[`backward_${key}`];
    if (value !== undefined && value !== null) result[key] = value;
  }
  const nested = configure['backward'];
  if (isPlainObject(nested)) Object.assign(result, nested);
  return Object.keys(result).length > 0 ? result : null;
}

/** The source's backward config, else its connection's. */
export function sourceDateBackward(source: Source): JsonObject | null {
  return dateBackward(source.configure) ?? dateBackward(source.connection.configure);
}
