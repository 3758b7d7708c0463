import { describe, expect, it } from '@jest/globals';
import protobuf from 'protobufjs';
import { Omissions } from '../translated-table.js';
import { renderProtobuf } from './protobuf.js';
import { col, t, table } from './spec-helpers.js';

const address = t('message', { name: 'Address' }, [
  ['field:street', t('string'), false],
  ['field:zipCode', t('string'), true],
]);

const orders = table(
  [
    col('id', t('int64'), { nullable: false, comment: 'The order id' }),
    col('amount', t('double'), { nullable: false, default: '0' }),
    col('placedAt', t('timestamp'), { nullable: false }),
    col('note', t('string'), { default: 'NULL' }),
    col('Ship To', address),
    col('tags', t('repeated', {}, [['item', t('string'), false]]), { nullable: false }),
    col(
      'counts',
      t('map', {}, [
        ['key', t('string'), false],
        ['value', t('int64'), false],
      ]),
      { nullable: false },
    ),
    col(
      'by_price',
      t('map', {}, [
        ['key', t('double'), false],
        ['value', t('string'), false],
      ]),
      { nullable: false },
    ),
    col('matrix', t('repeated', {}, [['item', t('repeated', {}, [['item', t('int32'), false]]), false]]), {
      nullable: false,
    }),
    col(
      'either',
      t('oneof', { name: 'choice' }, [
        ['field:text', t('string'), false],
        ['field:number', t('int64'), false],
      ]),
    ),
    col('status', t('enum', { name: 'Status' }), { nullable: false }),
    col('born', t('date')),
    col('rating', t('int32_value')),
    col('geom', null, { source_type: 'geometry' }),
  ],
  {
    name: 'order_lines',
    namespace: 'shop-eu.v1',
    comment: 'Order lines',
    primary_key: { name: null, columns: ['id'] },
  },
);

/** A root with the well-known types protobufjs ships, google.type.Date declared by hand (not bundled). */
function parse(text: string): protobuf.Root {
  const root = new protobuf.Root();
  for (const file of ['google/protobuf/timestamp.proto', 'google/protobuf/wrappers.proto']) {
    root.addJSON(protobuf.common.get(file)!.nested!);
  }
  protobuf.parse(
    'syntax = "proto3"; package google.type; message Date { int32 year = 1; int32 month = 2; int32 day = 3; }',
    root,
  );
  protobuf.parse(text, root, { keepCase: true });
  root.resolveAll();
  return root;
}

describe('renderProtobuf', () => {
  const omissions = new Omissions();
  const text = renderProtobuf(orders, omissions);

  it('is a proto3 file protobufjs parses and resolves', () => {
    expect(text.startsWith('syntax = "proto3";\n\npackage shop_eu.v1;\n\n')).toBe(true);
    const parsed = protobuf.parse(text, { keepCase: true });
    expect(parsed.package).toBe('shop_eu.v1');
    expect(parsed.imports).toEqual([
      'google/protobuf/timestamp.proto',
      'google/protobuf/wrappers.proto',
      'google/type/date.proto',
    ]);
    expect(() => parse(text)).not.toThrow();
  });

  it('writes one message, fields snake_case numbered in column order', () => {
    const message = parse(text).lookupType('shop_eu.v1.OrderLines');
    const fields = message.fieldsArray.map((field) => [field.name, field.id, field.type, field.rule ?? null]);
    expect(fields).toEqual([
      ['id', 1, 'int64', null],
      ['amount', 2, 'double', null],
      ['placed_at', 3, 'google.protobuf.Timestamp', null],
      ['note', 4, 'string', null],
      ['ship_to', 5, 'Address', null],
      ['tags', 6, 'string', 'repeated'],
      ['counts', 7, 'int64', null],
      ['by_price', 8, 'ByPriceEntry', 'repeated'],
      ['matrix', 9, 'MatrixItem', 'repeated'],
      ['either', 10, 'Either', null],
      ['status', 11, 'string', null],
      ['born', 12, 'google.type.Date', null],
      ['rating', 13, 'google.protobuf.Int32Value', null],
    ]);
    expect(message.fields.note.options?.proto3_optional).toBe(true);
    expect(message.fields.id.options?.proto3_optional).toBeUndefined();
    expect((message.fields.counts as unknown as protobuf.MapField).keyType).toBe('string');
    expect(message.lookupType('Address').fieldsArray.map((field) => [field.name, field.id])).toEqual([
      ['street', 1],
      ['zip_code', 2],
    ]);
    expect(message.lookupType('Either').oneofs.choice.fieldsArray.map((field) => field.name)).toEqual([
      'text',
      'number',
    ]);
    expect(message.lookupType('ByPriceEntry').fieldsArray.map((field) => [field.name, field.type])).toEqual([
      ['key', 'double'],
      ['value', 'string'],
    ]);
  });

  it('round-trips a sample message', () => {
    const message = parse(text).lookupType('shop_eu.v1.OrderLines');
    const sample = {
      id: 7,
      amount: 2.5,
      placed_at: { seconds: 1_700_000_000, nanos: 5 },
      ship_to: { street: 'Main', zip_code: '1000' },
      tags: ['a', 'b'],
      counts: { x: 3 },
      by_price: [{ key: 1.5, value: 'cheap' }],
      matrix: [{ items: [1, 2] }, { items: [3] }],
      either: { number: 4 },
      status: 'NEW',
      born: { year: 2020, month: 1, day: 2 },
      rating: { value: 5 },
    };
    expect(message.verify(sample)).toBeNull();
    const decoded = message.toObject(message.decode(message.encode(message.fromObject(sample)).finish()), {
      longs: Number,
    });
    expect(decoded).toEqual(sample);
  });

  it('carries comments as comments', () => {
    expect(text).toContain('// Order lines\nmessage OrderLines {\n  // The order id\n  int64 id = 1;\n');
  });

  it('reports what proto3 cannot carry', () => {
    expect(omissions.items).toEqual([
      { kind: 'default', path: 'amount', reason: expect.stringContaining('no field defaults') },
      { kind: 'nullability', path: 'placedAt', reason: expect.stringContaining('may always be absent') },
      { kind: 'column', path: 'Ship To', reason: expect.stringContaining('named ship_to') },
      { kind: 'column', path: 'by_price{key}', reason: expect.stringContaining('repeated ByPriceEntry') },
      { kind: 'check', path: 'status', reason: expect.stringContaining('Status') },
      { kind: 'column', path: 'geom', reason: expect.stringContaining('geometry has no cast') },
      { kind: 'primary_key', path: 'id', reason: expect.any(String) },
    ]);
  });

  it('is deterministic', () => {
    expect(renderProtobuf(orders, new Omissions())).toBe(text);
  });
});
