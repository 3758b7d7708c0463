// The new sources end to end (issue 24, "Done when"): `crawl` + `apply` register a folder of real files
// (locally, over SFTP on a real OpenSSH server, on an S3-compatible server), a folder of Kafka schemas
// (Avro, JSON Schema and Protobuf side by side on one Kafka system, each dataset in its own flavor), a
// Schema Registry's subjects and a lakehouse of Delta and Iceberg tables, with every column typed in the seeded flavors; a re-crawl
// after a schema changed reports the change with its format's class.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ExitCode } from '../src/errors.js';
import { main } from '../src/program.js';
import { readRegistry } from '../src/registry/snapshot.js';
import type { CrawlReport } from '../src/report/report.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { LAKE } from './helpers/files.js';
import {
  icebergMetadata,
  metaDataAction,
  protocolAction,
  writeDeltaCommit,
  writeIcebergMetadata,
} from './helpers/lakehouse-tables.js';
import { S3RVER_KEY, startS3Server, type TestS3Server } from './helpers/s3-server.js';
import { SchemaRegistryContractServer } from './helpers/schema-registry-contract-server.js';
import { startSshd, type TestSshd } from './helpers/sshd.js';

let backend: TestBackend;
let tmp: string;

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { ...backend.env },
  });
  return { code, stdout, stderr };
}

/** crawl → JSON report (expecting differences), apply it; returns the report. */
async function crawlAndApply(system: string, url: string, name: string): Promise<CrawlReport> {
  const report = join(tmp, `${name}.json`);
  const crawl = await run([
    'crawl',
    '--system-code',
    system,
    '--connection-url',
    url,
    '--check',
    '--format',
    'json',
    '-o',
    report,
  ]);
  expect(crawl.stderr).not.toMatch(/error|failed/i);
  expect(crawl.code).toBe(ExitCode.DIFFERENCES);
  const applied = await run(['apply', report]);
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(ExitCode.OK);
  return JSON.parse(readFileSync(report, 'utf8')) as CrawlReport;
}

/** A `crawl --check` expected to find differences: the datasets that changed, with their changes. */
async function changedOnRecrawl(system: string, url: string, name: string) {
  const report = join(tmp, `${name}.json`);
  const args = ['crawl', '--system-code', system, '--connection-url', url, '--check', '--format', 'json'];
  expect((await run([...args, '-o', report])).code).toBe(ExitCode.DIFFERENCES);
  const changed = (JSON.parse(readFileSync(report, 'utf8')) as CrawlReport).datasets.filter(
    (d) => d.status !== 'unchanged',
  );
  return { report, changed };
}

/** What the registry holds of a system: per dataset its kind and typed columns, and its flavor's code. */
async function registered(system: string) {
  const client = backend.client();
  try {
    const found = (await client.systems.list({ code: system, size: 1 })).items[0];
    if (found === undefined) throw new Error(`no system ${system}`);
    const datasets = await readRegistry(client, found.id);
    const rows = (await client.datasets.list({ system_id: found.id, size: 100 })).items;
    const codes = new Map<string, string>();
    for (const row of rows) {
      const flavorId = row.flavor_id ?? found.flavor_id;
      codes.set(row.object_name, (await client.systemFlavors.get(flavorId)).code);
    }
    return datasets.map((d) => ({ ...d, flavor_code: codes.get(d.object_name) }));
  } finally {
    await client.close();
  }
}

/** The files of a folder, by path relative to it. */
function filesOf(folder: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(folder, full).split(sep).join('/')] = readFileSync(full);
    }
  };
  walk(folder);
  return out;
}

/** A few real files of the committed lake: Parquet (partitioned), Avro, CSV, JSON lines, one corrupt. */
const SUBSET = [
  'events',
  'users',
  'customers.csv',
  'clicks.jsonl',
  'all_types.parquet',
  'broken/garbage.parquet',
];
let files: string;

beforeAll(async () => {
  backend = await startBackend('sources_e2e');
  tmp = mkdtempSync(join(tmpdir(), 'aide-sources-e2e-'));
  files = join(tmp, 'files');
  for (const path of SUBSET) cpSync(join(LAKE, path), join(files, path), { recursive: true });
  writeFileSync(join(files, 'rates.csv'), 'currency,rate\nEUR,1.0\nUSD,1.08\n');
  await backend.createSystem('landing', 'storage_files');
  await backend.createSystem('drop', 'sftp_files');
  await backend.createSystem('bucket', 'storage_files');
  await backend.createSystem('topics', 'avro');
  await backend.createSystem('lakehouse', 'spark_sql');
  await backend.createSystem('registry', 'avro');
}, 180_000);

afterAll(async () => {
  await backend?.stop();
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

describe('files', () => {
  it('registers a local folder of Parquet, Avro, CSV and JSON-lines files, every column typed', async () => {
    const url = pathToFileURL(files).href;
    const report = await crawlAndApply('landing', url, 'files');
    // The corrupt file, and the JSON-lines field of mixed types the fixture holds (typed utf8, reported).
    expect(report.problems?.map((p) => p.path)).toEqual(['broken/garbage.parquet', 'clicks.jsonl']);
    const datasets = await registered('landing');
    expect(datasets.map((d) => d.object_name).sort()).toEqual(
      report.datasets.map((d) => d.object_name).sort(),
    );
    expect(datasets.length).toBeGreaterThanOrEqual(5);
    for (const dataset of datasets) {
      expect(dataset).toMatchObject({ kind: 'storage', version_num: 1 });
      const untyped = dataset.version?.columns.filter((c) => c.type === null).map((c) => c.name);
      expect({ dataset: dataset.object_name, untyped }).toEqual({
        dataset: dataset.object_name,
        untyped: [],
      });
    }

    // A column added to a CSV file (nullable: one row has no value): a compatible change of that
    // dataset only; a column removed: breaking.
    writeFileSync(join(files, 'rates.csv'), 'currency,rate,source\nEUR,1.0,ecb\nUSD,1.08,\n');
    const { report: second, changed } = await changedOnRecrawl('landing', url, 'files-2');
    expect(
      changed.map((d) => [
        d.object_name,
        d.status,
        d.compatibility,
        d.changes.map((c) => [c.category, c.name]),
      ]),
    ).toEqual([['rates.csv', 'changed', 'compatible', [['column_added', 'source']]]]);
    expect((await run(['apply', second])).code).toBe(ExitCode.OK);
    writeFileSync(join(files, 'rates.csv'), 'currency,source\nEUR,ecb\nUSD,\n');
    const third = await run(['crawl', '--system-code', 'landing', '--connection-url', url, '--check']);
    expect(third.code).toBe(ExitCode.DIFFERENCES);
    expect(third.stdout).toMatch(/~ rates\.csv {2}v2, breaking\n {4}BREAKING +column removed: rate/);
  });

  it('registers the same files over SFTP (a real OpenSSH server) as sftp datasets', async () => {
    let sshd: TestSshd | undefined;
    try {
      sshd = await startSshd();
      cpSync(files, join(sshd.served, 'drop'), { recursive: true });
      const url = `sftp://root@127.0.0.1:${sshd.port}${join(sshd.served, 'drop')}?identity=${sshd.userKey}&known_hosts=${sshd.knownHosts}`;
      const report = await crawlAndApply('drop', url, 'sftp');
      const datasets = await registered('drop');
      expect(datasets.map((d) => d.object_name).sort()).toEqual(
        report.datasets.map((d) => d.object_name).sort(),
      );
      for (const dataset of datasets) {
        expect(dataset.kind).toBe('sftp');
        expect(dataset.version?.columns.every((c) => c.type !== null)).toBe(true);
      }
    } finally {
      await sshd?.stop();
    }
  }, 300_000);

  it('registers the same files on an S3-compatible server (s3rver) as storage datasets', async () => {
    let s3: TestS3Server | undefined;
    const saved = { id: process.env['AWS_ACCESS_KEY_ID'], secret: process.env['AWS_SECRET_ACCESS_KEY'] };
    try {
      s3 = await startS3Server(['lake']);
      const objects = Object.fromEntries(
        Object.entries(filesOf(files)).map(([path, bytes]) => [`raw/${path}`, new Uint8Array(bytes)]),
      );
      await s3.put('lake', objects);
      process.env['AWS_ACCESS_KEY_ID'] = S3RVER_KEY.accessKeyId;
      process.env['AWS_SECRET_ACCESS_KEY'] = S3RVER_KEY.secretAccessKey;
      const url = `s3://lake/raw?endpoint=${s3.endpoint}&force_path_style=true&region=us-east-1`;
      const report = await crawlAndApply('bucket', url, 's3');
      const datasets = await registered('bucket');
      expect(datasets.map((d) => d.object_name).sort()).toEqual(
        report.datasets.map((d) => d.object_name).sort(),
      );
      expect(datasets.length).toBeGreaterThanOrEqual(5);
      for (const dataset of datasets)
        expect(dataset.version?.columns.every((c) => c.type !== null)).toBe(true);
    } finally {
      process.env['AWS_ACCESS_KEY_ID'] = saved.id;
      process.env['AWS_SECRET_ACCESS_KEY'] = saved.secret;
      if (saved.id === undefined) delete process.env['AWS_ACCESS_KEY_ID'];
      if (saved.secret === undefined) delete process.env['AWS_SECRET_ACCESS_KEY'];
      await s3?.stop();
    }
  }, 300_000);
});

describe('Kafka schemas', () => {
  it('registers Avro, JSON Schema and Protobuf topics on one Avro system, each in its own flavor', async () => {
    const folder = join(tmp, 'schemas');
    cpSync(join(import.meta.dirname, 'fixtures', 'kafka', 'schemas'), folder, { recursive: true });
    const url = `kafka+file://${folder}`;
    const report = await crawlAndApply('topics', url, 'kafka');
    const datasets = await registered('topics');
    expect(datasets.map((d) => d.object_name).sort()).toEqual(
      report.datasets.map((d) => d.object_name).sort(),
    );
    const flavors = Object.fromEntries(datasets.map((d) => [d.object_name, d.flavor_code]));
    expect(flavors).toMatchObject({ orders: 'avro', customers: 'json_schema', payments: 'protobuf' });
    for (const dataset of datasets) {
      expect(dataset.kind).toBe('kafka');
      expect(dataset.version?.columns.every((c) => c.type !== null)).toBe(true);
    }

    // Avro schema resolution: a field added without a default breaks readers of the new data.
    const orders = join(folder, 'orders-value.avsc');
    const schema = JSON.parse(readFileSync(orders, 'utf8')) as { fields: unknown[] };
    schema.fields.push({ name: 'channel', type: 'string' });
    writeFileSync(orders, JSON.stringify(schema));
    const { report: second, changed } = await changedOnRecrawl('topics', url, 'kafka-2');
    expect(
      changed.map((d) => [
        d.object_name,
        d.compatibility,
        d.changes.map((c) => [c.category, c.name, c.compatibility]),
      ]),
    ).toEqual([['orders', 'breaking', [['column_added', 'channel', 'breaking']]]]);
    // The registry classes it the same way: the report's breaking label lets apply publish it.
    const applied = await run(['apply', second]);
    expect(applied.code).toBe(ExitCode.OK);
    expect(applied.stdout).toContain('0 created, 1 published');
  });
});

describe('a Schema Registry', () => {
  // No Schema Registry runs on these machines: the server is an implementation of its documented REST
  // contract (test/helpers/schema-registry-contract-server.ts), as in test/schema-registry.test.ts.
  it('registers its subjects as kafka datasets; a field added with a default is compatible', async () => {
    const registry = new SchemaRegistryContractServer();
    const order = (fields: unknown[]) =>
      JSON.stringify({
        type: 'record',
        name: 'Order',
        namespace: 'com.acme',
        fields: [{ name: 'id', type: 'string' }, ...fields],
      });
    try {
      const url = `schema-registry+http://${await registry.start()}`;
      registry.register('orders-value', { schema: order([{ name: 'qty', type: 'int' }]) });
      registry.register('payments-value', {
        schemaType: 'PROTOBUF',
        schema:
          'syntax = "proto3";\npackage pay;\nimport "google/protobuf/timestamp.proto";\nmessage Payment { string id = 1; int64 cents = 2; google.protobuf.Timestamp at = 3; }',
      });
      registry.register('customers-value', {
        schemaType: 'JSON',
        schema: JSON.stringify({
          type: 'object',
          properties: { id: { type: 'integer' }, email: { type: 'string', format: 'email' } },
          required: ['id'],
        }),
      });
      await crawlAndApply('registry', url, 'registry');
      const datasets = await registered('registry');
      expect(datasets.map((d) => [d.object_name, d.kind, d.flavor_code]).sort()).toEqual([
        ['customers', 'kafka', 'json_schema'],
        ['orders', 'kafka', 'avro'],
        ['payments', 'kafka', 'protobuf'],
      ]);
      for (const dataset of datasets)
        expect(dataset.version?.columns.every((c) => c.type !== null)).toBe(true);

      registry.register('orders-value', {
        schema: order([
          { name: 'qty', type: 'int' },
          { name: 'note', type: ['null', 'string'], default: null },
        ]),
      });
      const { report: second, changed } = await changedOnRecrawl('registry', url, 'registry-2');
      expect(
        changed.map((d) => [d.object_name, d.compatibility, d.changes.map((c) => [c.category, c.name])]),
      ).toEqual([['orders', 'compatible', [['column_added', 'note']]]]);
      expect((await run(['apply', second])).code).toBe(ExitCode.OK);
    } finally {
      await registry.stop();
    }
  });
});

describe('lakehouse', () => {
  it('registers Delta tables in spark_sql and Iceberg tables in iceberg_v2 on one hive system', async () => {
    const lake = join(tmp, 'warehouse');
    writeDeltaCommit(join(lake, 'sales.db', 'orders'), 0, [
      protocolAction,
      metaDataAction(
        [
          { name: 'id', type: 'long', nullable: false },
          { name: 'amount', type: 'decimal(12,2)' },
          { name: 'lines', type: { type: 'array', elementType: 'string', containsNull: true } },
          { name: 'dt', type: 'date' },
        ],
        ['dt'],
      ),
    ]);
    writeIcebergMetadata(
      join(lake, 'sales.db', 'events'),
      'v1.metadata.json',
      icebergMetadata('file:///warehouse/sales.db/events', {
        currentSchemaId: 0,
        schemas: [
          {
            'schema-id': 0,
            fields: [
              { id: 1, name: 'id', required: true, type: 'long' },
              { id: 2, name: 'ts', required: true, type: 'timestamptz' },
              { id: 3, name: 'hash', required: false, type: 'fixed[16]' },
            ],
            'identifier-field-ids': [1],
          },
        ],
      }),
    );
    const report = await crawlAndApply('lakehouse', `lakehouse+${pathToFileURL(lake).href}`, 'lakehouse');
    expect(report.datasets.map((d) => d.object_name)).toEqual(['sales.events', 'sales.orders']);
    const datasets = await registered('lakehouse');
    expect(datasets.map((d) => [d.object_name, d.kind, d.flavor_code]).sort()).toEqual([
      ['sales.events', 'hive', 'iceberg_v2'],
      ['sales.orders', 'hive', 'spark_sql'],
    ]);
    const orders = datasets.find((d) => d.object_name === 'sales.orders');
    expect(orders?.version?.columns.map((c) => [c.name, c.rendered_type])).toEqual([
      ['id', 'bigint'],
      ['amount', 'decimal(12,2)'],
      ['lines', 'array<string>'],
      ['dt', 'date'],
    ]);
  });
});
