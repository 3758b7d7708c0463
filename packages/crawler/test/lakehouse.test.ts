// The lakehouse source reads Delta and Iceberg tables from their metadata files only. The tables are
// laid out as their writers lay them out (test/helpers/lakehouse-tables.ts); the reader is given a store
// that records every path it reads, so a data file opened would fail the tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InspectedDatabase, InspectedTable, InspectionFilters } from '../src/model.js';
import { createLakehouseDriver, type FileTransport } from '../src/sources/lakehouse/driver.js';
import { inspectLakehouse } from '../src/sources/lakehouse/inspect-lakehouse.js';
import { ExitCode } from '../src/errors.js';
import { RecordingFsStore } from './helpers/fs-store.js';
import {
  addAction,
  icebergMetadata,
  metaDataAction,
  protocolAction,
  write,
  writeDeltaCheckpoint,
  writeDeltaCommit,
  writeIcebergMetadata,
} from './helpers/lakehouse-tables.js';

const noFilters: InspectionFilters = {
  schemas: [],
  exclude_schemas: [],
  tables: [],
  exclude_tables: [],
  include_partitions: false,
};

const root = mkdtempSync(join(tmpdir(), 'aide-lakehouse-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ordersV0 = [
  {
    name: 'order_id',
    type: 'long',
    nullable: false,
    metadata: {
      'delta.identity.start': 1,
      'delta.identity.step': 1,
      'delta.identity.allowExplicitInsert': false,
    },
  },
  { name: 'amount', type: 'decimal(12,2)', metadata: { comment: 'gross, in EUR' } },
  { name: 'dt', type: 'date' },
];
const ordersV2 = [
  ...ordersV0,
  { name: 'placed_at', type: 'timestamp_ntz', metadata: { CURRENT_DEFAULT: 'current_timestamp()' } },
  { name: 'country', type: 'string', metadata: { __CHAR_VARCHAR_TYPE_STRING: 'char(2)' } },
  {
    name: 'amount_cents',
    type: 'long',
    metadata: { 'delta.generationExpression': 'CAST(amount * 100 AS BIGINT)' },
  },
  {
    name: 'lines',
    type: {
      type: 'array',
      elementType: {
        type: 'struct',
        fields: [
          { name: 'sku', type: 'string', nullable: true, metadata: {} },
          { name: 'qty', type: 'integer', nullable: false, metadata: {} },
        ],
      },
      containsNull: true,
    },
  },
  { name: 'tags', type: { type: 'map', keyType: 'string', valueType: 'short', valueContainsNull: true } },
  { name: 'wait', type: 'interval day to second' },
  { name: 'payload', type: 'variant' },
  { name: 'odd', type: 'geometry(OGC:CRS84)' },
];

let inspection: InspectedDatabase;
let store: RecordingFsStore;
const tableOf = (schema: string, name: string) =>
  inspection.tables.find((t) => t.schema === schema && t.name === name) as InspectedTable;

beforeAll(async () => {
  // Delta, three commits: the newest metaData (version 2) is the schema.
  const orders = join(root, 'sales.db', 'orders');
  writeDeltaCommit(orders, 0, [
    protocolAction,
    metaDataAction(ordersV0, ['dt']),
    addAction('dt=2026-12-01/part-0.parquet'),
  ]);
  writeDeltaCommit(orders, 1, [addAction('dt=2026-12-02/part-0.parquet')]);
  writeDeltaCommit(orders, 2, [
    metaDataAction(
      ordersV2,
      ['dt'],
      { 'delta.constraints.positive_amount': 'amount > 0', 'delta.appendOnly': 'true' },
      'Web orders',
    ),
  ]);

  // Delta whose early commits were cleaned up: its schema is only in the checkpoint.
  const clicks = join(root, 'sales.db', 'clicks');
  const clicksMeta = metaDataAction(
    [
      { name: 'url', type: 'string' },
      { name: 'at', type: 'timestamp' },
    ],
    [],
    { 'delta.logRetentionDuration': 'interval 1 days' },
  );
  writeDeltaCheckpoint(clicks, 10, clicksMeta.metaData);
  writeDeltaCommit(clicks, 11, [addAction('part-1.parquet')]);

  // Iceberg with a version hint naming v2, whose current schema is schema 1 (a column added).
  const events = join(root, 'events');
  const v1 = icebergMetadata('s3://lake/events', {
    currentSchemaId: 0,
    schemas: [{ 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] }],
  });
  const eventFields = [
    { id: 1, name: 'id', required: true, type: 'long', doc: 'event id' },
    { id: 2, name: 'ts', required: true, type: 'timestamptz' },
    { id: 3, name: 'price', required: false, type: 'decimal(9,3)' },
    { id: 4, name: 'hash', required: false, type: 'fixed[16]' },
    { id: 5, name: 'user_id', required: false, type: 'uuid' },
    { id: 6, name: 'kind', required: false, type: 'string', 'write-default': 'click' },
    {
      id: 7,
      name: 'attrs',
      required: false,
      type: {
        type: 'map',
        'key-id': 9,
        key: 'string',
        'value-id': 10,
        value: 'int',
        'value-required': false,
      },
    },
    {
      id: 8,
      name: 'items',
      required: false,
      type: {
        type: 'list',
        'element-id': 11,
        element: { type: 'struct', fields: [{ id: 12, name: 'sku', required: true, type: 'string' }] },
        'element-required': true,
      },
    },
    { id: 13, name: 'precise_ts', required: false, type: 'timestamp_ns' },
  ];
  const v2 = icebergMetadata('s3://lake/events', {
    currentSchemaId: 1,
    schemas: [
      { 'schema-id': 0, fields: [{ id: 1, name: 'id', required: true, type: 'long' }] },
      { 'schema-id': 1, fields: eventFields, 'identifier-field-ids': [1] },
    ],
    partitionFields: [
      { 'source-id': 2, 'field-id': 1000, name: 'ts_day', transform: 'day' },
      { 'source-id': 1, 'field-id': 1001, name: 'id_bucket', transform: 'bucket[16]' },
    ],
    properties: { 'write.format.default': 'parquet', comment: 'click stream' },
  });
  writeIcebergMetadata(events, 'v1.metadata.json', v1);
  writeIcebergMetadata(events, 'v2.metadata.json', v2);
  write(join(events, 'metadata', 'version-hint.text'), '2\n');
  write(join(events, 'data', 'ts_day=2026-12-01', '00000-0-data.parquet'), 'PAR1');

  // Iceberg without a hint, numbered file names, the newest gzipped.
  const audit = join(root, 'ops.db', 'audit');
  const auditSchema = (fields: unknown[]) =>
    icebergMetadata('file:///lake/ops.db/audit', {
      currentSchemaId: 0,
      schemas: [{ 'schema-id': 0, fields }],
    });
  writeIcebergMetadata(
    audit,
    '00001-0b7c.metadata.json',
    auditSchema([{ id: 1, name: 'who', required: true, type: 'string' }]),
  );
  writeIcebergMetadata(
    audit,
    '00002-4f1e.gz.metadata.json',
    auditSchema([
      { id: 1, name: 'who', required: true, type: 'string' },
      { id: 2, name: 'what', required: false, type: 'binary' },
    ]),
    true,
  );

  // Broken tables: reported, the others still read.
  writeDeltaCommit(join(root, 'broken', 'delta_garbage'), 0, [protocolAction]);
  write(
    join(root, 'broken', 'delta_garbage', '_delta_log', '00000000000000000001.json'),
    '{"metaData": {oops\n',
  );
  writeIcebergMetadata(join(root, 'broken', 'iceberg_garbage'), 'v1.metadata.json', { 'format-version': 2 });
  write(join(root, 'broken', 'not_json', 'metadata', 'v1.metadata.json'), 'not json at all');

  store = new RecordingFsStore(root);
  inspection = await inspectLakehouse(
    store,
    { display: 'file:///lake', name: 'lake' },
    { filters: noFilters },
  );
});

describe('Delta tables from the transaction log', () => {
  it('reads the newest metaData and types every column in spark_sql', () => {
    const orders = tableOf('sales', 'orders');
    expect(orders.columns.map((c) => [c.name, c.native_type, c.type])).toEqual([
      ['order_id', 'bigint', { data_type: 'bigint' }],
      ['amount', 'decimal(12,2)', { data_type: 'decimal', params: { precision: 12, scale: 2 } }],
      ['dt', 'date', { data_type: 'date' }],
      ['placed_at', 'timestamp_ntz', { data_type: 'timestamp_ntz' }],
      ['country', 'char(2)', { data_type: 'char', params: { length: 2 } }],
      ['amount_cents', 'bigint', { data_type: 'bigint' }],
      [
        'lines',
        'array<struct<sku:string,qty:int>>',
        {
          data_type: 'array',
          children: [
            {
              slot: 'element',
              type: {
                data_type: 'struct',
                children: [
                  { slot: 'field:sku', type: { data_type: 'string' } },
                  { slot: 'field:qty', type: { data_type: 'int' } },
                ],
              },
            },
          ],
        },
      ],
      [
        'tags',
        'map<string,smallint>',
        {
          data_type: 'map',
          children: [
            { slot: 'key', type: { data_type: 'string' } },
            { slot: 'value', type: { data_type: 'smallint' } },
          ],
        },
      ],
      [
        'wait',
        'interval day to second',
        { data_type: 'day_time_interval', params: { interval_fields: 'day to second' } },
      ],
      ['payload', 'variant', { data_type: 'variant' }],
      ['odd', 'geometry(OGC:CRS84)', null],
    ]);
  });

  it('keeps nullability, identity, generation, defaults, comments and CHECK constraints', () => {
    const orders = tableOf('sales', 'orders');
    const column = (name: string) => orders.columns.find((c) => c.name === name);
    expect(column('order_id')).toMatchObject({ nullable: false, identity: 'always', ordinal: 1 });
    expect(column('amount')).toMatchObject({ nullable: true, comment: 'gross, in EUR' });
    expect(column('placed_at')?.default).toBe('current_timestamp()');
    expect(column('amount_cents')?.generated).toEqual({
      expression: 'CAST(amount * 100 AS BIGINT)',
      stored: true,
    });
    expect(orders.comment).toBe('Web orders');
    expect(orders.check_constraints).toEqual([{ name: 'positive_amount', expression: 'amount > 0' }]);
  });

  it('places the table as a hive dataset in spark_sql with its partition columns and properties', () => {
    expect(tableOf('sales', 'orders').placement).toEqual({
      kind: 'hive',
      object_name: 'sales.orders',
      flavor: 'spark_sql',
      attributes: {
        catalog_uri: 'file:///lake',
        db_name: 'sales',
        table_name: 'orders',
        is_external: true,
        location: 'file:///lake/sales.db/orders',
        file_format: 'delta',
        partition_cols: ['dt'],
        tblproperties: { 'delta.constraints.positive_amount': 'amount > 0', 'delta.appendOnly': 'true' },
      },
    });
  });

  it('reads the schema from the checkpoint when the commits holding it were cleaned up', () => {
    const clicks = tableOf('sales', 'clicks');
    expect(clicks.columns.map((c) => [c.name, c.type?.data_type])).toEqual([
      ['url', 'string'],
      ['at', 'timestamp'],
    ]);
    expect(clicks.placement?.attributes.tblproperties).toEqual({
      'delta.logRetentionDuration': 'interval 1 days',
    });
  });
});

describe('Iceberg tables from their metadata files', () => {
  it('follows version-hint.text to the current schema and types every column in iceberg_v2', () => {
    const events = tableOf('default', 'events');
    expect(events.columns.map((c) => [c.name, c.native_type, c.nullable, c.type])).toEqual([
      ['id', 'long', false, { data_type: 'long' }],
      ['ts', 'timestamptz', false, { data_type: 'timestamptz' }],
      ['price', 'decimal(9,3)', true, { data_type: 'decimal', params: { precision: 9, scale: 3 } }],
      ['hash', 'fixed[16]', true, { data_type: 'fixed', params: { length: 16 } }],
      ['user_id', 'uuid', true, { data_type: 'uuid' }],
      ['kind', 'string', true, { data_type: 'string' }],
      [
        'attrs',
        'map<string,int>',
        true,
        {
          data_type: 'map',
          children: [
            { slot: 'key', type: { data_type: 'string' } },
            { slot: 'value', type: { data_type: 'int' } },
          ],
        },
      ],
      [
        'items',
        'list<struct<sku:string>>',
        true,
        {
          data_type: 'list',
          children: [
            {
              slot: 'element',
              type: { data_type: 'struct', children: [{ slot: 'field:sku', type: { data_type: 'string' } }] },
            },
          ],
        },
      ],
      ['precise_ts', 'timestamp_ns', true, null],
    ]);
    expect(events.columns[0].comment).toBe('event id');
    expect(events.columns[5].default).toBe('"click"');
    expect(events.primary_key).toEqual({ name: null, columns: ['id'] });
    expect(events.comment).toBe('click stream');
    expect(events.placement).toMatchObject({
      kind: 'hive',
      object_name: 'default.events',
      flavor: 'iceberg_v2',
      attributes: {
        file_format: 'iceberg',
        partition_cols: ['day(ts)', 'bucket[16](id)'],
        db_name: 'default',
      },
    });
  });

  it('takes the highest numbered metadata file when there is no hint, gzipped or not', () => {
    expect(tableOf('ops', 'audit').columns.map((c) => [c.name, c.type?.data_type])).toEqual([
      ['who', 'string'],
      ['what', 'binary'],
    ]);
  });

  it('reports types without an iceberg_v2 or spark_sql code instead of guessing', () => {
    expect(inspection.unmapped_types).toEqual([
      { native_type: 'geometry(OGC:CRS84)', columns: 1 },
      { native_type: 'timestamp_ns', columns: 1 },
    ]);
    expect(inspection.summary.unmapped_columns).toBe(2);
  });
});

describe('the lakehouse as a whole', () => {
  it('reports unreadable tables with their folder and reason and reads the rest', () => {
    expect(inspection.problems).toEqual([
      {
        path: 'broken/delta_garbage',
        reason: expect.stringContaining('00000000000000000001.json line 1 is not JSON'),
      },
      { path: 'broken/iceberg_garbage', reason: expect.stringContaining('has no schema') },
      { path: 'broken/not_json', reason: expect.stringContaining('is not JSON') },
    ]);
    expect(inspection.tables.map((t) => `${t.schema}.${t.name}`)).toEqual([
      'default.events',
      'ops.audit',
      'sales.clicks',
      'sales.orders',
    ]);
    expect(inspection).toMatchObject({ dialect: 'lakehouse', flavor: 'spark_sql', database: 'file:///lake' });
  });

  it('never opens a data file', () => {
    const read = [...store.pathsRead];
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((p) => !/\/(_delta_log|metadata)\//.test(p))).toEqual([]);
    // The newest Delta commit held the metadata: the older commits of sales.db/orders were never read.
    expect(read).not.toContain('sales.db/orders/_delta_log/00000000000000000000.json');
  });

  it('applies --tables and --schemas to database.table', async () => {
    const filtered = await inspectLakehouse(
      new RecordingFsStore(root),
      { display: 'file:///lake', name: 'lake' },
      { filters: { ...noFilters, tables: ['sales.*'], exclude_tables: ['clicks'] } },
    );
    expect(filtered.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['sales.orders']);
  });

  it('names a location that is itself a table after its last path segment', async () => {
    const single = await inspectLakehouse(
      new RecordingFsStore(join(root, 'sales.db', 'orders')),
      { display: 'file:///lake/sales.db/orders', name: 'orders' },
      { filters: noFilters },
    );
    expect(single.tables.map((t) => [t.schema, t.name, t.placement?.attributes.location])).toEqual([
      ['default', 'orders', 'file:///lake/sales.db/orders'],
    ]);
  });
});

describe('lakehouse URLs', () => {
  const transport: FileTransport = {
    parse: (url) => ({ source: 'files', redacted: url.replace(/:[^:@/]*@/, ':***@'), secrets: ['pw'] }),
    open: (target) => Promise.resolve(new RecordingFsStore(join(root, new URL(target.redacted).pathname))),
  };
  const driver = createLakehouseDriver({ file: transport, sftp: transport });

  it('names its schemes after the transports and keeps secrets out of the target', () => {
    expect(driver.schemes).toEqual(['lakehouse+file', 'lakehouse+sftp']);
    const target = driver.parse('lakehouse+sftp://drop:pw@host/lake');
    expect(target.redacted).toBe('lakehouse+sftp://drop:***@host/lake');
    expect(target.secrets).toEqual(['pw']);
  });

  it('refuses a transport it does not have with a usage error listing the ones it has', () => {
    expect(() => driver.parse('lakehouse+gopher://x/y')).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.USAGE,
        message: expect.stringContaining('lakehouse+file://…, lakehouse+sftp://…'),
      }),
    );
  });

  it('inspects through the transport', async () => {
    const result = await driver.inspect(driver.parse('lakehouse+file:///ops.db'), { filters: noFilters });
    expect(result.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['ops.audit']);
    expect(result.database).toBe('file:///ops.db');
  });
});
