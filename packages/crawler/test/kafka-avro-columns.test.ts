// Avro schemas → columns in the `avro` flavor: every primitive, complex and logical type of Avro 1.12,
// checked against packages/backend/seeds/avro.yaml (codes, params, slots).
import { describe, expect, test } from '@jest/globals';
import { avroColumns } from '../src/sources/kafka/avro-columns.js';
import type { SchemaDocument } from '../src/sources/kafka/schema-columns.js';
import { codesOf, KafkaFlavor } from './helpers/kafka-flavors.js';

const avro = new KafkaFlavor('avro');
const doc = (schema: unknown, references: { name: string; schema: unknown }[] = []): SchemaDocument => ({
  format: 'avro',
  path: 'test.avsc',
  text: JSON.stringify(schema),
  references: references.map((r) => ({
    name: r.name,
    path: `${r.name}.avsc`,
    text: JSON.stringify(r.schema),
  })),
});
const record = (fields: unknown[]) => ({ type: 'record', name: 'R', namespace: 'ns', fields });
const field = (type: unknown, extra: Record<string, unknown> = {}) => ({ name: 'f', type, ...extra });
const only = (type: unknown, extra: Record<string, unknown> = {}) => {
  const mapped = avroColumns(doc(record([field(type, extra)])), 'value');
  expect(mapped.problems).toEqual([]);
  expect(mapped.columns).toHaveLength(1);
  const column = mapped.columns[0];
  expect(column.type).not.toBeNull();
  expect(avro.problems(column.type!)).toEqual([]);
  return column;
};

describe('Avro logical types', () => {
  test.each([
    [{ type: 'int', logicalType: 'date' }, 'date'],
    [{ type: 'int', logicalType: 'time-millis' }, 'time_millis'],
    [{ type: 'long', logicalType: 'time-micros' }, 'time_micros'],
    [{ type: 'long', logicalType: 'timestamp-millis' }, 'timestamp_millis'],
    [{ type: 'long', logicalType: 'timestamp-micros' }, 'timestamp_micros'],
    [{ type: 'long', logicalType: 'timestamp-nanos' }, 'timestamp_nanos'],
    [{ type: 'long', logicalType: 'local-timestamp-millis' }, 'local_timestamp_millis'],
    [{ type: 'long', logicalType: 'local-timestamp-micros' }, 'local_timestamp_micros'],
    [{ type: 'long', logicalType: 'local-timestamp-nanos' }, 'local_timestamp_nanos'],
    [{ type: 'string', logicalType: 'uuid' }, 'uuid'],
    [{ type: 'bytes', logicalType: 'big-decimal' }, 'big_decimal'],
  ])('%j is %s', (type, code) => {
    const column = only(type);
    expect(column.type).toEqual({ data_type: code });
    expect(column.native_type).toBe(`${type.type} (${type.logicalType})`);
  });

  test('decimal on bytes and on fixed keep precision and scale; a fixed uuid and duration keep their name', () => {
    expect(only({ type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 }).type).toEqual({
      data_type: 'decimal_bytes',
      params: { precision: 10, scale: 2 },
    });
    expect(only({ type: 'bytes', logicalType: 'decimal', precision: 7 }).type).toEqual({
      data_type: 'decimal_bytes',
      params: { precision: 7 },
    });
    const fixed = only({
      type: 'fixed',
      name: 'Amount',
      size: 16,
      logicalType: 'decimal',
      precision: 30,
      scale: 4,
    });
    expect(fixed.type).toEqual({
      data_type: 'decimal_fixed',
      params: { name: 'Amount', size: 16, precision: 30, scale: 4 },
    });
    expect(fixed.native_type).toBe('ns.Amount (decimal(30,4))');
    expect(only({ type: 'fixed', name: 'Id', size: 16, logicalType: 'uuid' }).type).toEqual({
      data_type: 'uuid_fixed',
      params: { name: 'Id' },
    });
    expect(only({ type: 'fixed', name: 'D', size: 12, logicalType: 'duration' }).type).toEqual({
      data_type: 'duration',
      params: { name: 'D' },
    });
  });

  test('a logical type on the wrong type, or an invalid decimal, is read as its base type (as Avro readers do)', () => {
    expect(only({ type: 'long', logicalType: 'date' }).type).toEqual({ data_type: 'long' });
    expect(only({ type: 'string', logicalType: 'unknown-thing' }).type).toEqual({ data_type: 'string' });
    expect(only({ type: 'bytes', logicalType: 'decimal', precision: 2, scale: 5 }).type).toEqual({
      data_type: 'bytes',
    });
    expect(only({ type: 'fixed', name: 'X', size: 8, logicalType: 'uuid' }).type).toEqual({
      data_type: 'fixed',
      params: { name: 'X', avro_namespace: 'ns', size: 8 },
    });
  });
});

describe('Avro complex types and fields', () => {
  test('every primitive has its own code', () => {
    for (const primitive of ['boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']) {
      expect(only(primitive).type).toEqual({ data_type: primitive });
    }
  });

  test('a union with null is the other branch, nullable; defaults are JSON text; docs are comments', () => {
    const column = only(['null', 'string'], { default: null, doc: 'A note' });
    expect(column).toMatchObject({
      type: { data_type: 'string' },
      nullable: true,
      default: 'null',
      comment: 'A note',
    });
    expect(column.native_type).toBe('union<null, string>');
    expect(only('int', { default: 42 })).toMatchObject({ nullable: false, default: '42' });
    expect(only({ type: 'map', values: 'long' }, { default: { a: 1 } }).default).toBe('{"a":1}');
    expect(only('string').default).toBeNull();
  });

  test('a wider union keeps its branches by type name', () => {
    expect(only(['null', 'long', 'string', { type: 'array', items: 'int' }]).type).toEqual({
      data_type: 'union',
      children: [
        { slot: 'field:long', type: { data_type: 'long' } },
        { slot: 'field:string', type: { data_type: 'string' } },
        {
          slot: 'field:array',
          type: { data_type: 'array', children: [{ slot: 'element', type: { data_type: 'int' } }] },
        },
      ],
    });
  });

  test('nested records, arrays, maps, enums and fixed; a named type used again by name', () => {
    const inner = {
      type: 'record',
      name: 'Inner',
      doc: 'x',
      fields: [
        { name: 'a', type: 'int' },
        { name: 'b', type: ['null', 'string'] },
      ],
    };
    const mapped = avroColumns(
      doc(
        record([
          { name: 'first', type: inner },
          { name: 'again', type: 'Inner' },
          { name: 'list', type: { type: 'array', items: 'ns.Inner' } },
          {
            name: 'by_key',
            type: {
              type: 'map',
              values: { type: 'enum', name: 'E', namespace: 'other', symbols: ['A', 'B'], default: 'A' },
            },
          },
          { name: 'hash', type: { type: 'fixed', name: 'H', size: 4 } },
        ]),
      ),
      'value',
    );
    expect(mapped.problems).toEqual([]);
    const innerType = {
      data_type: 'record',
      params: { name: 'Inner', avro_namespace: 'ns' },
      children: [
        { slot: 'field:a', type: { data_type: 'int' } },
        { slot: 'field:b', type: { data_type: 'string' } },
      ],
    };
    expect(mapped.columns.map((c) => [c.ordinal, c.name, c.type])).toEqual([
      [1, 'first', innerType],
      [2, 'again', innerType],
      [3, 'list', { data_type: 'array', children: [{ slot: 'element', type: innerType }] }],
      [
        4,
        'by_key',
        {
          data_type: 'map',
          children: [
            {
              slot: 'value',
              type: {
                data_type: 'enum',
                params: { name: 'E', avro_namespace: 'other', symbols: '"A","B"', default: 'A' },
              },
            },
          ],
        },
      ],
      [5, 'hash', { data_type: 'fixed', params: { name: 'H', avro_namespace: 'ns', size: 4 } }],
    ]);
    for (const column of mapped.columns) expect(avro.problems(column.type!)).toEqual([]);
    expect(mapped.record_name).toBe('ns.R');
  });

  test('a recursive record is listed once and reported, not expanded forever', () => {
    const mapped = avroColumns(
      doc({
        type: 'record',
        name: 'Node',
        fields: [
          { name: 'value', type: 'int' },
          { name: 'next', type: ['null', 'Node'], default: null },
        ],
      }),
      'value',
    );
    expect(mapped.columns[1].type).toEqual({ data_type: 'record', params: { name: 'Node' } });
    expect(mapped.problems).toEqual([
      { path: 'test.avsc: next', reason: expect.stringContaining('recursive reference to record Node') },
    ]);
  });

  test('named types of referenced schemas resolve, in whatever order the references come', () => {
    const address = {
      type: 'record',
      name: 'Address',
      namespace: 'common',
      fields: [{ name: 'country', type: 'common.Country' }],
    };
    const country = { type: 'enum', name: 'Country', namespace: 'common', symbols: ['FR'] };
    const mapped = avroColumns(
      doc(record([field('common.Address')]), [
        { name: 'a', schema: address },
        { name: 'c', schema: country },
      ]),
      'value',
    );
    expect(mapped.problems).toEqual([]);
    expect(codesOf(mapped.columns[0].type!)).toEqual(['record', 'enum']);
  });

  test('a schema that is not a record is one column named after its role', () => {
    const mapped = avroColumns(doc('string'), 'key');
    expect(mapped.columns.map((c) => [c.name, c.type])).toEqual([['key', { data_type: 'string' }]]);
  });

  test('what Avro refuses is one problem, never a crash', () => {
    expect(avroColumns({ ...doc({}), text: '{ nope' }, 'value').problems[0].reason).toMatch(
      /^not a valid Avro schema/,
    );
    expect(avroColumns(doc(record([field('Missing')])), 'value').problems[0].reason).toMatch(
      /undefined type name: ns\.Missing/,
    );
    expect(avroColumns(doc(record([field('int', { default: 'text' })])), 'value').problems[0].reason).toMatch(
      /invalid/i,
    );
    expect(avroColumns(doc({ type: 'record', fields: [] }), 'value').columns).toEqual([]);
  });
});
