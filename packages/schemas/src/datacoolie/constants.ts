// DataCoolie's enumerations and constants (reference §1.2), as string-literal unions plus value lists.

export const CONNECTION_TYPES = ['lakehouse', 'file', 'database', 'api', 'streaming', 'function'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

export const FORMATS = [
  'delta',
  'iceberg',
  'parquet',
  'csv',
  'json',
  'jsonl',
  'avro',
  'excel',
  'sql',
  'api',
  'function',
] as const;
export type Format = (typeof FORMATS)[number];

export const LOAD_TYPES = [
  'full_load',
  'overwrite',
  'append',
  'merge_upsert',
  'merge_overwrite',
  'scd2',
] as const;
export type LoadType = (typeof LOAD_TYPES)[number];

export const PROCESSING_MODES = ['batch', 'microbatch', 'streaming'] as const;
export type ProcessingMode = (typeof PROCESSING_MODES)[number];

export const DATABASE_TYPES = ['postgresql', 'mysql', 'mssql', 'oracle', 'sqlite'] as const;
export type DatabaseType = (typeof DATABASE_TYPES)[number];

/** Flavor-code prefixes of each relational database family (postgres14 → postgresql, sqlserver2019 → mssql). */
const DATABASE_FAMILY_PREFIXES: ReadonlyArray<readonly [string, DatabaseType]> = [
  ['postgres', 'postgresql'],
  ['mysql', 'mysql'],
  ['mariadb', 'mysql'],
  ['sqlite', 'sqlite'],
  ['mssql', 'mssql'],
  ['sqlserver', 'mssql'],
  ['oracle', 'oracle'],
];

/**
 * The database family of a system flavor, by its code's prefix; null for a flavor of no relational
 * family (Iceberg, Hive, Kafka…). The one mapping: the connection export's and the document import's
 * `database_type` and the schema hints' source dialect all read it.
 */
export function databaseFamilyOf(flavorCode: string): DatabaseType | null {
  const code = flavorCode.toLowerCase();
  return DATABASE_FAMILY_PREFIXES.find(([prefix]) => code.startsWith(prefix))?.[1] ?? null;
}

export const DATABASE_AUTH_TYPES = [
  'password',
  'service_principal',
  'managed_identity',
  'access_token',
] as const;
export type DatabaseAuthType = (typeof DATABASE_AUTH_TYPES)[number];

export const DATAFLOW_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped'] as const;
export type DataFlowStatus = (typeof DATAFLOW_STATUSES)[number];

export const EXECUTION_TYPES = ['etl', 'replay', 'maintenance'] as const;
export type ExecutionType = (typeof EXECUTION_TYPES)[number];

export const TYPE_SYSTEMS = ['spark_sql', 'postgresql', 'mysql', 'mssql', 'oracle', 'sqlite'] as const;
export type TypeSystem = (typeof TYPE_SYSTEMS)[number];

/** Accepted spellings of a schema-hint type system, lower-cased and trimmed, to the canonical name. */
export const TYPE_SYSTEM_ALIASES: Readonly<Record<string, TypeSystem>> = {
  spark: 'spark_sql',
  sparksql: 'spark_sql',
  'spark sql': 'spark_sql',
  postgres: 'postgresql',
  sqlserver: 'mssql',
  'sql server': 'mssql',
  mariadb: 'mysql',
};

/**
 * The seeded system flavor whose data types a schema hint written in each type system maps to (ADR
 * 0050); null where no flavor is seeded (the hint's type is then kept unchecked).
 */
export const TYPE_SYSTEM_FLAVORS: Readonly<Record<TypeSystem, string | null>> = {
  spark_sql: 'spark_sql',
  postgresql: 'postgres14',
  mysql: 'mysql8',
  sqlite: 'sqlite3',
  mssql: null,
  oracle: null,
};

/** Allowed formats per connection type; streaming has none (not yet supported upstream). */
export const CONNECTION_TYPE_FORMATS: Readonly<Record<ConnectionType, readonly Format[]>> = {
  file: ['parquet', 'csv', 'json', 'jsonl', 'avro', 'excel'],
  lakehouse: ['delta', 'iceberg'],
  database: ['sql'],
  api: ['api'],
  function: ['function'],
  streaming: [],
};

/** Destination formats that maintenance (optimize/vacuum) applies to. */
export const LAKEHOUSE_FORMATS: readonly string[] = CONNECTION_TYPE_FORMATS.lakehouse;

export const WATERMARK_FILE_NAME = 'watermark_value.json';
export const WATERMARK_TAG_DATETIME = '__datetime__';
export const WATERMARK_TAG_DATE = '__date__';
export const WATERMARK_TAG_TIME = '__time__';
export const WATERMARK_TAG_DECIMAL = '__decimal__';
export const WATERMARK_TAG_BINARY = '__binary__';
export const WATERMARK_TAGS: readonly string[] = [
  WATERMARK_TAG_DATETIME,
  WATERMARK_TAG_DATE,
  WATERMARK_TAG_TIME,
  WATERMARK_TAG_DECIMAL,
  WATERMARK_TAG_BINARY,
];
/** The one reserved-looking key a watermark may carry, at its top level only. */
export const DATE_FOLDER_PARTITION_KEY = '__date_folder_partition__';

/** Namespace of DataCoolie's name-derived ids (UUIDv5). */
export const NAME_UUID_NAMESPACE = 'da7ac001-e000-4000-8000-000000000000';
