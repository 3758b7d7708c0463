// Every built-in PostgreSQL type maps to a postgres14 code with params its data type accepts: one
// column of each base, range and multirange type of pg_catalog (read from the server, so PostgreSQL
// 15 and 17 are both covered), an array of each, and the type-modifier variants.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inspectDatabase } from '../src/inspect/inspect.js';
import type { InspectedDatabase, InspectedTable } from '../src/model.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';
import { SeedCatalogue } from './helpers/seeds.js';

let db: TestPgDatabase;
let inspected: InspectedDatabase;
let builtins: { typname: string; has_array: boolean }[];
const seeds = new SeedCatalogue('postgres14');

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

beforeAll(async () => {
  db = await createPgDatabase('types');
  builtins = await db.exec(`
    SELECT t.typname, t.typarray <> 0 AS has_array
    FROM pg_type t
    WHERE t.typnamespace = 'pg_catalog'::regnamespace AND t.typtype IN ('b', 'r', 'm') AND t.typisdefined
      AND NOT EXISTS (SELECT 1 FROM pg_type e WHERE e.typarray = t.oid)
    ORDER BY t.typname`);
  const columns = builtins.flatMap(({ typname, has_array }) => [
    `${quote(`c_${typname}`)} pg_catalog.${quote(typname)}`,
    ...(has_array ? [`${quote(`a_${typname}`)} pg_catalog.${quote(typname)}[]`] : []),
  ]);
  await db.exec(`
    CREATE TABLE builtins (${columns.join(', ')});
    CREATE TABLE variants (
      v_varchar varchar(20), v_varchar_plain varchar, v_char char(5), v_char_plain char, v_bpchar bpchar,
      v_numeric numeric(10, 2), v_numeric_p numeric(7), v_numeric_negative numeric(5, -2),
      v_time time(3), v_timetz time(2) with time zone, v_timestamp timestamp(0), v_timestamptz timestamptz(6),
      v_interval_ym interval year to month, v_interval_ds interval day to second(2), v_interval_p interval(4),
      v_interval_minute interval minute, v_bit bit(3), v_varbit bit varying(16), v_bit_plain bit,
      v_decimal decimal(8, 3), v_float float(10), v_double float(40), v_serial serial, v_bigserial bigserial,
      v_int_2d int[][], v_text_3d text[][][], v_varchar_array varchar(12)[], v_numeric_array numeric(6, 1)[][]
    );
    CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
    CREATE DOMAIN short_code AS varchar(8) CHECK (VALUE <> '');
    CREATE DOMAIN code_list AS short_code[];
    CREATE DOMAIN nested_domain AS short_code;
    CREATE TYPE pair AS (left_value integer, right_value text[]);
    CREATE TYPE wrapper AS (inner_pair pair, moods mood[]);
    CREATE TABLE user_types (
      u_enum mood, u_enum_array mood[], u_domain short_code, u_domain_array code_list,
      u_nested_domain nested_domain, u_composite pair, u_nested_composite wrapper, u_composite_array pair[],
      u_row_type variants
    );`);
  inspected = await inspectDatabase({ connectionUrl: db.url });
}, 60_000);

afterAll(async () => {
  await db?.drop();
}, 180_000);

const table = (name: string): InspectedTable => inspected.tables.find((t) => t.name === name)!;
const typeOf = (tableName: string, column: string) =>
  table(tableName).columns.find((c) => c.name === column)!.type;

describe('PostgreSQL built-in types', () => {
  it('covers every base, range and multirange type of pg_catalog', () => {
    expect(builtins.length).toBeGreaterThan(80);
    const names = table('builtins').columns.map((c) => c.name);
    for (const { typname } of builtins) expect(names).toContain(`c_${typname}`);
  });

  it('maps every one of them, and their arrays, with no unmapped type', () => {
    expect(inspected.unmapped_types).toEqual([]);
    expect(inspected.summary.unmapped_columns).toBe(0);
    const unmapped = inspected.tables.flatMap((t) =>
      t.columns.filter((c) => c.type === null).map((c) => c.name),
    );
    expect(unmapped).toEqual([]);
  });

  it('produces type trees whose codes and params the postgres14 data types accept', () => {
    const problems = inspected.tables.flatMap((t) =>
      t.columns.flatMap((c) => seeds.problems(c.type!, `${t.name}.${c.name}`)),
    );
    expect(problems).toEqual([]);
  });

  it('decodes type modifiers into params', () => {
    expect(typeOf('variants', 'v_varchar')).toEqual({ data_type: 'varchar', params: { length: 20 } });
    expect(typeOf('variants', 'v_varchar_plain')).toEqual({ data_type: 'varchar' });
    expect(typeOf('variants', 'v_char')).toEqual({ data_type: 'char', params: { length: 5 } });
    expect(typeOf('variants', 'v_char_plain')).toEqual({ data_type: 'char', params: { length: 1 } });
    expect(typeOf('variants', 'v_bpchar')).toEqual({ data_type: 'char' });
    expect(typeOf('variants', 'v_numeric')).toEqual({
      data_type: 'numeric',
      params: { precision: 10, scale: 2 },
    });
    expect(typeOf('variants', 'v_numeric_p')).toEqual({
      data_type: 'numeric',
      params: { precision: 7, scale: 0 },
    });
    expect(typeOf('variants', 'v_numeric_negative')).toEqual({
      data_type: 'numeric',
      params: { precision: 5, scale: -2 },
    });
    expect(typeOf('variants', 'v_time')).toEqual({ data_type: 'time', params: { precision: 3 } });
    expect(typeOf('variants', 'v_timetz')).toEqual({ data_type: 'timetz', params: { precision: 2 } });
    expect(typeOf('variants', 'v_timestamp')).toEqual({ data_type: 'timestamp', params: { precision: 0 } });
    expect(typeOf('variants', 'v_timestamptz')).toEqual({
      data_type: 'timestamptz',
      params: { precision: 6 },
    });
    expect(typeOf('variants', 'v_interval_ym')).toEqual({
      data_type: 'interval',
      params: { interval_fields: 'year to month' },
    });
    expect(typeOf('variants', 'v_interval_ds')).toEqual({
      data_type: 'interval',
      params: { interval_fields: 'day to second', precision: 2 },
    });
    expect(typeOf('variants', 'v_interval_p')).toEqual({ data_type: 'interval', params: { precision: 4 } });
    expect(typeOf('variants', 'v_interval_minute')).toEqual({
      data_type: 'interval',
      params: { interval_fields: 'minute' },
    });
    expect(typeOf('variants', 'v_bit')).toEqual({ data_type: 'bit', params: { length: 3 } });
    expect(typeOf('variants', 'v_bit_plain')).toEqual({ data_type: 'bit', params: { length: 1 } });
    expect(typeOf('variants', 'v_varbit')).toEqual({ data_type: 'varbit', params: { length: 16 } });
    expect(typeOf('variants', 'v_decimal')).toEqual({
      data_type: 'numeric',
      params: { precision: 8, scale: 3 },
    });
    expect(typeOf('variants', 'v_float')).toEqual({ data_type: 'real' });
    expect(typeOf('variants', 'v_double')).toEqual({ data_type: 'double' });
    expect(typeOf('builtins', 'c_char')).toEqual({ data_type: 'internal_char' });
  });

  it('nests arrays by their declared dimensions, with the element type modifier', () => {
    const array = (type: object) => ({ data_type: 'array', children: [{ slot: 'item', type }] });
    expect(typeOf('variants', 'v_int_2d')).toEqual(array(array({ data_type: 'integer' })));
    expect(typeOf('variants', 'v_text_3d')).toEqual(array(array(array({ data_type: 'text' }))));
    expect(typeOf('variants', 'v_varchar_array')).toEqual(
      array({ data_type: 'varchar', params: { length: 12 } }),
    );
    expect(typeOf('variants', 'v_numeric_array')).toEqual(
      array(array({ data_type: 'numeric', params: { precision: 6, scale: 1 } })),
    );
    expect(typeOf('builtins', 'a_int4')).toEqual(array({ data_type: 'integer' }));
    const serial = table('variants').columns.find((c) => c.name === 'v_serial')!;
    expect(serial).toMatchObject({ native_type: 'integer', type: { data_type: 'integer' }, nullable: false });
    expect(serial.default).toMatch(/^nextval\('public\.variants_v_serial_seq'::regclass\)$/);
  });

  it('maps enums with their labels, domains to their base type, composites to field children', () => {
    expect(typeOf('user_types', 'u_enum')).toEqual({
      data_type: 'enum',
      params: { name: 'public.mood', labels: "'sad','ok','happy'" },
    });
    const domain = table('user_types').columns.find((c) => c.name === 'u_domain')!;
    expect(domain).toMatchObject({
      native_type: 'public.short_code',
      domain: 'public.short_code',
      type: { data_type: 'varchar', params: { length: 8 } },
    });
    const nested = table('user_types').columns.find((c) => c.name === 'u_nested_domain')!;
    expect(nested).toMatchObject({
      domain: 'public.nested_domain',
      type: { data_type: 'varchar', params: { length: 8 } },
    });
    expect(typeOf('user_types', 'u_domain_array')).toEqual({
      data_type: 'array',
      children: [{ slot: 'item', type: { data_type: 'varchar', params: { length: 8 } } }],
    });
    const pair = {
      data_type: 'composite',
      params: { name: 'public.pair' },
      children: [
        { slot: 'field:left_value', type: { data_type: 'integer' } },
        {
          slot: 'field:right_value',
          type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
        },
      ],
    };
    expect(typeOf('user_types', 'u_composite')).toEqual(pair);
    expect(typeOf('user_types', 'u_nested_composite')).toEqual({
      data_type: 'composite',
      params: { name: 'public.wrapper' },
      children: [
        { slot: 'field:inner_pair', type: pair },
        {
          slot: 'field:moods',
          type: {
            data_type: 'array',
            children: [{ slot: 'item', type: typeOf('user_types', 'u_enum') }],
          },
        },
      ],
    });
    expect(typeOf('user_types', 'u_composite_array')).toEqual({
      data_type: 'array',
      children: [{ slot: 'item', type: pair }],
    });
    const rowType = typeOf('user_types', 'u_row_type')!;
    expect(rowType).toMatchObject({ data_type: 'composite', params: { name: 'public.variants' } });
    expect(rowType.children).toHaveLength(table('variants').columns.length);
  });

  it('reports an extension type as unmapped, with its native text, without failing', async () => {
    await db.exec(
      `CREATE EXTENSION IF NOT EXISTS citext; CREATE TABLE ext (id int, name citext, names citext[])`,
    );
    const again = await inspectDatabase({ connectionUrl: db.url, filters: { tables: ['ext'] } });
    expect(again.unmapped_types).toEqual([
      { native_type: 'public.citext', columns: 1 },
      { native_type: 'public.citext[]', columns: 1 },
    ]);
    expect(again.summary.unmapped_columns).toBe(2);
    const columns = again.tables[0].columns;
    expect(columns.map((c) => [c.name, c.native_type, c.type])).toEqual([
      ['id', 'integer', { data_type: 'integer' }],
      ['name', 'public.citext', null],
      ['names', 'public.citext[]', null],
    ]);
  });
});
