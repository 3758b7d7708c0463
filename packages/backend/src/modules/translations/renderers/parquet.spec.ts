import { describe, expect, it } from '@jest/globals';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { Omissions } from '../translated-table.js';
import { parseMessageType } from './parquet-message-type.js';
import { renderParquet } from './parquet.js';
import { col, t, table } from './spec-helpers.js';

type WriterSchema = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>;

const orders = table(
  [
    col('id', t('int64'), { nullable: false, comment: 'The order id' }),
    col('name', t('utf8')),
    col('amount', t('decimal', { precision: 12, scale: 2 }), { nullable: false }),
    col('big', t('decimal', { precision: 30, scale: 4 })),
    col('small', t('decimal', { precision: 5, scale: 1 })),
    col('placed_at', t('timestamp', { unit: 'us', timezone: 'UTC' }), { nullable: false, default: 'now()' }),
    col('local_at', t('timestamp', { unit: 'ms' })),
    col('day', t('date32')),
    col('at_time', t('time64', { unit: 'ns' })),
    col('ref', t('uuid')),
    col('flag', t('boolean'), { default: 'NULL' }),
    col('tiny', t('uint8')),
    col('payload', t('binary')),
    col('tags', t('list', {}, [['item', t('utf8'), true]])),
    col(
      'attributes',
      t('map', {}, [
        ['key', t('utf8'), false],
        ['value', t('int64'), true],
      ]),
    ),
    col(
      'ship to',
      t('struct', {}, [
        ['field:street', t('utf8'), false],
        ['field:lines', t('list', {}, [['item', t('int32'), false]]), true],
      ]),
    ),
    col('choice', t('union', { mode: 'dense' }, [['field:a', t('int32')]])),
    col('geom', null, { source_type: 'geometry' }),
  ],
  { name: 'orders', comment: 'Orders placed', primary_key: { name: 'pk', columns: ['id'] } },
);

const EXPECTED = `message orders {
  required int64 id;
  optional binary name (STRING);
  required int64 amount (DECIMAL(12,2));
  optional fixed_len_byte_array(13) big (DECIMAL(30,4));
  optional int32 small (DECIMAL(5,1));
  required int64 placed_at (TIMESTAMP(MICROS,true));
  optional int64 local_at (TIMESTAMP(MILLIS,false));
  optional int32 day (DATE);
  optional int64 at_time (TIME(NANOS,false));
  optional fixed_len_byte_array(16) ref (UUID);
  optional boolean flag;
  optional int32 tiny (INTEGER(8,false));
  optional binary payload;
  optional group tags (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
  optional group attributes (MAP) {
    repeated group key_value {
      required binary key (STRING);
      optional int64 value;
    }
  }
  optional group ship_to {
    required binary street (STRING);
    optional group lines (LIST) {
      repeated group list {
        required int32 element;
      }
    }
  }
}
`;

describe('renderParquet', () => {
  const omissions = new Omissions();
  const text = renderParquet(orders, omissions);

  it('writes the message type with 3-level LIST and MAP groups and logical types', () => {
    expect(text).toBe(EXPECTED);
  });

  it('is a schema a Parquet file can be written with and read back', async () => {
    const schema = parseMessageType(text);
    expect(schema[0]).toEqual({ name: 'orders', num_children: 16 });
    const rows = [
      {
        id: 1n,
        amount: 1234n,
        placed_at: 1_700_000_000_000_000n,
        tags: ['a', null],
        ship_to: { street: 'Main', lines: [1, 2] },
      },
      { id: 2n, amount: -5n, placed_at: 0n, attributes: { x: 1n }, ship_to: null },
    ];
    const columnData = schema
      .slice(1)
      .filter((_, index) => isTopLevel(schema, index + 1))
      .map((element) => ({
        name: element.name,
        data: rows.map((row) => (row as Record<string, unknown>)[element.name] ?? null),
      }));
    const buffer = parquetWriteBuffer({ columnData, schema: schema as WriterSchema });
    const metadata = parquetMetadata(buffer);
    expect(metadata.schema).toEqual(schema.map((element) => expect.objectContaining(element)));
    expect(parquetSchema(metadata).children.map((child) => child.element.name)).toEqual(
      orders.columns
        .filter((c) => c.type !== null && c.name !== 'choice')
        .map((c) => c.name.replace(' ', '_')),
    );
    const read = await parquetReadObjects({
      file: buffer,
      columns: ['id', 'amount', 'tags', 'attributes', 'ship_to'],
    });
    expect(read).toEqual([
      {
        id: 1n,
        amount: 12.34,
        tags: ['a', null],
        attributes: null,
        ship_to: { street: 'Main', lines: [1, 2] },
      },
      { id: 2n, amount: -0.05, tags: null, attributes: { x: 1n }, ship_to: null },
    ]);
  });

  it('rejects what is not the notation', () => {
    expect(() => parseMessageType('message m { required int64 a }')).toThrow();
    expect(() => parseMessageType('message m { optional int32 a (DECIMAL(12,2)); }')).toThrow();
    expect(() => parseMessageType('message m { optional group g { } }')).toThrow();
  });

  it('reports what a Parquet schema cannot carry', () => {
    expect(omissions.items).toEqual([
      { kind: 'comment', path: 'id', reason: expect.any(String) },
      { kind: 'default', path: 'placed_at', reason: expect.stringContaining('now()') },
      { kind: 'column', path: 'ship to', reason: expect.stringContaining('named ship_to') },
      { kind: 'column', path: 'choice', reason: expect.stringContaining('no union') },
      { kind: 'column', path: 'geom', reason: expect.stringContaining('geometry has no cast') },
      { kind: 'comment', path: 'orders', reason: expect.any(String) },
      { kind: 'primary_key', path: 'pk', reason: expect.any(String) },
    ]);
  });

  it('is deterministic', () => {
    expect(renderParquet(orders, new Omissions())).toBe(text);
  });

  it('writes every storage_files scalar the notation accepts', () => {
    const found = new Omissions();
    const scalars = [
      t('null'),
      t('int8'),
      t('int16'),
      t('uint16'),
      t('uint32'),
      t('uint64'),
      t('float16'),
      t('float32'),
      t('float64'),
      t('date64'),
      t('time32', { unit: 's' }),
      t('timestamp', { unit: 'ns', timezone: 'Europe/Paris' }),
      t('duration', { unit: 'us' }),
      t('interval', { unit: 'month_day_nano' }),
      t('large_utf8'),
      t('large_binary'),
      t('fixed_size_binary', { byte_width: 4 }),
      t('json'),
      t('geometry', { crs: 'OGC:CRS84' }),
      t('geography'),
      t('variant'),
      t('fixed_size_list', { list_size: 3 }, [['item', t('float32'), false]]),
      t('large_list', {}, [['item', t('int64'), false]]),
      t('decimal', { precision: 38, scale: 0 }),
    ];
    const out = renderParquet(table(scalars.map((type, index) => col(`c${index}`, type))), found);
    const schema = parseMessageType(out);
    expect(schema.find((element) => element.name === 'c11')!.logical_type).toEqual({
      type: 'TIMESTAMP',
      isAdjustedToUTC: true,
      unit: 'NANOS',
    });
    expect(schema.find((element) => element.name === 'c23')).toMatchObject({
      type: 'FIXED_LEN_BYTE_ARRAY',
      type_length: 16,
    });
    expect(found.items.map((item) => [item.kind, item.path])).toEqual([
      ['column', 'c11'],
      ['column', 'c12'],
      ['column', 'c13'],
      ['check', 'c21'],
    ]);
  });
});

/** Whether the element at index is a direct child of the root. */
function isTopLevel(schema: { num_children?: number }[], index: number): boolean {
  let position = 1;
  while (position < schema.length) {
    if (position === index) return true;
    position = skip(schema, position);
  }
  return false;
}

function skip(schema: { num_children?: number }[], position: number): number {
  let next = position + 1;
  for (let child = 0; child < (schema[position].num_children ?? 0); child += 1) next = skip(schema, next);
  return next;
}
