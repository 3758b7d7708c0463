// Every type name each catalog reader knows, with the code and the parameters it maps to: pinned here so
// that where the spelling tables live (ADR 0062) can change nothing the crawler reports. The real
// databases' tests (postgres-types, mysql, sqlite, lakehouse) check the same mappings end to end.
import { describe, expect, it } from '@jest/globals';
import { mapMysqlType, MYSQL_BUILTIN_TYPES } from '../src/normalise/mysql.js';
import { POSTGRES_BUILTIN_TYPES } from '../src/normalise/postgres.js';
import { mapSqliteType, SQLITE_DECLARED_TYPES } from '../src/normalise/sqlite.js';
import { mapIcebergType } from '../src/sources/lakehouse/iceberg-types.js';
import { mapSparkType, sparkTypeText } from '../src/sources/lakehouse/spark-types.js';

/** A name → code table from the names spelled as their code and the others. */
const spellings = (same: string, renamed: Record<string, string> = {}): Record<string, string> => ({
  ...Object.fromEntries(
    same
      .trim()
      .split(/\s+/)
      .map((name) => [name, name]),
  ),
  ...renamed,
});

const sorted = (names: Iterable<string>) => [...names].sort();

describe('PostgreSQL built-in types (pg_type.typname)', () => {
  const expected = spellings(
    `numeric money varchar text name bytea date time timetz timestamp timestamptz interval point line lseg
     box path polygon circle inet cidr macaddr macaddr8 bit varbit tsvector tsquery gtsvector uuid xml json
     jsonb jsonpath int4range int8range numrange tsrange tstzrange daterange int4multirange int8multirange
     nummultirange tsmultirange tstzmultirange datemultirange oid regclass regcollation regconfig
     regdictionary regnamespace regoper regoperator regproc regprocedure regrole regtype xid xid8 cid tid
     aclitem int2vector oidvector refcursor pg_lsn pg_snapshot txid_snapshot pg_node_tree pg_ndistinct
     pg_dependencies pg_mcv_list pg_brin_bloom_summary pg_brin_minmax_multi_summary`,
    {
      int2: 'smallint',
      int4: 'integer',
      int8: 'bigint',
      float4: 'real',
      float8: 'double',
      bpchar: 'char',
      bool: 'boolean',
      // The one-byte "char" of the catalogs, not character(n).
      char: 'internal_char',
    },
  );

  it('maps every name, and only those, to its postgres14 code', () => {
    expect(sorted(Object.keys(POSTGRES_BUILTIN_TYPES))).toEqual(sorted(Object.keys(expected)));
    for (const [name, code] of Object.entries(expected)) {
      expect([name, POSTGRES_BUILTIN_TYPES[name](-1)]).toEqual([name, { data_type: code }]);
    }
  });

  it('decodes the type modifier of exactly the types that have one', () => {
    // typmod 24: varchar(20) (n + 4), bit(24), time(24), numeric's packed precision 0 and scale 20.
    const withParams = {
      numeric: { data_type: 'numeric', params: { precision: 0, scale: 20 } },
      bpchar: { data_type: 'char', params: { length: 20 } },
      varchar: { data_type: 'varchar', params: { length: 20 } },
      time: { data_type: 'time', params: { precision: 24 } },
      timetz: { data_type: 'timetz', params: { precision: 24 } },
      timestamp: { data_type: 'timestamp', params: { precision: 24 } },
      timestamptz: { data_type: 'timestamptz', params: { precision: 24 } },
      interval: { data_type: 'interval', params: { precision: 24 } },
      bit: { data_type: 'bit', params: { length: 24 } },
      varbit: { data_type: 'varbit', params: { length: 24 } },
    };
    for (const [name, code] of Object.entries(expected)) {
      const type = Object.hasOwn(withParams, name)
        ? withParams[name as keyof typeof withParams]
        : { data_type: code };
      expect([name, POSTGRES_BUILTIN_TYPES[name](24)]).toEqual([name, type]);
    }
  });
});

describe('MySQL/MariaDB built-in types (information_schema DATA_TYPE)', () => {
  const expected = spellings(
    `bigint binary bit blob char date datetime decimal double enum float geometry geometrycollection inet4
     inet6 int json linestring longblob longtext mediumblob mediumint mediumtext multilinestring multipoint
     multipolygon point polygon set smallint text time timestamp tinyblob tinyint tinytext uuid varbinary
     varchar year`,
    { geomcollection: 'geometrycollection', real: 'double' },
  );
  const column = (dataType: string) => ({
    column_type: dataType,
    data_type: dataType,
    character_maximum_length: null,
    numeric_precision: null,
    numeric_scale: null,
    datetime_precision: null,
    json_checked: false,
  });

  it('lists every name it maps', () => {
    expect(MYSQL_BUILTIN_TYPES).toEqual(sorted(Object.keys(expected)));
  });

  it('maps every name, in any case, to its mysql8 code and any other to nothing', () => {
    for (const [name, code] of Object.entries(expected)) {
      expect([name, mapMysqlType(column(name))]).toEqual([name, { type: { data_type: code } }]);
      expect([name, mapMysqlType(column(name.toUpperCase()))]).toEqual([name, { type: { data_type: code } }]);
    }
    for (const name of ['vector', 'boolean', 'integer', 'numeric', 'int4', 'constructor', '']) {
      expect([name, mapMysqlType(column(name))]).toEqual([name, null]);
    }
  });
});

describe('SQLite declared type names', () => {
  const expected = spellings(
    `INTEGER INT TINYINT SMALLINT MEDIUMINT BIGINT BOOLEAN REAL DOUBLE FLOAT NUMERIC DECIMAL TEXT CLOB CHAR
     NCHAR VARCHAR NVARCHAR BLOB DATE DATETIME TIMESTAMP TIME JSON ANY`,
    {
      '': 'NONE',
      INT2: 'SMALLINT',
      INT8: 'BIGINT',
      'UNSIGNED BIG INT': 'BIGINT',
      BOOL: 'BOOLEAN',
      'DOUBLE PRECISION': 'DOUBLE',
      CHARACTER: 'CHAR',
      'NATIVE CHARACTER': 'NCHAR',
      'VARYING CHARACTER': 'VARCHAR',
      'CHARACTER VARYING': 'VARCHAR',
    },
  );
  const PRECISION = new Set(['numeric', 'decimal']);
  const LENGTH = new Set(['char', 'nchar', 'varchar', 'nvarchar']);

  it('has exactly these names', () => {
    expect(sorted(Object.keys(SQLITE_DECLARED_TYPES))).toEqual(sorted(Object.keys(expected)));
  });

  it('maps every name, in any case and spacing, to its sqlite3 code with the params it takes', () => {
    for (const [name, upperCode] of Object.entries(expected)) {
      const code = upperCode.toLowerCase();
      const spelled = ` ${name.toLowerCase().replaceAll(' ', '   ')} `;
      expect([name, mapSqliteType(name)]).toEqual([name, { type: { data_type: code } }]);
      expect([name, mapSqliteType(spelled)]).toEqual([name, { type: { data_type: code } }]);
      const params = PRECISION.has(code)
        ? { precision: 10, scale: 2 }
        : LENGTH.has(code)
          ? { length: 10 }
          : undefined;
      expect([name, mapSqliteType(`${name}(10,2)`)]).toEqual([
        name,
        { type: params === undefined ? { data_type: code } : { data_type: code, params } },
      ]);
    }
  });

  it('maps any other name approximately by its affinity', () => {
    expect(mapSqliteType('STRING')).toEqual({ type: { data_type: 'numeric' }, approximate: true });
    expect(mapSqliteType('UNSIGNED INTEGER')).toEqual({ type: { data_type: 'integer' }, approximate: true });
    expect(mapSqliteType('UUID')).toEqual({ type: { data_type: 'numeric' }, approximate: true });
  });
});

describe("Spark's type names in a Delta log (spark_sql)", () => {
  const expected = spellings('boolean float double string binary date timestamp timestamp_ntz variant void', {
    byte: 'tinyint',
    short: 'smallint',
    integer: 'int',
    long: 'bigint',
    // NullType as older Spark versions wrote it.
    null: 'void',
  });

  it('maps every primitive name, in any case, to its spark_sql code and prints it as that code', () => {
    for (const [name, code] of Object.entries(expected)) {
      expect([name, mapSparkType(name)]).toEqual([name, { data_type: code }]);
      expect([name, mapSparkType(name.toUpperCase())]).toEqual([name, { data_type: code }]);
      expect([name, sparkTypeText(name)]).toEqual([name, code]);
    }
  });

  it('knows no DDL-only name: Delta writes the JSON names', () => {
    for (const name of ['int', 'bigint', 'tinyint', 'smallint', 'char', 'varchar', 'text', 'timestamp_ltz']) {
      expect([name, mapSparkType(name)]).toEqual([name, null]);
      expect([name, sparkTypeText(name)]).toEqual([name, name]);
    }
  });
});

describe("names of JavaScript's objects", () => {
  it('are unknown type names to every reader', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect([name, mapSparkType(name)]).toEqual([name, null]);
      expect([name, sparkTypeText(name)]).toEqual([name, name]);
      expect([name, mapIcebergType(name)]).toEqual([name, null]);
      expect([name, mapSqliteType(name)]).toEqual([name, expect.objectContaining({ approximate: true })]);
      expect(Object.hasOwn(POSTGRES_BUILTIN_TYPES, name)).toBe(false);
    }
  });
});

describe("Iceberg's primitive type names (iceberg_v2)", () => {
  const expected = spellings(
    'boolean int long float double date time timestamp timestamptz string uuid binary',
  );

  it('maps every primitive name as its own code, case-sensitively, and no other name', () => {
    for (const [name, code] of Object.entries(expected)) {
      expect([name, mapIcebergType(name)]).toEqual([name, { data_type: code }]);
      expect([name, mapIcebergType(name.toUpperCase())]).toEqual([name, null]);
    }
    for (const name of ['integer', 'bigint', 'decimal', 'fixed', 'list', 'timestamp_ns', 'variant']) {
      expect([name, mapIcebergType(name)]).toEqual([name, null]);
    }
  });
});
