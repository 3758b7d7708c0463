// Driver `schema_registry` against test/helpers/schema-registry-contract-server.ts.
//
// PLAINLY: there is no real Confluent Schema Registry on these machines (issue 24). These tests run
// against our own implementation of its documented REST contract (GET /subjects with offset/limit,
// GET /subjects/{subject}/versions/{version|latest}, error bodies {error_code, message} such as 40401,
// basic auth), served over real HTTP on a loopback port. They prove the crawler keeps to the
// documented contract, not that a given registry release behaves so.
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InspectionFilters } from '../src/model.js';
import { schemaRegistryDriver } from '../src/sources/kafka/index.js';
import { inspectionProblems, NO_FILTERS } from './helpers/kafka-flavors.js';
import { SchemaRegistryContractServer } from './helpers/schema-registry-contract-server.js';

const filters = NO_FILTERS;
const PASSWORD = 's3cr3t-P@ss/word';
const credentials = `reader:${encodeURIComponent(PASSWORD)}@`;
const inspect = (url: string, more: Partial<InspectionFilters> = {}) =>
  schemaRegistryDriver.inspect(schemaRegistryDriver.parse(url), { filters: { ...filters, ...more } });
const json = (value: unknown) => JSON.stringify(value);

const registry = new SchemaRegistryContractServer({
  credentials: { user: 'reader', password: PASSWORD },
  prefix: '/registry',
});
let base = '';

beforeAll(async () => {
  base = `${await registry.start()}/registry`;
  const country = { type: 'enum', name: 'Country', namespace: 'com.acme.common', symbols: ['FR', 'DE'] };
  const address = {
    type: 'record',
    name: 'Address',
    namespace: 'com.acme.common',
    fields: [
      { name: 'city', type: 'string' },
      { name: 'country', type: 'com.acme.common.Country' },
    ],
  };
  registry.register('com.acme.common.Country', { schema: json(country) });
  registry.register('com.acme.common.Address', {
    schema: json(address),
    references: [{ name: 'com.acme.common.Country', subject: 'com.acme.common.Country', version: 1 }],
  });
  const order = (fields: unknown[]) =>
    json({
      type: 'record',
      name: 'Order',
      namespace: 'com.acme',
      fields: [{ name: 'id', type: 'string' }, ...fields],
    });
  registry.register('orders-value', { schema: order([]) });
  registry.register('orders-value', {
    schema: order([
      { name: 'ship_to', type: 'com.acme.common.Address' },
      { name: 'at', type: { type: 'long', logicalType: 'timestamp-micros' } },
    ]),
    references: [{ name: 'com.acme.common.Address', subject: 'com.acme.common.Address', version: 1 }],
  });
  registry.register('orders-key', { schema: '"string"' });
  registry.register('address.json', {
    schemaType: 'JSON',
    schema: json({ type: 'object', properties: { city: { type: 'string' } } }),
  });
  registry.register('customers-value', {
    schemaType: 'JSON',
    schema: json({
      type: 'object',
      properties: { id: { type: 'integer' }, home: { $ref: 'address.json' } },
      required: ['id'],
    }),
    references: [{ name: 'address.json', subject: 'address.json', version: 1 }],
  });
  registry.register('money.proto', {
    schemaType: 'PROTOBUF',
    schema: 'syntax = "proto3";\npackage money;\nmessage Money { string currency = 1; int64 units = 2; }',
  });
  registry.register('payments-value', {
    schemaType: 'PROTOBUF',
    schema:
      'syntax = "proto3";\npackage pay;\nimport "money.proto";\nimport "google/protobuf/timestamp.proto";\nmessage Payment { money.Money amount = 1; google.protobuf.Timestamp at = 2; }',
    references: [{ name: 'money.proto', subject: 'money.proto', version: 1 }],
  });
  registry.register('events-com.acme.OrderCreated', {
    schema: json({
      type: 'record',
      name: 'OrderCreated',
      namespace: 'com.acme',
      fields: [{ name: 'id', type: 'string' }],
    }),
  });
});

afterAll(async () => {
  await registry.stop();
});

afterEach(() => {
  delete process.env['AIDE_CRAWLER_SCHEMA_REGISTRY_USER'];
  delete process.env['AIDE_CRAWLER_SCHEMA_REGISTRY_PASSWORD'];
});

describe('schema-registry+http://', () => {
  test('every subject read at its latest version, references resolved recursively, every field typed', async () => {
    const db = await inspect(`schema-registry+http://${credentials}${base}`);
    expect(db.problems).toEqual([]);
    expect(inspectionProblems(db)).toEqual([]);
    expect(db).toMatchObject({
      dialect: 'schema_registry',
      flavor: 'avro',
      server: { product: 'Schema Registry' },
      unmapped_types: [],
    });
    expect(db.database).toBe(`schema-registry+http://reader:***@${base}`);
    const placed = Object.fromEntries(db.tables.map((t) => [t.name, t.placement]));
    expect(placed['orders']).toEqual({
      kind: 'kafka',
      object_name: 'orders',
      flavor: 'avro',
      attributes: { topic: 'orders', format: 'avro', key_columns: ['key'] },
    });
    expect(placed['customers']).toEqual({
      kind: 'kafka',
      object_name: 'customers',
      attributes: { topic: 'customers', format: 'json', key_columns: [] },
      flavor: 'json_schema',
    });
    expect(placed['payments']).toMatchObject({
      object_name: 'payments',
      attributes: { format: 'protobuf' },
      flavor: 'protobuf',
    });
    // TopicRecordNameStrategy: a dataset per subject on its topic; RecordNameStrategy: named after the record.
    expect(placed['events-com.acme.OrderCreated']).toMatchObject({
      object_name: 'events-com.acme.OrderCreated',
      attributes: { topic: 'events' },
    });
    expect(placed['com.acme.common.Address']).toMatchObject({
      attributes: { topic: 'com.acme.common.Address', format: 'avro' },
    });

    const orders = db.tables.find((t) => t.name === 'orders')!;
    expect(orders.columns.map((c) => [c.name, c.type?.data_type])).toEqual([
      ['id', 'string'],
      ['ship_to', 'record'],
      ['at', 'timestamp_micros'],
    ]);
    expect(orders.columns[1].type?.children?.[1].type).toEqual({
      data_type: 'enum',
      params: { name: 'Country', avro_namespace: 'com.acme.common', symbols: '"FR","DE"' },
    });
    const payments = db.tables.find((t) => t.name === 'payments')!;
    expect(payments.columns.map((c) => c.type?.data_type)).toEqual(['message', 'timestamp']);
    const customers = db.tables.find((t) => t.name === 'customers')!;
    expect(customers.columns[1].type).toEqual({
      data_type: 'object',
      children: [{ slot: 'field:city', type: { data_type: 'string' } }],
    });
    expect(json(db)).not.toContain(PASSWORD);
    expect(
      registry.requests.some((r) => r.url.startsWith('/registry/subjects/orders-value/versions/latest')),
    ).toBe(true);
    expect(
      registry.requests.some((r) => r.url === '/registry/subjects/com.acme.common.Country/versions/1'),
    ).toBe(true);
  });

  test('credentials from AIDE_CRAWLER_SCHEMA_REGISTRY_USER / _PASSWORD when the URL has none', async () => {
    process.env['AIDE_CRAWLER_SCHEMA_REGISTRY_USER'] = 'reader';
    process.env['AIDE_CRAWLER_SCHEMA_REGISTRY_PASSWORD'] = PASSWORD;
    const target = schemaRegistryDriver.parse(`schema-registry+http://${base}`);
    expect(target.redacted).toBe(`schema-registry+http://${base}`);
    expect(target.secrets).toContain(PASSWORD);
    const db = await schemaRegistryDriver.inspect(target, { filters: { ...filters, tables: ['orders'] } });
    expect(db.tables.map((t) => t.name)).toEqual(['orders']);
  });

  test('401: a clear message that never shows the password', async () => {
    const wrong = inspect(`schema-registry+http://reader:not-${encodeURIComponent(PASSWORD)}@${base}`);
    await expect(wrong).rejects.toThrow(
      `Schema Registry at schema-registry+http://reader:***@${base} refused the request (401 Unauthorized): check the user and password`,
    );
    await wrong.catch((error: Error) =>
      expect(`${error.message} ${String(error.cause)}`).not.toContain(PASSWORD),
    );
    await expect(inspect(`schema-registry+http://${base}`)).rejects.toThrow(
      /no credentials were given: put user:password in the URL or set AIDE_CRAWLER_SCHEMA_REGISTRY_USER/,
    );
  });

  test('a subject deleted while the crawl runs (40401) or a missing reference (40402): a problem; the others are read', async () => {
    const server = new SchemaRegistryContractServer({ afterListing: () => server.delete('gone-value') });
    const host = await server.start();
    try {
      server.register('good-value', { schema: '"string"' });
      server.register('gone-value', { schema: '"string"' });
      server.register('lib', { schema: json({ type: 'fixed', name: 'F', size: 2 }) });
      server.register('needs-value', {
        schema: json({ type: 'record', name: 'N', fields: [{ name: 'f', type: 'F' }] }),
        references: [{ name: 'F', subject: 'lib', version: 7 }],
      });
      const db = await inspect(`schema-registry+http://${host}`);
      expect(db.problems).toEqual([
        {
          path: 'gone-value',
          reason:
            "not found (deleted while the crawl ran?): HTTP 404 (error 40401): Subject 'gone-value' not found.",
        },
        { path: 'needs-value', reason: "reference 'F' (subject lib version 7) not found" },
      ]);
      expect(db.tables.map((t) => t.name)).toEqual(['good', 'lib']);
    } finally {
      await server.stop();
    }
  });

  test('GET /subjects is paged with offset/limit; a registry that ignores paging is read once', async () => {
    for (const ignorePaging of [false, true]) {
      const server = new SchemaRegistryContractServer({ ignorePaging });
      const host = await server.start();
      try {
        for (let i = 0; i < 2500; i++)
          server.register(`t${String(i).padStart(4, '0')}-value`, { schema: '"int"' });
        const db = await inspect(`schema-registry+http://${host}`, { tables: ['t0000', 't2499'] });
        expect(db.tables.map((t) => t.name)).toEqual(['t0000', 't2499']);
        const listings = server.requests.filter((r) => r.url.startsWith('/subjects?')).map((r) => r.url);
        expect(listings).toEqual(
          ignorePaging
            ? ['/subjects?offset=0&limit=1000', '/subjects?offset=1000&limit=1000']
            : [
                '/subjects?offset=0&limit=1000',
                '/subjects?offset=1000&limit=1000',
                '/subjects?offset=2000&limit=1000',
              ],
        );
      } finally {
        await server.stop();
      }
    }
  });

  test('not a schema registry, unreachable, malformed URLs: one clear line each', async () => {
    const html = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const port = (html.address() as AddressInfo).port;
    try {
      await expect(inspect(`schema-registry+http://127.0.0.1:${port}`)).rejects.toThrow(
        `schema-registry+http://127.0.0.1:${port} is not a Schema Registry: GET /subjects answered HTTP 200: the answer is not JSON`,
      );
    } finally {
      html.closeAllConnections();
      await new Promise((resolve) => html.close(resolve));
    }
    await expect(
      inspect(`schema-registry+http://${credentials}${base.replace('/registry', '/elsewhere')}`),
    ).rejects.toThrow(/is not a Schema Registry: GET \/subjects answered HTTP 404/);
    await expect(inspect(`schema-registry+http://127.0.0.1:${port}`)).rejects.toThrow(
      /cannot be reached: ECONNREFUSED/,
    );
    expect(() => schemaRegistryDriver.parse('schema-registry+ftp://x')).toThrow(
      /must be schema-registry\+http\(s\):\/\//,
    );
    expect(() => schemaRegistryDriver.parse('schema-registry+https://:pw@host')).toThrow(
      /password but no user/,
    );
  });
});
