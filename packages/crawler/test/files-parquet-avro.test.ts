// The files source on real Parquet and Avro files (test/fixtures/files/generate.mjs: parquet-wasm,
// hyparquet-writer, avsc): every column typed in the storage_files flavor, the file's own type kept.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { InspectedDatabase } from '../src/model.js';
import { column, inspectPath, LAKE, table, typesOf } from './helpers/files.js';

const t = (data_type: string, params?: Record<string, unknown>, children?: unknown[]) => ({
  data_type,
  ...(params === undefined ? {} : { params }),
  ...(children === undefined ? {} : { children }),
});
const item = (type: unknown) => [{ slot: 'item', type }];

let lake: InspectedDatabase;
beforeAll(async () => {
  lake = await inspectPath(LAKE);
});

describe('a folder of files', () => {
  it('becomes one dataset per table folder or root file, 0 unmapped, in the files flavor', () => {
    expect(lake.tables.map((t) => t.name)).toEqual([
      'all_types.parquet',
      'broken',
      'clicks.jsonl',
      'customers.csv',
      'events',
      'latin1.psv.gz',
      'legacy.parquet',
      'metrics',
      'no_header.csv',
      'sales',
      'users',
      'utf16.tsv',
    ]);
    expect(lake).toMatchObject({
      dialect: 'files',
      flavor: 'storage_files',
      server: { product: 'Files' },
      schemas: [''],
    });
    expect(lake.unmapped_types).toEqual([]);
    expect(lake.summary.unmapped_columns).toBe(0);
    for (const dataset of lake.tables) {
      expect(dataset.schema).toBe('');
      expect(dataset.columns.map((c) => c.ordinal)).toEqual(dataset.columns.map((_, i) => i + 1));
      for (const c of dataset.columns) expect(c.type).not.toBeNull();
    }
    // Big-decimal has no Arrow decimal: kept as bytes and said so.
    expect(lake.approximate_types).toEqual([
      { native_type: 'bytes (big-decimal)', data_type: 'binary', columns: 1 },
    ]);
  });
});

describe('Parquet footers', () => {
  it('maps every type arrow-rs writes, with the Parquet spelling as native type', () => {
    const types = typesOf(table(lake, 'all_types.parquet'));
    expect(types).toMatchObject({
      i8: ['INT32 (INTEGER(8,true))', t('int8')],
      u64: ['INT64 (INTEGER(64,false))', t('uint64')],
      f16: ['FIXED_LEN_BYTE_ARRAY(2) (FLOAT16)', t('float16')],
      day: ['INT32 (DATE)', t('date32')],
      t_ms: ['INT32 (TIME(MILLIS,false))', t('time32', { unit: 'ms' })],
      t_ns: ['INT64 (TIME(NANOS,false))', t('time64', { unit: 'ns' })],
      ts_ms_utc: ['INT64 (TIMESTAMP(MILLIS,true))', t('timestamp', { unit: 'ms', timezone: 'UTC' })],
      ts_us_local: ['INT64 (TIMESTAMP(MICROS,false))', t('timestamp', { unit: 'us' })],
      price: ['INT64 (DECIMAL(12,2))', t('decimal', { precision: 12, scale: 2 })],
      big_price: ['FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(38,4))', t('decimal', { precision: 38, scale: 4 })],
      label: ['BYTE_ARRAY (STRING)', t('utf8')],
      blob: ['BYTE_ARRAY', t('binary')],
      digest: ['FIXED_LEN_BYTE_ARRAY(4)', t('fixed_size_binary', { byte_width: 4 })],
      category: ['BYTE_ARRAY (STRING)', t('utf8')], // dictionary-encoded: its value type
      scores: ['group (LIST)<INT32>', t('list', undefined, item(t('int32')))],
      attributes: [
        'group (MAP)<BYTE_ARRAY (STRING), INT32>',
        t('map', undefined, [
          { slot: 'key', type: t('utf8') },
          { slot: 'value', type: t('int32') },
        ]),
      ],
      nested_lists: [
        'group (LIST)<group (LIST)<BYTE_ARRAY (STRING)>>',
        t('list', undefined, item(t('list', undefined, item(t('utf8'))))),
      ],
    });
    expect(types.address[1]).toEqual(
      t('struct', undefined, [
        { slot: 'field:street', type: t('utf8') },
        { slot: 'field:zip', type: t('int32') },
        {
          slot: 'field:geo',
          type: t('struct', undefined, [
            { slot: 'field:lat', type: t('float64') },
            { slot: 'field:lon', type: t('float64') },
          ]),
        },
      ]),
    );
    expect(table(lake, 'all_types.parquet').placement).toEqual({
      kind: 'storage',
      object_name: 'all_types.parquet',
      flavor: 'storage_files',
      attributes: {
        path: `file://${LAKE}/all_types.parquet`,
        file_format: 'parquet',
        compression: 'zstd',
        partition_by: [],
      },
    });
  });

  it('reads the legacy list and map shapes, INT96, converted types and every logical annotation', () => {
    const legacy = table(lake, 'legacy.parquet');
    const struct = (...fields: [string, unknown][]) =>
      t(
        'struct',
        undefined,
        fields.map(([name, type]) => ({ slot: `field:${name}`, type })),
      );
    expect(typesOf(legacy)).toEqual({
      two_level_primitive: ['group (LIST, 2-level)<INT32>', t('list', undefined, item(t('int32')))],
      two_level_group: [
        'group (LIST, 2-level)<group>',
        t('list', undefined, item(struct(['str', t('utf8')], ['num', t('int32')]))),
      ],
      avro_style: ['group (LIST, 2-level)<group>', t('list', undefined, item(struct(['str', t('utf8')])))],
      thrift_style: ['group (LIST, 2-level)<group>', t('list', undefined, item(struct(['str', t('utf8')])))],
      three_level: ['group (LIST)<INT64>', t('list', undefined, item(t('int64')))],
      repeated_field: ['repeated BYTE_ARRAY (UTF8)', t('list', undefined, item(t('utf8')))],
      legacy_map: [
        'group (MAP)<BYTE_ARRAY (UTF8), DOUBLE>',
        t('map', undefined, [
          { slot: 'key', type: t('utf8') },
          { slot: 'value', type: t('float64') },
        ]),
      ],
      int96_ts: ['INT96', t('timestamp', { unit: 'ns' })],
      u8: ['INT32 (UINT_8)', t('uint8')],
      u64: ['INT64 (UINT_64)', t('uint64')],
      i16: ['INT32 (INT_16)', t('int16')],
      time_ms: ['INT32 (TIME_MILLIS)', t('time32', { unit: 'ms' })],
      ts_micros: ['INT64 (TIMESTAMP_MICROS)', t('timestamp', { unit: 'us', timezone: 'UTC' })],
      day: ['INT32 (DATE)', t('date32')],
      dec_int32: ['INT32 (DECIMAL(9,2))', t('decimal', { precision: 9, scale: 2 })],
      dec_int64: ['INT64 (DECIMAL(18,4))', t('decimal', { precision: 18, scale: 4 })],
      dec_fixed: ['FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(38,10))', t('decimal', { precision: 38, scale: 10 })],
      dec_binary: ['BYTE_ARRAY (DECIMAL(50,0))', t('decimal', { precision: 50, scale: 0 })],
      name_utf8: ['BYTE_ARRAY (UTF8)', t('utf8')],
      mood: ['BYTE_ARRAY (ENUM)', t('utf8')],
      doc_json: ['BYTE_ARRAY (JSON)', t('json')],
      doc_bson: ['BYTE_ARRAY (BSON)', t('binary')],
      span: ['FIXED_LEN_BYTE_ARRAY(12) (INTERVAL)', t('interval', { unit: 'month_day_nano' })],
      id: ['FIXED_LEN_BYTE_ARRAY(16) (UUID)', t('uuid')],
      half: ['FIXED_LEN_BYTE_ARRAY(2) (FLOAT16)', t('float16')],
      u16_logical: ['INT32 (INTEGER(16,false))', t('uint16')],
      time_ns: ['INT64 (TIME(NANOS,false))', t('time64', { unit: 'ns' })],
      ts_ns_local: ['INT64 (TIMESTAMP(NANOS,false))', t('timestamp', { unit: 'ns' })],
      nothing: ['INT32 (UNKNOWN)', t('null')],
      shape: ['BYTE_ARRAY (GEOMETRY(OGC:CRS84))', t('geometry', { crs: 'OGC:CRS84' })],
      route: ['BYTE_ARRAY (GEOGRAPHY(SPHERICAL))', t('geography')],
      payload: ['group (VARIANT)', t('variant')],
      raw_flba: ['FIXED_LEN_BYTE_ARRAY(3)', t('fixed_size_binary', { byte_width: 3 })],
    });
    expect(column(legacy, 'three_level').nullable).toBe(false);
    expect(column(legacy, 'repeated_field').nullable).toBe(false);
    expect(column(legacy, 'u8').nullable).toBe(true);
    expect(legacy.placement?.attributes.compression).toBe('none'); // no row groups, no codec
  });
});

describe('Avro container headers', () => {
  it('maps primitives, logical types, named types, unions and nested records; the Avro spelling kept', () => {
    const users = table(lake, 'users');
    expect(typesOf(users)).toMatchObject({
      id: ['long', t('int64')],
      email: ['["null", "string"]', t('utf8')],
      score: ['float', t('float32')],
      photo: ['bytes', t('binary')],
      balance: ['bytes (decimal(10,2))', t('decimal', { precision: 10, scale: 2 })],
      fixed_balance: ['fixed com.acme.Money(8) (decimal(18,4))', t('decimal', { precision: 18, scale: 4 })],
      uid: ['string (uuid)', t('uuid')],
      born: ['int (date)', t('date32')],
      wake: ['int (time-millis)', t('time32', { unit: 'ms' })],
      wake_us: ['long (time-micros)', t('time64', { unit: 'us' })],
      created: ['long (timestamp-millis)', t('timestamp', { unit: 'ms', timezone: 'UTC' })],
      seen_ns: ['long (timestamp-nanos)', t('timestamp', { unit: 'ns', timezone: 'UTC' })],
      local_seen: ['long (local-timestamp-micros)', t('timestamp', { unit: 'us' })],
      grace: ['fixed com.acme.Grace(12) (duration)', t('interval', { unit: 'month_day_nano' })],
      precise: ['bytes (big-decimal)', t('binary')],
      color: ['enum com.acme.Color', t('utf8')],
      hash: ['fixed com.acme.MD5(16)', t('fixed_size_binary', { byte_width: 16 })],
      tags: ['array<string>', t('list', undefined, item(t('utf8')))],
      counters: [
        'map<long>',
        t('map', undefined, [
          { slot: 'key', type: t('utf8') },
          { slot: 'value', type: t('int64') },
        ]),
      ],
      // An invalid decimal (scale > precision) is its underlying type, as the specification says.
      bad_decimal: ['bytes', t('binary')],
    });
    const address = t('struct', undefined, [
      { slot: 'field:city', type: t('utf8') },
      { slot: 'field:zip', type: t('int32') },
    ]);
    expect(column(users, 'address')).toMatchObject({
      native_type: '["null", "record com.acme.Address"]',
      type: address,
      nullable: true,
    });
    expect(column(users, 'contact')).toMatchObject({
      type: t('union', { mode: 'dense' }, [
        { slot: 'field:string', type: t('utf8') },
        { slot: 'field:long', type: t('int64') },
        { slot: 'field:com.acme.Address', type: address },
      ]),
      nullable: true,
    });
    expect(column(users, 'id').nullable).toBe(false);
    // Added in the second file with a default: in the merged dataset, nullable (absent from the first).
    expect(column(users, 'nickname')).toMatchObject({
      native_type: 'string',
      nullable: true,
      ordinal: users.columns.length,
    });
    expect(users.placement?.attributes).toMatchObject({ file_format: 'avro', compression: 'deflate,none' });
  });
});
