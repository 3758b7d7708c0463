// The type names of OpenLineage schema facets (`fields[].type`) as data types of a dataset's flavor
// (ADR 0057): Spark writes `integer`, `long`, `string`, `decimal(10,2)`, `struct<…>`; Airflow's SQL
// extractors the database's own names (`int4`, `varchar`, `timestamp`); Flink `INT`, `STRING`,
// `VARCHAR(2147483647)`; dbt usually nothing. A name the flavor's table does not know stays text.
import type { ComparableType } from '@aide/schemas';

/** Spellings → the flavor's data-type code. A flavor's own codes map to themselves (listed first). */
const own = (...codes: string[]) => Object.fromEntries(codes.map((c) => [c, c]));

const SQL_ALIASES = {
  'character varying': 'varchar',
  character: 'char',
  bool: 'boolean',
  'double precision': 'double',
};

/** Spellings of Spark SQL and HiveQL types (Catalyst's names) as their codes. */
const HIVE_ALIASES = {
  ...SQL_ALIASES,
  byte: 'tinyint',
  short: 'smallint',
  integer: 'int',
  long: 'bigint',
  real: 'float',
  numeric: 'decimal',
  text: 'string',
};

/** Files on object storage and SFTP (Arrow logical types, ADR 0044), as Spark names their columns. */
const FILES = {
  ...own(
    ...['boolean', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'],
    ...['float16', 'float32', 'float64', 'decimal', 'date32', 'date64', 'timestamp', 'utf8'],
    ...['large_utf8', 'binary', 'large_binary', 'uuid', 'json', 'list', 'map', 'struct'],
  ),
  bool: 'boolean',
  byte: 'int8',
  tinyint: 'int8',
  short: 'int16',
  smallint: 'int16',
  int: 'int32',
  integer: 'int32',
  long: 'int64',
  bigint: 'int64',
  float: 'float32',
  real: 'float32',
  double: 'float64',
  numeric: 'decimal',
  date: 'date32',
  string: 'utf8',
  varchar: 'utf8',
  char: 'utf8',
  text: 'utf8',
  array: 'list',
};

const FLAVOR_TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  postgres14: {
    ...own(
      ...['smallint', 'integer', 'bigint', 'real', 'double', 'numeric', 'text', 'varchar', 'char'],
      ...['boolean', 'date', 'time', 'timetz', 'timestamp', 'timestamptz', 'interval', 'bytea', 'uuid'],
      ...['json', 'jsonb', 'xml', 'inet', 'array', 'composite', 'money'],
    ),
    ...SQL_ALIASES,
    int2: 'smallint',
    short: 'smallint',
    int: 'integer',
    int4: 'integer',
    int8: 'bigint',
    long: 'bigint',
    serial: 'integer',
    serial4: 'integer',
    bigserial: 'bigint',
    serial8: 'bigint',
    smallserial: 'smallint',
    float4: 'real',
    float: 'double',
    float8: 'double',
    decimal: 'numeric',
    string: 'text',
    bpchar: 'char',
    'time without time zone': 'time',
    'time with time zone': 'timetz',
    'timestamp without time zone': 'timestamp',
    'timestamp with time zone': 'timestamptz',
    binary: 'bytea',
    struct: 'composite',
  },
  mysql8: {
    ...own(
      ...['tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'boolean', 'float', 'double', 'decimal'],
      ...['date', 'time', 'datetime', 'timestamp', 'year', 'char', 'varchar', 'text', 'tinytext'],
      ...['mediumtext', 'longtext', 'binary', 'varbinary', 'blob', 'json', 'uuid', 'enum', 'set'],
    ),
    ...SQL_ALIASES,
    integer: 'int',
    long: 'bigint',
    real: 'double',
    numeric: 'decimal',
    string: 'text',
  },
  spark_sql: {
    ...own(
      ...['boolean', 'tinyint', 'smallint', 'int', 'bigint', 'float', 'double', 'decimal', 'string'],
      ...['varchar', 'char', 'binary', 'date', 'timestamp', 'timestamp_ntz', 'variant', 'void'],
      ...['array', 'map', 'struct'],
    ),
    ...HIVE_ALIASES,
    // Spark's own aliases (codes of the flavor too): one type each.
    dec: 'decimal',
    timestamp_ltz: 'timestamp',
  },
  hive3: {
    ...own(
      ...['tinyint', 'smallint', 'int', 'bigint', 'boolean', 'float', 'double', 'decimal', 'string'],
      ...['varchar', 'char', 'binary', 'date', 'timestamp', 'array', 'map', 'struct', 'uniontype'],
    ),
    ...HIVE_ALIASES,
  },
  iceberg_v2: {
    ...own(
      ...['boolean', 'int', 'long', 'float', 'double', 'decimal', 'date', 'time', 'timestamp'],
      ...['timestamptz', 'string', 'uuid', 'binary', 'fixed', 'list', 'map', 'struct'],
    ),
    ...SQL_ALIASES,
    integer: 'int',
    bigint: 'long',
    real: 'float',
    numeric: 'decimal',
    varchar: 'string',
    text: 'string',
    array: 'list',
  },
  avro: {
    ...own('boolean', 'int', 'long', 'float', 'double', 'bytes', 'string', 'record', 'enum', 'array', 'map'),
    ...SQL_ALIASES,
    integer: 'int',
    bigint: 'long',
    binary: 'bytes',
    varchar: 'string',
    text: 'string',
    struct: 'record',
  },
  storage_files: FILES,
  sftp_files: FILES,
};

/** Parameters a type name carries in parentheses, by the data type they belong to. */
function paramsOf(code: string, args: number[]): Record<string, number> | undefined {
  if (args.length === 0) return undefined;
  if (['decimal', 'numeric'].includes(code)) {
    return args.length >= 2 ? { precision: args[0], scale: args[1] } : { precision: args[0] };
  }
  if (['varchar', 'char'].includes(code)) return { length: args[0] };
  return undefined;
}

/** A type name split: its base (lower case, single spaces; a container its kind) and its numeric arguments. */
function parse(text: string): { base: string; args: number[] } {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  // `array<int>`, `struct<a:int>`, `map<string,int>`, `ARRAY<INT>`: the container alone.
  const container = /^([a-z_]+)\s*</.exec(t);
  if (container) return { base: container[1], args: [] };
  const call = /^([a-z_ ]+?)\s*\(([^)]*)\)(.*)$/.exec(t);
  if (!call) return { base: t, args: [] };
  const args = call[2]
    .split(',')
    .map((a) => Number(a.trim()))
    .filter((n) => Number.isInteger(n));
  // `timestamp(3) with time zone`: the words after the parentheses are part of the name.
  return { base: `${call[1].trim()}${call[3].trimEnd()}`.trim(), args };
}

/** Whether the flavor has a table of OpenLineage type names. */
export const knowsTypesOf = (flavor: string | null): boolean => flavor !== null && flavor in FLAVOR_TYPES;

/**
 * The data type of the flavor an OpenLineage type name names: its code, and the parameters the name
 * gives (`decimal(10,2)` → precision 10, scale 2; `varchar(64)` → length 64). Null when the name is
 * empty or the flavor's table does not know it (it is then compared as text).
 */
export function observedTypeOf(text: string | null, flavor: string | null): ComparableType | null {
  if (!text || text.trim() === '' || !knowsTypesOf(flavor)) return null;
  const { base, args } = parse(text);
  const code = FLAVOR_TYPES[flavor as string]?.[base];
  if (!code) return null;
  const params = paramsOf(code, args);
  return params ? { data_type: code, params } : { data_type: code };
}

/** A registered data-type code as the table writes it (`integer` of Spark SQL is `int`, as `decimal` of PostgreSQL is `numeric`). */
export function canonicalCode(code: string, flavor: string | null): string | null {
  if (!knowsTypesOf(flavor)) return null;
  return FLAVOR_TYPES[flavor as string]?.[code.toLowerCase()] ?? null;
}
