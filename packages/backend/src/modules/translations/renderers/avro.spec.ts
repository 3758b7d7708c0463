import { describe, expect, it } from '@jest/globals';
import avro from 'avsc';
import { Omissions } from '../translated-table.js';
import { renderAvro } from './avro.js';
import { col, t, table } from './spec-helpers.js';

const address = t('record', { name: 'Address' }, [
  ['field:street', t('string'), false],
  ['field:zip', t('string'), true],
]);

const orders = table(
  [
    col('id', t('long'), { nullable: false, comment: 'The order id' }),
    col('amount', t('decimal_bytes', { precision: 12, scale: 2 }), { nullable: false }),
    col('placed_at', t('timestamp_micros'), { nullable: false, default: 'now()' }),
    col('status', t('string'), { nullable: false, default: "'new'::character varying" }),
    col('quantity', t('int'), { default: '1' }),
    col('note', t('string'), { default: 'NULL' }),
    col('ship to', address),
    col('bill_to', t('record', { name: 'Address' }, [['field:street', t('string'), false]])),
    col('tags', t('array', {}, [['element', t('string'), false]])),
    col('attributes', t('map', {}, [['value', t('long'), true]])),
    col('kind', t('enum', { name: 'Kind', symbols: '"WEB","STORE"', default: 'WEB' }), { nullable: false }),
    col('ref', t('uuid')),
    col('born', t('date'), { default: "'2020-01-02'" }),
    col('geom', null, { source_type: 'geometry' }),
    col('Active', t('boolean'), { nullable: false, default: 'TRUE' }),
  ],
  {
    name: 'orders',
    namespace: 'shop-eu.public',
    comment: 'Orders placed',
    primary_key: { name: 'orders_pkey', columns: ['id'] },
    foreign_keys: [
      { name: 'fk_c', columns: ['id'], referenced: { schema: null, table: 'c', columns: ['id'] } },
    ],
  },
);

describe('renderAvro', () => {
  const omissions = new Omissions();
  const text = renderAvro(orders, omissions);
  const schema = JSON.parse(text) as {
    name: string;
    namespace: string;
    doc: string;
    fields: Record<string, unknown>[];
  };

  it('is a schema avsc parses, defaults included', () => {
    expect(() => avro.Type.forSchema(schema as avro.Schema)).not.toThrow();
  });

  it('names the record after the table, in an Avro namespace, with fields in column order', () => {
    expect(schema.name).toBe('orders');
    expect(schema.namespace).toBe('shop_eu.public');
    expect(schema.doc).toBe('Orders placed');
    expect(schema.fields.map((field) => field.name)).toEqual([
      'id',
      'amount',
      'placed_at',
      'status',
      'quantity',
      'note',
      'ship_to',
      'bill_to',
      'tags',
      'attributes',
      'kind',
      'ref',
      'born',
      'Active',
    ]);
  });

  it('writes NOT NULL columns as the type, nullable ones as a union with null and default null', () => {
    const byName = Object.fromEntries(schema.fields.map((field) => [field.name, field]));
    expect(byName.id).toEqual({ name: 'id', doc: 'The order id', type: 'long' });
    expect(byName.amount!.type).toEqual({ type: 'bytes', logicalType: 'decimal', precision: 12, scale: 2 });
    expect(byName.note).toEqual({ name: 'note', type: ['null', 'string'], default: null });
    // A non-null default comes first in the union, as Avro requires.
    expect(byName.quantity).toEqual({ name: 'quantity', type: ['int', 'null'], default: 1 });
    expect(byName.status).toEqual({ name: 'status', type: 'string', default: 'new' });
    expect(byName.born).toEqual({
      name: 'born',
      type: [{ type: 'int', logicalType: 'date' }, 'null'],
      default: 18263,
    });
    expect(byName.Active).toEqual({ name: 'Active', type: 'boolean', default: true });
    expect(byName.kind!.type).toEqual({
      type: 'enum',
      name: 'Kind',
      symbols: ['WEB', 'STORE'],
      default: 'WEB',
    });
  });

  it('gives nested records unique full names', () => {
    const byName = Object.fromEntries(schema.fields.map((field) => [field.name, field]));
    const [, shipTo] = byName.ship_to!.type as [string, { name: string; fields: unknown[] }];
    const [, billTo] = byName.bill_to!.type as [string, { name: string }];
    expect(shipTo.name).toBe('Address');
    expect(billTo.name).toBe('Address_2');
    expect(shipTo.fields).toEqual([
      { name: 'street', type: 'string' },
      { name: 'zip', type: ['null', 'string'], default: null },
    ]);
  });

  it('round-trips a sample record', () => {
    const type = avro.Type.forSchema(schema as avro.Schema, { wrapUnions: true });
    const record = {
      id: 42,
      amount: Buffer.from([0x04, 0xd2]),
      placed_at: 1_700_000_000_000_000,
      status: 'new',
      quantity: { int: 3 },
      note: null,
      ship_to: { 'shop_eu.public.Address': { street: 'Main', zip: null } },
      bill_to: null,
      tags: { array: ['a', 'b'] },
      attributes: { map: { x: { long: 1 }, y: null } },
      kind: 'STORE',
      ref: { string: '0f8fad5b-d9cb-466f-a0d1-4b1c5b8a0f2c' },
      born: null,
      Active: false,
    };
    const decoded = type.fromBuffer(type.toBuffer(record));
    expect(type.isValid(record)).toBe(true);
    expect(type.toString(decoded)).toBe(type.toString(record));
    expect(type.isValid({ ...record, id: null })).toBe(false);
  });

  it('reports what Avro cannot carry, and only that', () => {
    expect(omissions.items).toEqual([
      { kind: 'default', path: 'placed_at', reason: expect.stringContaining('now()') },
      { kind: 'column', path: 'ship to', reason: expect.stringContaining('named ship_to') },
      { kind: 'column', path: 'geom', reason: expect.stringContaining('geometry has no cast') },
      { kind: 'primary_key', path: 'orders_pkey', reason: expect.any(String) },
      { kind: 'foreign_key', path: 'fk_c', reason: expect.any(String) },
    ]);
  });

  it('is deterministic', () => {
    expect(renderAvro(orders, new Omissions())).toBe(text);
  });

  it('turns invalid enum symbols into a string and reports the lost values', () => {
    const found = new Omissions();
    const out = JSON.parse(
      renderAvro(
        table([col('e', t('enum', { name: 'E', symbols: '"a b","c"' }), { nullable: false })]),
        found,
      ),
    ) as { fields: { type: unknown }[] };
    expect(out.fields[0].type).toBe('string');
    expect(found.items.map((item) => item.kind)).toEqual(['check']);
  });

  it('writes unions, fixed and logical types avsc accepts', () => {
    const found = new Omissions();
    const out = renderAvro(
      table([
        col(
          'u',
          t('union', {}, [
            ['field:s', t('string')],
            ['field:l', t('long')],
          ]),
        ),
        col('f', t('fixed', { name: 'Hash', size: 32 }), { nullable: false }),
        col('d', t('decimal_fixed', { name: 'Money', size: 8, precision: 18, scale: 4 }), {
          nullable: false,
        }),
        col('dur', t('duration', { name: 'Span' })),
        col('ts', t('local_timestamp_nanos'), { nullable: false, default: '0' }),
        col('n', t('mystery')),
      ]),
      found,
    );
    const type = avro.Type.forSchema(JSON.parse(out) as avro.Schema, { wrapUnions: true });
    const fields = (JSON.parse(out) as { fields: { name: string; type: unknown }[] }).fields;
    expect(fields.find((field) => field.name === 'u')!.type).toEqual(['null', 'string', 'long']);
    expect(fields.find((field) => field.name === 'ts')).toEqual({
      name: 'ts',
      type: { type: 'long', logicalType: 'local-timestamp-nanos' },
      default: 0,
    });
    expect(type.isValid({ u: { long: 1 }, f: Buffer.alloc(32), d: Buffer.alloc(8), dur: null, ts: 5 })).toBe(
      true,
    );
    expect(found.items).toEqual([{ kind: 'column', path: 'n', reason: expect.stringContaining('mystery') }]);
  });
});
