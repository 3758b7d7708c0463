// A registry column type as a DataCoolie schema-hint type (reference §8.4): the name is written in the
// source connection's type system (`schema_hint_type_system`, else `database_type`, else spark_sql),
// precision and scale travel apart (never embedded in the name). Types DataCoolie has no equivalent
// for (uuid, json, arrays, structs, intervals, times, geometry…) give no hint: the pipeline then keeps
// the type it infers.
import {
  databaseFamilyOf,
  TYPE_SYSTEM_ALIASES,
  TYPE_SYSTEMS,
  type TypeSystem,
} from '@aide/schemas/datacoolie';

type Logical =
  | 'boolean'
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'uint64'
  | 'float32'
  | 'float64'
  | 'decimal'
  | 'string'
  | 'binary'
  | 'date'
  | 'timestamp'
  | 'timestamp_ntz';

const STRING = [
  'char',
  'varchar',
  'text',
  'name',
  'nchar',
  'nvarchar',
  'clob',
  'string',
  'tinytext',
  'mediumtext',
  'longtext',
  'enum',
  'set',
];

/** Data type codes of each dialect family, by the logical kind they hold. */
const CODES: Readonly<Record<string, Readonly<Record<string, Logical>>>> = {
  postgresql: {
    boolean: 'boolean',
    smallint: 'int16',
    smallserial: 'int16',
    integer: 'int32',
    serial: 'int32',
    bigint: 'int64',
    bigserial: 'int64',
    real: 'float32',
    double: 'float64',
    decimal: 'decimal',
    numeric: 'decimal',
    money: 'decimal',
    bytea: 'binary',
    date: 'date',
    timestamp: 'timestamp_ntz',
    timestamptz: 'timestamp',
    ...Object.fromEntries(STRING.map((c) => [c, 'string' as const])),
  },
  mysql: {
    boolean: 'boolean',
    tinyint: 'int8',
    tinyint_unsigned: 'uint8',
    smallint: 'int16',
    smallint_unsigned: 'uint16',
    mediumint: 'int32',
    mediumint_unsigned: 'uint32',
    int: 'int32',
    int_unsigned: 'uint32',
    bigint: 'int64',
    bigint_unsigned: 'uint64',
    year: 'int16',
    float: 'float32',
    double: 'float64',
    decimal: 'decimal',
    date: 'date',
    datetime: 'timestamp_ntz',
    timestamp: 'timestamp',
    binary: 'binary',
    varbinary: 'binary',
    tinyblob: 'binary',
    blob: 'binary',
    mediumblob: 'binary',
    longblob: 'binary',
    ...Object.fromEntries(STRING.map((c) => [c, 'string' as const])),
  },
  sqlite: {
    boolean: 'boolean',
    integer: 'int64',
    int: 'int64',
    tinyint: 'int64',
    smallint: 'int64',
    mediumint: 'int64',
    bigint: 'int64',
    real: 'float64',
    double: 'float64',
    float: 'float64',
    numeric: 'decimal',
    decimal: 'decimal',
    blob: 'binary',
    date: 'date',
    datetime: 'timestamp_ntz',
    timestamp: 'timestamp_ntz',
    ...Object.fromEntries(STRING.map((c) => [c, 'string' as const])),
  },
  mssql: {
    bit: 'boolean',
    tinyint: 'uint8',
    smallint: 'int16',
    int: 'int32',
    bigint: 'int64',
    real: 'float32',
    float: 'float64',
    decimal: 'decimal',
    numeric: 'decimal',
    money: 'decimal',
    smallmoney: 'decimal',
    binary: 'binary',
    varbinary: 'binary',
    image: 'binary',
    date: 'date',
    smalldatetime: 'timestamp_ntz',
    datetime: 'timestamp_ntz',
    datetime2: 'timestamp_ntz',
    datetimeoffset: 'timestamp',
    ntext: 'string',
    ...Object.fromEntries(STRING.map((c) => [c, 'string' as const])),
  },
  // Iceberg, Hive, Spark and other lake flavors.
  spark_sql: {
    boolean: 'boolean',
    tinyint: 'int8',
    smallint: 'int16',
    int: 'int32',
    integer: 'int32',
    long: 'int64',
    bigint: 'int64',
    float: 'float32',
    double: 'float64',
    decimal: 'decimal',
    binary: 'binary',
    fixed: 'binary',
    date: 'date',
    timestamp: 'timestamp_ntz',
    timestamp_ntz: 'timestamp_ntz',
    timestamptz: 'timestamp',
    timestamp_ltz: 'timestamp',
    ...Object.fromEntries(STRING.map((c) => [c, 'string' as const])),
  },
};

/** The name of each logical kind in each type system (reference §8.4 examples). */
const NAMES: Readonly<Record<TypeSystem, Readonly<Record<Logical, string>>>> = {
  spark_sql: {
    boolean: 'boolean',
    int8: 'tinyint',
    int16: 'smallint',
    int32: 'int',
    int64: 'bigint',
    uint8: 'smallint',
    uint16: 'int',
    uint32: 'bigint',
    uint64: 'decimal',
    float32: 'float',
    float64: 'double',
    decimal: 'decimal',
    string: 'string',
    binary: 'binary',
    date: 'date',
    timestamp: 'timestamp',
    timestamp_ntz: 'timestamp_ntz',
  },
  postgresql: {
    boolean: 'boolean',
    int8: 'smallint',
    int16: 'smallint',
    int32: 'integer',
    int64: 'bigint',
    uint8: 'smallint',
    uint16: 'integer',
    uint32: 'bigint',
    uint64: 'numeric',
    float32: 'real',
    float64: 'double precision',
    decimal: 'numeric',
    string: 'text',
    binary: 'bytea',
    date: 'date',
    timestamp: 'timestamptz',
    timestamp_ntz: 'timestamp',
  },
  mysql: {
    boolean: 'boolean',
    int8: 'tinyint',
    int16: 'smallint',
    int32: 'int',
    int64: 'bigint',
    uint8: 'tinyint unsigned',
    uint16: 'smallint unsigned',
    uint32: 'int unsigned',
    uint64: 'bigint unsigned',
    float32: 'float',
    float64: 'double',
    decimal: 'decimal',
    string: 'text',
    binary: 'blob',
    date: 'date',
    timestamp: 'timestamp',
    timestamp_ntz: 'datetime',
  },
  mssql: {
    boolean: 'bit',
    int8: 'smallint',
    int16: 'smallint',
    int32: 'int',
    int64: 'bigint',
    uint8: 'tinyint',
    uint16: 'int',
    uint32: 'bigint',
    uint64: 'decimal',
    float32: 'real',
    float64: 'float',
    decimal: 'decimal',
    string: 'nvarchar',
    binary: 'varbinary',
    date: 'date',
    timestamp: 'datetimeoffset',
    timestamp_ntz: 'datetime2',
  },
  oracle: {
    boolean: 'number',
    int8: 'number',
    int16: 'number',
    int32: 'number',
    int64: 'number',
    uint8: 'number',
    uint16: 'number',
    uint32: 'number',
    uint64: 'number',
    float32: 'binary_float',
    float64: 'binary_double',
    decimal: 'number',
    string: 'varchar2',
    binary: 'blob',
    date: 'date',
    timestamp: 'timestamp with time zone',
    timestamp_ntz: 'timestamp',
  },
  sqlite: {
    boolean: 'boolean',
    int8: 'integer',
    int16: 'integer',
    int32: 'integer',
    int64: 'integer',
    uint8: 'integer',
    uint16: 'integer',
    uint32: 'integer',
    uint64: 'integer',
    float32: 'real',
    float64: 'real',
    decimal: 'numeric',
    string: 'text',
    binary: 'blob',
    date: 'date',
    timestamp: 'timestamp',
    timestamp_ntz: 'timestamp',
  },
};

/** Codes kept as they are when the hint is written in their own dialect (a registry code is a name there). */
const NATIVE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  postgresql: {
    double: 'double precision',
    serial: 'integer',
    smallserial: 'smallint',
    bigserial: 'bigint',
    money: 'numeric',
    name: 'text',
  },
  mysql: {
    year: 'smallint',
    enum: 'text',
    set: 'text',
    tinyint_unsigned: 'tinyint unsigned',
    smallint_unsigned: 'smallint unsigned',
    mediumint_unsigned: 'mediumint unsigned',
    int_unsigned: 'int unsigned',
    bigint_unsigned: 'bigint unsigned',
  },
  sqlite: {},
};

/**
 * The dialect a flavor's column codes are read in: its database family (postgres14 → postgresql,
 * sqlserver2019 → mssql), else spark_sql (iceberg_v2 and other lake flavors; also a family without a
 * code table of its own here, oracle).
 */
export function flavorDialect(flavorCode: string): string {
  const family = databaseFamilyOf(flavorCode);
  return family !== null && family in CODES ? family : 'spark_sql';
}

/** `schema_hint_type_system`, else `database_type`, else spark_sql (DataCoolie's resolution order). */
export function hintTypeSystem(configure: Record<string, unknown>): TypeSystem {
  for (const key of ['schema_hint_type_system', 'database_type']) {
    const value = configure[key];
    if (typeof value !== 'string') continue;
    const name = value.trim().toLowerCase();
    const system = TYPE_SYSTEM_ALIASES[name] ?? name;
    if ((TYPE_SYSTEMS as readonly string[]).includes(system)) return system;
  }
  return 'spark_sql';
}

export interface HintType {
  data_type: string;
  precision: number | null;
  scale: number | null;
}

const int = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);

/**
 * The hint type of a column typed `code` (of a flavor of `dialect`) with `params`, in `system`; null
 * when DataCoolie has no equivalent or a decimal lacks its precision.
 */
export function hintTypeOf(
  dialect: string,
  code: string,
  params: Record<string, unknown> | null,
  system: TypeSystem,
): HintType | null {
  const logical = (CODES[dialect] ?? CODES['spark_sql'])[code.toLowerCase()];
  if (logical === undefined) return null;
  let precision: number | null = null;
  let scale: number | null = null;
  if (logical === 'decimal') {
    precision = int(params?.['precision']);
    if (precision === null) return null;
    scale = int(params?.['scale']) ?? 0;
  }
  if (logical === 'uint64' && ['decimal', 'numeric', 'number'].includes(NAMES[system].uint64)) {
    // An unsigned 64-bit integer only fits a decimal of 20 digits elsewhere.
    [precision, scale] = [20, 0];
  }
  const native = dialect === system ? (NATIVE[dialect]?.[code.toLowerCase()] ?? code.toLowerCase()) : null;
  const length = int(params?.['length']);
  if (native !== null && logical === 'string' && length !== null) {
    // A bounded string kept in its own dialect keeps its length in the name (`varchar(20)`): DataCoolie
    // appends only precision and scale, and a Spark varchar or char has no default length.
    return { data_type: `${native}(${length})`, precision: null, scale: null };
  }
  return { data_type: native ?? NAMES[system][logical], precision, scale };
}
