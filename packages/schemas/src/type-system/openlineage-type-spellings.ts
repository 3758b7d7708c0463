// The type names of OpenLineage schema facets (`fields[].type`) per flavor (ADR 0057, ADR 0062): Spark
// writes its Catalyst names (`integer`, `long`, `string`), Airflow's SQL extractors the database's own
// catalog names (`int4`, `varchar`), Flink its SQL names (`INT`, `STRING`). A facet table lists the codes
// the drift comparison reads and takes the flavor's catalog spellings of exactly those codes, so a name
// means in a facet what it means in the catalog — except where the facet's vocabulary says otherwise,
// written out below (PostgreSQL's `char`).
import {
  asThemselves,
  CATALYST_SPELLINGS,
  ICEBERG_V2_CATALOG_SPELLINGS,
  MYSQL8_CATALOG_SPELLINGS,
  POSTGRES14_CATALOG_SPELLINGS,
  spellingsOf,
  type TypeSpellings,
} from './type-spellings.js';

/** A facet table: its codes (each spelled as itself), the catalog's spellings of them, the facet's own. */
function facetTable(codes: string[], catalog: TypeSpellings, own: TypeSpellings): TypeSpellings {
  return { ...asThemselves(...codes), ...spellingsOf(catalog, codes), ...own };
}

/** SQL's standard spellings, as every SQL producer may write them. */
const SQL_STANDARD_SPELLINGS: TypeSpellings = {
  'character varying': 'varchar',
  character: 'char',
  bool: 'boolean',
  'double precision': 'double',
};

/** SQL's character types in a flavor whose only text type is `string` (Iceberg, Avro). */
const CHARACTERS_AS_STRING: TypeSpellings = {
  'character varying': 'string',
  character: 'string',
  char: 'string',
};

/** Spark SQL and HiveQL types as Spark's facets and SQL producers name them. */
const HIVE_FACET_SPELLINGS: TypeSpellings = {
  ...SQL_STANDARD_SPELLINGS,
  ...CATALYST_SPELLINGS,
  real: 'float',
  numeric: 'decimal',
  text: 'string',
};

/** Files on object storage and SFTP (Arrow logical types, ADR 0044), as Spark names their columns. */
const FILES_FACET_SPELLINGS: TypeSpellings = {
  ...asThemselves(
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

/** Facet type names → the flavor's data-type code, by flavor code. A flavor missing here has no table. */
export const OPENLINEAGE_FACET_SPELLINGS: Readonly<Record<string, TypeSpellings>> = {
  postgres14: facetTable(
    [
      ...['smallint', 'integer', 'bigint', 'real', 'double', 'numeric', 'text', 'varchar', 'char'],
      ...['boolean', 'date', 'time', 'timetz', 'timestamp', 'timestamptz', 'interval', 'bytea', 'uuid'],
      ...['json', 'jsonb', 'xml', 'inet', 'array', 'composite', 'money'],
    ],
    POSTGRES14_CATALOG_SPELLINGS,
    {
      ...SQL_STANDARD_SPELLINGS,
      // `char` is the code char (character(n)), as SQL spells it: the catalog's "char" (internal_char)
      // is not a code this table reads, so its spelling is not taken.
      char: 'char',
      short: 'smallint',
      int: 'integer',
      long: 'bigint',
      serial: 'integer',
      serial4: 'integer',
      bigserial: 'bigint',
      serial8: 'bigint',
      smallserial: 'smallint',
      float: 'double',
      decimal: 'numeric',
      string: 'text',
      'time without time zone': 'time',
      'time with time zone': 'timetz',
      'timestamp without time zone': 'timestamp',
      'timestamp with time zone': 'timestamptz',
      binary: 'bytea',
      struct: 'composite',
    },
  ),
  mysql8: facetTable(
    [
      ...['tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'boolean', 'float', 'double', 'decimal'],
      ...['date', 'time', 'datetime', 'timestamp', 'year', 'char', 'varchar', 'text', 'tinytext'],
      ...['mediumtext', 'longtext', 'binary', 'varbinary', 'blob', 'json', 'uuid', 'enum', 'set'],
    ],
    MYSQL8_CATALOG_SPELLINGS,
    { ...SQL_STANDARD_SPELLINGS, integer: 'int', long: 'bigint', numeric: 'decimal', string: 'text' },
  ),
  // Spark's DDL names and its Catalyst names, not the catalog table of Delta's JSON (Spark 2's `null`).
  spark_sql: {
    ...asThemselves(
      ...['boolean', 'tinyint', 'smallint', 'int', 'bigint', 'float', 'double', 'decimal', 'string'],
      ...['varchar', 'char', 'binary', 'date', 'timestamp', 'timestamp_ntz', 'variant', 'void'],
      ...['array', 'map', 'struct'],
    ),
    ...HIVE_FACET_SPELLINGS,
    // Spark's own aliases (codes of the flavor too): one type each.
    dec: 'decimal',
    timestamp_ltz: 'timestamp',
  },
  hive3: {
    ...asThemselves(
      ...['tinyint', 'smallint', 'int', 'bigint', 'boolean', 'float', 'double', 'decimal', 'string'],
      ...['varchar', 'char', 'binary', 'date', 'timestamp', 'array', 'map', 'struct', 'uniontype'],
    ),
    ...HIVE_FACET_SPELLINGS,
  },
  iceberg_v2: facetTable(
    [...Object.values(ICEBERG_V2_CATALOG_SPELLINGS), 'decimal', 'fixed', 'list', 'map', 'struct'],
    ICEBERG_V2_CATALOG_SPELLINGS,
    {
      ...SQL_STANDARD_SPELLINGS,
      ...CHARACTERS_AS_STRING,
      integer: 'int',
      bigint: 'long',
      real: 'float',
      numeric: 'decimal',
      varchar: 'string',
      text: 'string',
      array: 'list',
    },
  ),
  avro: {
    ...asThemselves(
      'boolean',
      'int',
      'long',
      'float',
      'double',
      'bytes',
      'string',
      'record',
      'enum',
      'array',
      'map',
    ),
    ...SQL_STANDARD_SPELLINGS,
    ...CHARACTERS_AS_STRING,
    integer: 'int',
    bigint: 'long',
    binary: 'bytes',
    varchar: 'string',
    text: 'string',
    struct: 'record',
  },
  storage_files: FILES_FACET_SPELLINGS,
  sftp_files: FILES_FACET_SPELLINGS,
};
