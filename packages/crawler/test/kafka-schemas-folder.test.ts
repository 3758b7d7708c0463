// Driver `kafka_schemas` on a folder of real schema files (test/fixtures/kafka): Avro with every
// logical type and nested records, JSON Schema with $defs and a $ref to another file, a proto3 file
// importing another and google/protobuf well-known types. Every field typed in its own flavor.
import { describe, expect, test } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import type { InspectionFilters } from '../src/model.js';
import { kafkaSchemasDriver } from '../src/sources/kafka/index.js';
import { inspectionProblems, NO_FILTERS } from './helpers/kafka-flavors.js';

const fixtures = fileURLToPath(new URL('./fixtures/kafka/', import.meta.url));
const filters = NO_FILTERS;
const inspect = (path: string, more: Partial<InspectionFilters> = {}) =>
  kafkaSchemasDriver.inspect(kafkaSchemasDriver.parse(`kafka+file://${fixtures}${path}`), {
    filters: { ...filters, ...more },
  });

describe('kafka+file:// folder of schemas', () => {
  test('one dataset per topic, every field typed in its flavor, nothing unmapped', async () => {
    const db = await inspect('schemas');
    expect(db).toMatchObject({
      dialect: 'kafka_schemas',
      flavor: 'avro',
      server: { product: 'Kafka schemas' },
      problems: [],
      unmapped_types: [],
    });
    expect(db.summary).toMatchObject({
      tables: { table: 4 },
      unmapped_columns: 0,
      columns: 29 + 25 + 40 + 3,
    });
    expect(inspectionProblems(db)).toEqual([]);
    expect(db.tables.map((t) => [t.name, t.placement])).toEqual([
      [
        'customers',
        {
          kind: 'kafka',
          object_name: 'customers',
          attributes: { topic: 'customers', format: 'json', key_columns: [] },
          flavor: 'json_schema',
        },
      ],
      [
        'orders',
        {
          kind: 'kafka',
          object_name: 'orders',
          attributes: { topic: 'orders', format: 'avro', key_columns: ['order_id'] },
          flavor: 'avro',
        },
      ],
      [
        'payments',
        {
          kind: 'kafka',
          object_name: 'payments',
          attributes: { topic: 'payments', format: 'protobuf', key_columns: [] },
          flavor: 'protobuf',
        },
      ],
      [
        'shipments',
        {
          kind: 'kafka',
          object_name: 'shipments',
          attributes: { topic: 'shipments', format: 'avro', key_columns: [] },
          flavor: 'avro',
        },
      ],
    ]);
    for (const table of db.tables) {
      expect(table).toMatchObject({
        schema: '',
        kind: 'table',
        primary_key: null,
        foreign_keys: [],
        indexes: [],
      });
      expect(table.columns.map((c) => c.ordinal)).toEqual(table.columns.map((_, i) => i + 1));
      expect('partitions' in (table.placement?.attributes ?? {})).toBe(false);
    }
  });

  test('Avro: logical types, nested records, defaults and docs', async () => {
    const orders = (await inspect('schemas')).tables.find((t) => t.name === 'orders')!;
    const byName = new Map(orders.columns.map((c) => [c.name, c]));
    expect(orders.comment).toBe('An order as the shop writes it');
    expect(byName.get('order_id')).toMatchObject({
      native_type: 'string (uuid)',
      type: { data_type: 'uuid' },
      comment: "The order's id",
    });
    expect(byName.get('total_fixed')?.type).toEqual({
      data_type: 'decimal_fixed',
      params: { name: 'Amount', size: 16, precision: 30, scale: 4 },
    });
    expect(byName.get('delivery_date')).toMatchObject({
      type: { data_type: 'date' },
      nullable: true,
      default: 'null',
    });
    expect(byName.get('status')).toMatchObject({ default: '"NEW"', nullable: false });
    expect(byName.get('shipping')?.type?.children?.map((c) => c.slot)).toEqual([
      'field:street',
      'field:city',
      'field:geo',
    ]);
  });

  test('named Avro types, .proto imports and JSON $refs resolve from the files of subfolders', async () => {
    const db = await inspect('schemas');
    const shipments = db.tables.find((t) => t.name === 'shipments')!;
    expect(shipments.columns[1].type?.params).toEqual({
      name: 'PostalAddress',
      avro_namespace: 'com.acme.common',
    });
    const payments = db.tables.find((t) => t.name === 'payments')!;
    expect(payments.columns.find((c) => c.name === 'amount')?.type).toMatchObject({
      data_type: 'message',
      params: { name: 'Money', proto_package: 'acme.common' },
    });
    expect(payments.columns.find((c) => c.name === 'paid_at')?.type).toEqual({ data_type: 'timestamp' });
    const customers = db.tables.find((t) => t.name === 'customers')!;
    expect(customers.columns.find((c) => c.name === 'location')?.type?.children?.map((c) => c.slot)).toEqual([
      'field:lat',
      'field:lon',
    ]);
  });

  test('broken files are reported with their path and reason; the others are read', async () => {
    const db = await inspect('broken');
    expect(db.tables.map((t) => t.name)).toEqual(['dangling-ref', 'good']);
    expect(db.problems?.map((p) => [p.path.slice(fixtures.length), p.reason])).toEqual([
      ['broken/bad-types-value.avsc', 'not a valid Avro schema: undefined type name: nosuchtype'],
      ['broken/dangling-ref.json: a', "$ref '#/$defs/nope' does not resolve"],
      ['broken/garbled.proto', expect.stringMatching(/^not a valid .proto file: illegal /)],
      ['broken/missing-import.proto', 'not a valid .proto file: import "missing/thing.proto" not found'],
    ]);
    expect(db.unmapped_types).toEqual([{ native_type: '#/$defs/nope', columns: 1 }]);
  });

  test('--tables filters datasets by topic; a URL naming one file reads only it', async () => {
    expect((await inspect('schemas', { tables: ['ord*'] })).tables.map((t) => t.name)).toEqual(['orders']);
    expect(
      (await inspect('schemas', { exclude_tables: ['orders', 'shipments'] })).tables.map((t) => t.name),
    ).toEqual(['customers', 'payments']);
    const single = await inspect('schemas/payments-value.proto');
    expect(single.tables.map((t) => t.name)).toEqual(['payments']);
    expect(single.flavor).toBe('protobuf');
    expect(single.tables[0].placement?.flavor).toBe('protobuf'); // every placed dataset names its flavor
  });

  test('URL errors are usage errors; a missing folder is a clear runtime error', async () => {
    expect(() => kafkaSchemasDriver.parse('kafka+file:relative/path')).toThrow(
      /kafka\+file:\/\/\/absolute\/path/,
    );
    await expect(inspect('no-such-folder')).rejects.toThrow(
      /^kafka\+file: no file or folder at .*no-such-folder$/,
    );
  });
});
