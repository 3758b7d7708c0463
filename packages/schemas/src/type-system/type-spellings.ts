// How each flavor's type names are spelled, as the flavor's data-type codes (the codes of
// packages/backend/seeds): one table per vocabulary (ADR 0062). A vocabulary is who writes the name —
// a system's own catalog (read by the crawler) or a producer of OpenLineage schema facets (read by the
// backend, ADR 0057) — because the same spelling can mean different types in two of them: PostgreSQL's
// catalog name `char` is the one-byte internal type, a facet's `char` is SQL's character(n). Only names
// live here; parsing parameters, arrays, domains and the like stays with each reader. Zod-free: the
// crawler imports it through `@aide/schemas/type-spellings` (ADR 0041).

/** Type names (lower case, words separated by one space) → data-type codes of one flavor. */
export type TypeSpellings = Readonly<Record<string, string>>;

/** The code a table gives a name; undefined for any name it does not list (`constructor` included). */
export function codeOf(spellings: TypeSpellings, name: string): string | undefined {
  return Object.hasOwn(spellings, name) ? spellings[name] : undefined;
}

/** Codes spelled as themselves. */
export const asThemselves = (...codes: string[]): Record<string, string> =>
  Object.fromEntries(codes.map((code) => [code, code]));

/** The spellings of `spellings` that name one of `codes`. */
export function spellingsOf(spellings: TypeSpellings, codes: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(spellings).filter(([, code]) => codes.includes(code)));
}

/**
 * PostgreSQL's built-in types usable as a column type, by `pg_type.typname` (schema pg_catalog), as
 * postgres14 codes.
 */
export const POSTGRES14_CATALOG_SPELLINGS: TypeSpellings = {
  // numbers
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  float4: 'real',
  float8: 'double',
  ...asThemselves('numeric', 'money'),
  // characters and bytes: "char" (quoted in SQL) is the catalogs' one-byte type, bpchar is character(n)
  bpchar: 'char',
  char: 'internal_char',
  ...asThemselves('varchar', 'text', 'name', 'bytea'),
  // date and time, truth
  ...asThemselves('date', 'time', 'timetz', 'timestamp', 'timestamptz', 'interval'),
  bool: 'boolean',
  // geometry, network addresses, bit strings
  ...asThemselves('point', 'line', 'lseg', 'box', 'path', 'polygon', 'circle'),
  ...asThemselves('inet', 'cidr', 'macaddr', 'macaddr8', 'bit', 'varbit'),
  // text search, identifiers, documents
  ...asThemselves('tsvector', 'tsquery', 'gtsvector', 'uuid', 'xml', 'json', 'jsonb', 'jsonpath'),
  // ranges and multiranges
  ...asThemselves('int4range', 'int8range', 'numrange', 'tsrange', 'tstzrange', 'daterange'),
  ...asThemselves('int4multirange', 'int8multirange', 'nummultirange', 'tsmultirange'),
  ...asThemselves('tstzmultirange', 'datemultirange'),
  // object identifiers
  ...asThemselves('oid', 'regclass', 'regcollation', 'regconfig', 'regdictionary', 'regnamespace'),
  ...asThemselves('regoper', 'regoperator', 'regproc', 'regprocedure', 'regrole', 'regtype'),
  // system
  ...asThemselves('xid', 'xid8', 'cid', 'tid', 'aclitem', 'int2vector', 'oidvector', 'refcursor'),
  ...asThemselves('pg_lsn', 'pg_snapshot', 'txid_snapshot', 'pg_node_tree', 'pg_ndistinct'),
  ...asThemselves('pg_dependencies', 'pg_mcv_list', 'pg_brin_bloom_summary', 'pg_brin_minmax_multi_summary'),
};

/**
 * MySQL 8's and MariaDB's built-in types by `information_schema.COLUMNS.DATA_TYPE`, as mysql8 codes
 * (BOOL is a tinyint(1) there, SERIAL a bigint unsigned: their readers decide from the column type).
 */
export const MYSQL8_CATALOG_SPELLINGS: TypeSpellings = {
  ...asThemselves('tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'bit', 'decimal', 'float', 'double'),
  real: 'double',
  ...asThemselves('date', 'time', 'datetime', 'timestamp', 'year'),
  ...asThemselves('char', 'varchar', 'binary', 'varbinary', 'enum', 'set', 'json', 'uuid', 'inet4', 'inet6'),
  ...asThemselves('tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob'),
  ...asThemselves('geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring'),
  ...asThemselves('multipolygon', 'geometrycollection'),
  geomcollection: 'geometrycollection',
};

/**
 * The declared column type names people write in SQLite (any name is accepted; these have their own
 * codes, the others their affinity's), as sqlite3 codes. `''` is a column declared without a type.
 */
export const SQLITE3_DECLARED_SPELLINGS: TypeSpellings = {
  '': 'none',
  ...asThemselves('integer', 'int', 'tinyint', 'smallint', 'mediumint', 'bigint'),
  int2: 'smallint',
  int8: 'bigint',
  'unsigned big int': 'bigint',
  boolean: 'boolean',
  bool: 'boolean',
  ...asThemselves('real', 'double', 'float', 'numeric', 'decimal'),
  'double precision': 'double',
  ...asThemselves('text', 'clob', 'char', 'nchar', 'varchar', 'nvarchar', 'blob'),
  character: 'char',
  'native character': 'nchar',
  'varying character': 'varchar',
  'character varying': 'varchar',
  ...asThemselves('date', 'datetime', 'timestamp', 'time', 'json', 'any'),
};

/** Spark's (Catalyst's) names of the types whose Spark SQL (DDL) name differs, as spark_sql codes. */
export const CATALYST_SPELLINGS: TypeSpellings = {
  byte: 'tinyint',
  short: 'smallint',
  integer: 'int',
  long: 'bigint',
};

/**
 * Spark's primitive types as the JSON of a schema names them (a Delta table's `schemaString`), as
 * spark_sql codes. Decimals and intervals carry parameters and are parsed by their reader.
 */
export const SPARK_SQL_CATALOG_SPELLINGS: TypeSpellings = {
  ...asThemselves('boolean', 'float', 'double', 'string', 'binary', 'date', 'timestamp', 'timestamp_ntz'),
  ...asThemselves('variant', 'void'),
  ...CATALYST_SPELLINGS,
  // NullType as Spark 2 wrote it.
  null: 'void',
};

/**
 * Iceberg's primitive types as the table metadata names them (spec §Schemas and Data Types), as
 * iceberg_v2 codes. `decimal(P,S)` and `fixed[L]` carry parameters and are parsed by their reader.
 */
export const ICEBERG_V2_CATALOG_SPELLINGS: TypeSpellings = asThemselves(
  ...['boolean', 'int', 'long', 'float', 'double', 'date', 'time', 'timestamp', 'timestamptz'],
  ...['string', 'uuid', 'binary'],
);
