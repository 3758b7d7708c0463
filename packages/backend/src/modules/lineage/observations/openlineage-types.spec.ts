import { describe, expect, it } from '@jest/globals';
import { canonicalCode, observedTypeOf } from './openlineage-types.js';

/** The spellings of a table: the names spelled as their code, and the others. */
const spellings = (same: string, renamed: Record<string, string>): Record<string, string> => ({
  ...Object.fromEntries(
    same
      .trim()
      .split(/\s+/)
      .map((code) => [code, code]),
  ),
  ...renamed,
});

const SQL = {
  'character varying': 'varchar',
  character: 'char',
  bool: 'boolean',
  'double precision': 'double',
};
const CHARACTERS_AS_STRING = { 'character varying': 'string', character: 'string', char: 'string' };
const CATALYST = { byte: 'tinyint', short: 'smallint', integer: 'int', long: 'bigint' };
const FILES = spellings(
  `boolean int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 decimal date32 date64
   timestamp utf8 large_utf8 binary large_binary uuid json list map struct`,
  {
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
  },
);

/** Every spelling the OpenLineage facet tables read (ADR 0057), pinned: moving the tables changes none. */
const FACET_SPELLINGS: Record<string, Record<string, string>> = {
  postgres14: spellings(
    `smallint integer bigint real double numeric text varchar char boolean date time timetz timestamp
     timestamptz interval bytea uuid json jsonb xml inet array composite money`,
    {
      ...SQL,
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
  ),
  mysql8: spellings(
    `tinyint smallint mediumint int bigint boolean float double decimal date time datetime timestamp year
     char varchar text tinytext mediumtext longtext binary varbinary blob json uuid enum set`,
    { ...SQL, integer: 'int', long: 'bigint', real: 'double', numeric: 'decimal', string: 'text' },
  ),
  spark_sql: spellings(
    `boolean tinyint smallint int bigint float double decimal string varchar char binary date timestamp
     timestamp_ntz variant void array map struct`,
    {
      ...SQL,
      ...CATALYST,
      real: 'float',
      numeric: 'decimal',
      text: 'string',
      dec: 'decimal',
      timestamp_ltz: 'timestamp',
    },
  ),
  hive3: spellings(
    `tinyint smallint int bigint boolean float double decimal string varchar char binary date timestamp
     array map struct uniontype`,
    { ...SQL, ...CATALYST, real: 'float', numeric: 'decimal', text: 'string' },
  ),
  iceberg_v2: spellings(
    `boolean int long float double decimal date time timestamp timestamptz string uuid binary fixed list
     map struct`,
    {
      ...SQL,
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
  avro: spellings('boolean int long float double bytes string record enum array map', {
    ...SQL,
    ...CHARACTERS_AS_STRING,
    integer: 'int',
    bigint: 'long',
    binary: 'bytes',
    varchar: 'string',
    text: 'string',
    struct: 'record',
  }),
  storage_files: FILES,
  sftp_files: FILES,
};

/** Names the facet tables do not read (compared as text), among them every catalog name the crawler maps. */
const UNKNOWN_NAMES: Record<string, string> = {
  postgres14: `name internal_char point line lseg box path polygon circle cidr macaddr macaddr8 bit varbit
    tsvector tsquery gtsvector jsonpath int4range int8range numrange tsrange tstzrange daterange
    int4multirange int8multirange nummultirange tsmultirange tstzmultirange datemultirange oid regclass
    regcollation regconfig regdictionary regnamespace regoper regoperator regproc regprocedure regrole
    regtype xid xid8 cid tid aclitem int2vector oidvector refcursor pg_lsn pg_snapshot txid_snapshot
    pg_node_tree pg_ndistinct pg_dependencies pg_mcv_list pg_brin_bloom_summary pg_brin_minmax_multi_summary
    geography null void`,
  mysql8: `bit geometry geometrycollection geomcollection linestring point polygon multipoint multilinestring
    multipolygon tinyblob mediumblob longblob inet4 inet6 null`,
  spark_sql: 'null uniontype list interval',
  hive3: 'null void variant timestamp_ntz dec timestamp_ltz',
  iceberg_v2: 'null timestamp_ns timestamptz_ns variant tinyint',
  avro: 'null fixed decimal date uuid',
  storage_files: 'null geometry variant interval time32 fixed_size_binary',
  sftp_files: 'null',
  sqlite3: 'integer text',
  protobuf: 'int32 string',
  json_schema: 'integer string',
};

describe('OpenLineage type names as data types of a flavor', () => {
  it.each([
    // Spark on files (Arrow), on Spark SQL tables, on Iceberg
    ['integer', 'storage_files', { data_type: 'int32' }],
    ['long', 'storage_files', { data_type: 'int64' }],
    ['string', 'storage_files', { data_type: 'utf8' }],
    ['decimal(10,2)', 'storage_files', { data_type: 'decimal', params: { precision: 10, scale: 2 } }],
    ['struct<a:int,b:string>', 'spark_sql', { data_type: 'struct' }],
    ['array<int>', 'iceberg_v2', { data_type: 'list' }],
    ['long', 'iceberg_v2', { data_type: 'long' }],
    ['INTEGER', 'spark_sql', { data_type: 'int' }],
    // Airflow's SQL extractors and Flink on PostgreSQL
    ['int4', 'postgres14', { data_type: 'integer' }],
    ['varchar', 'postgres14', { data_type: 'varchar' }],
    ['VARCHAR(64)', 'postgres14', { data_type: 'varchar', params: { length: 64 } }],
    ['timestamp without time zone', 'postgres14', { data_type: 'timestamp' }],
    ['TEXT', 'postgres14', { data_type: 'text' }],
    ['STRING', 'mysql8', { data_type: 'text' }],
  ])('%s in %s', (text, flavor, type) => {
    expect(observedTypeOf(text, flavor)).toEqual(type);
  });

  it('knows nothing of an unknown name, an empty one, or a flavor without a table', () => {
    expect(observedTypeOf('geography', 'postgres14')).toBeNull();
    expect(observedTypeOf('', 'postgres14')).toBeNull();
    expect(observedTypeOf(null, 'postgres14')).toBeNull();
    expect(observedTypeOf('integer', null)).toBeNull();
    expect(observedTypeOf('integer', 'sqlite3')).toBeNull();
  });

  it("reads a name of JavaScript's objects as any unknown name, never as a code", () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect([name, observedTypeOf(name, 'postgres14')]).toEqual([name, null]);
      expect([name, canonicalCode(name, 'mysql8')]).toEqual([name, null]);
      expect([name, observedTypeOf('integer', name)]).toEqual([name, null]);
      expect([name, canonicalCode('integer', name)]).toEqual([name, null]);
    }
  });

  it('reads every spelling of every table as its code, in any case, as name and as registered code', () => {
    for (const [flavor, table] of Object.entries(FACET_SPELLINGS)) {
      for (const [spelling, code] of Object.entries(table)) {
        const at = `${spelling} in ${flavor}`;
        expect([at, observedTypeOf(spelling, flavor)]).toEqual([at, { data_type: code }]);
        expect([at, observedTypeOf(` ${spelling.toUpperCase()} `, flavor)]).toEqual([
          at,
          { data_type: code },
        ]);
        expect([at, canonicalCode(spelling, flavor)]).toEqual([at, code]);
      }
    }
  });

  it('reads no other name, not even the catalog names a crawler maps in the flavor', () => {
    for (const [flavor, names] of Object.entries(UNKNOWN_NAMES)) {
      for (const name of names.trim().split(/\s+/)) {
        const at = `${name} in ${flavor}`;
        expect([at, observedTypeOf(name, flavor)]).toEqual([at, null]);
        expect([at, canonicalCode(name, flavor)]).toEqual([at, null]);
      }
    }
  });

  it("collapses a flavor's alias codes into one type", () => {
    expect(canonicalCode('integer', 'spark_sql')).toBe('int');
    expect(canonicalCode('decimal', 'postgres14')).toBe('numeric');
    expect(canonicalCode('int64', 'storage_files')).toBe('int64');
    expect(canonicalCode('geometry', 'storage_files')).toBeNull();
  });
});
