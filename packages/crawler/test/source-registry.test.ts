// The source registry (ADR 0046): every registered driver agrees with its registry entry, an unknown
// scheme is a usage error listing the registered ones, `--help` lists every source's URL forms, and a
// source that is not a database goes through inspect, crawl, apply and --check like one. That source
// is a test-only driver defined here (the real file and Kafka drivers are other modules): it gives two
// placed `storage` datasets and a problem, read against the real registry (the backend, started here)
// with a storage flavor this file creates through the API.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CrawlerError, ExitCode } from '../src/errors.js';
import {
  INSPECTION_FORMAT,
  INSPECTION_FORMAT_VERSION,
  type InspectedColumn,
  type InspectedDatabase,
  type InspectedTable,
  type TypeNode,
} from '../src/model.js';
import { emptyColumn, TableSet } from '../src/inspect/assemble.js';
import { summarise } from '../src/sources/inspection.js';
import { main } from '../src/program.js';
import { createBody } from '../src/registry/publish.js';
import { readRegistry } from '../src/registry/snapshot.js';
import type { CrawlReport } from '../src/report/report.js';
import { SOURCES, type RegisteredSource, type SourceList } from '../src/sources/registry.js';
import type { SourceDriver } from '../src/sources/source-driver.js';
import { startBackend, type TestBackend } from './helpers/backend.js';

const column = (name: string, ordinal: number, native: string, type: TypeNode, nullable = true) =>
  ({ ...emptyColumn(name, ordinal, native), type, nullable }) satisfies InspectedColumn;

/** A dataset of the test source: a folder of files, placed as a storage dataset. */
function dataset(folder: string, name: string, format: string, columns: InspectedColumn[]): InspectedTable {
  const objectName = folder === '' ? name : `${folder}/${name}`;
  const table = new TableSet().add(folder, name, 'table', null);
  table.columns = columns;
  table.placement = {
    kind: 'storage',
    object_name: objectName,
    attributes: {
      path: `testfiles:///lake/${objectName}`,
      file_format: format,
      compression: format === 'parquet' ? 'snappy' : 'none',
      partition_by: format === 'parquet' ? ['dt'] : null,
    },
  };
  return table;
}

const utf8: TypeNode = { data_type: 'utf8' };
const int64: TypeNode = { data_type: 'int64' };
const EVENTS = [
  column('id', 1, 'INT64', int64, false),
  column('at', 2, 'INT64 (TIMESTAMP(MICROS,true))', {
    data_type: 'timestamp',
    params: { unit: 'us', timezone: 'UTC' },
  }),
  column('tags', 3, 'LIST<BYTE_ARRAY (STRING)>', {
    data_type: 'list',
    children: [{ slot: 'item', type: utf8 }],
  }),
  column('dt', 4, 'partition key', utf8, false),
];
const APP_LOG = [column('level', 1, 'string', utf8), column('message', 2, 'string', utf8)];

/** What the test source holds now: the tests change it between crawls. */
const lake = {
  tables: [dataset('', 'events', 'parquet', EVENTS), dataset('logs', 'app', 'jsonl', APP_LOG)],
  problems: [{ path: 'broken/part-0.parquet', reason: 'not a Parquet file: the magic bytes are missing' }],
};

const testDriver: SourceDriver = {
  name: 'test_files',
  schemes: ['testfiles'],
  flavors: ['files_test'],
  usage: ['testfiles:///folder   (a test-only source)'],
  parse(url) {
    if (!url.startsWith('testfiles:///')) {
      throw new CrawlerError(`invalid test URL '${url}'`, { exitCode: ExitCode.USAGE });
    }
    return { source: 'test_files', redacted: url, secrets: [] };
  },
  inspect(_target, { filters }): Promise<InspectedDatabase> {
    const tables = structuredClone(lake.tables);
    return Promise.resolve({
      format: INSPECTION_FORMAT,
      format_version: INSPECTION_FORMAT_VERSION,
      dialect: 'test_files',
      flavor: 'files_test',
      server: { product: 'Files', version: 'test' },
      database: '',
      filters,
      schemas: [...new Set(tables.map((t) => t.schema))].sort(),
      tables,
      unmapped_types: [],
      approximate_types: [],
      problems: lake.problems,
      summary: summarise(new Set(tables.map((t) => t.schema)).size, tables, 0),
    });
  },
};

const testSource: RegisteredSource = {
  name: testDriver.name,
  schemes: testDriver.schemes,
  flavors: testDriver.flavors,
  usage: testDriver.usage,
  load: () => Promise.resolve(testDriver),
};
const withTestSource = [...SOURCES, testSource];

let backend: TestBackend;
let tmp: string;

/** Runs the command line in-process with the registry's env vars and the test source registered. */
async function run(args: string[], sources: SourceList = withTestSource) {
  let stdout = '';
  let stderr = '';
  const code = await main(
    args,
    { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { ...backend.env } },
    sources,
  );
  return { code, stdout, stderr };
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** A storage flavor with a few data types of the file flavors' codes, and a system of it. */
async function createLakeSystem(): Promise<void> {
  const client = backend.client();
  try {
    const kind = (await client.systemKinds.list({ code: 'storage', size: 1 })).items[0];
    if (kind === undefined) throw new Error('no storage system kind');
    const flavor = await client.systemFlavors.create({
      code: 'files_test',
      name: 'Test files',
      kind_id: kind.id,
    });
    const none = { type: 'object', additionalProperties: false };
    const types = [
      { code: 'int64', params_schema: none, render_template: 'int64' },
      { code: 'utf8', params_schema: none, render_template: 'utf8' },
      {
        code: 'timestamp',
        params_schema: {
          type: 'object',
          properties: { unit: { enum: ['s', 'ms', 'us', 'ns'] }, timezone: { type: 'string' } },
          required: ['unit'],
          additionalProperties: false,
        },
        render_template: 'timestamp[{{ unit }}{% if timezone is defined %}, tz={{ timezone }}{% endif %}]',
      },
      { code: 'list', params_schema: none, render_template: 'list<{{ item }}>' },
    ];
    for (const type of types) await client.dataTypes.create({ system_flavor_id: flavor.id, ...type });
  } finally {
    await client.close();
  }
  await backend.createSystem('lake', 'files_test');
}

beforeAll(async () => {
  backend = await startBackend('sources');
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-sources-'));
  await createLakeSystem();
}, 180_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe('the source registry', () => {
  it('describes each driver as the driver describes itself', async () => {
    expect(SOURCES.map((s) => s.name)).toEqual([
      'postgresql',
      'mysql',
      'sqlite',
      'files',
      'sftp',
      's3',
      'kafka_schemas',
      'schema_registry',
      'lakehouse',
    ]);
    for (const source of SOURCES) {
      const driver = await source.load();
      const { name, schemes, flavors, usage } = driver;
      expect({ name, schemes, flavors, usage }).toEqual({
        name: source.name,
        schemes: source.schemes,
        flavors: source.flavors,
        usage: source.usage,
      });
    }
    const schemes = SOURCES.flatMap((s) => s.schemes);
    expect(new Set(schemes).size).toBe(schemes.length);
  });

  it('refuses a URL of an unregistered scheme as a usage error that lists the registered ones', async () => {
    const { code, stderr } = await run(['inspect', '--connection-url', 'nosuch://u:hunter2@h/x'], SOURCES);
    expect(code).toBe(ExitCode.USAGE);
    expect(stderr).toContain(
      "unsupported connection URL scheme 'nosuch://' (nosuch://u:***@h/x); expected one of " +
        'postgresql://, postgres://, mysql://, mariadb://, sqlite://',
    );
    const withTest = await run(['inspect', '--connection-url', 'nosuch://h/x']);
    expect(withTest.stderr).toContain('lakehouse+sftp://, testfiles://');
  });

  it("lists every source's URL forms in the help of inspect and crawl", async () => {
    for (const command of ['inspect', 'crawl']) {
      const { stdout } = await run([command, '--help']);
      for (const line of [...SOURCES, testSource].flatMap((s) => s.usage))
        expect(stdout).toContain(`  ${line}\n`);
    }
  });
});

describe('a non-database source through inspect, crawl and apply', () => {
  it('inspects its placed datasets and problems', async () => {
    const { code, stdout } = await run(['inspect', '--connection-url', 'testfiles:///lake']);
    expect(code).toBe(ExitCode.OK);
    expect(stdout).toContain('Files test · flavor files_test');
    expect(stdout).toContain('events  storage dataset, 4 columns');
    expect(stdout).toContain('logs/app  storage dataset, 2 columns');
    expect(stdout).toContain('path "testfiles:///lake/events", file_format "parquet"');
    expect(stdout).toContain('Problems (1, not read; the crawl went on):');
    expect(stdout).toContain('  broken/part-0.parquet: not a Parquet file: the magic bytes are missing');
  });

  it('creates storage datasets with their attributes and typed columns; a change is reported with its class', async () => {
    const crawl = ['crawl', '--system-code', 'lake', '--connection-url', 'testfiles:///lake'];
    const first = join(tmp, 'first.json');
    expect((await run([...crawl, '--check', '--format', 'json', '-o', first])).code).toBe(
      ExitCode.DIFFERENCES,
    );
    const report = readJson<CrawlReport>(first);
    expect(report.source).toMatchObject({ dialect: 'test_files', server: { product: 'Files' } });
    expect(report.problems).toEqual(lake.problems);
    expect(report.datasets.map((d) => [d.kind, d.object_name, d.status])).toEqual([
      ['storage', 'events', 'new'],
      ['storage', 'logs/app', 'new'],
    ]);

    const text = await run(crawl);
    expect(text.stdout).toContain('+ events  new, 4 columns');
    expect(text.stdout).toContain('+ logs/app  new, 2 columns');
    expect(text.stdout).toContain('  broken/part-0.parquet: not a Parquet file: the magic bytes are missing');

    const applied = await run(['apply', first]);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(ExitCode.OK);
    expect(applied.stdout).toContain('created            events v1');
    expect(applied.stdout).toContain('2 created, 0 published');

    const client = backend.client();
    try {
      const system = (await client.systems.list({ code: 'lake', size: 1 })).items[0];
      if (system === undefined) throw new Error('no system lake');
      const datasets = (await client.datasets.list({ system_id: system.id, size: 10 })).items;
      expect(datasets.map((d) => d.object_name).sort()).toEqual(['events', 'logs/app']);
      expect(datasets.find((d) => d.object_name === 'events')).toMatchObject({
        kind: 'storage',
        path: 'testfiles:///lake/events',
        file_format: 'parquet',
        compression: 'snappy',
        partition_by: ['dt'],
      });
      const events = (await readRegistry(client, system.id)).find((d) => d.object_name === 'events');
      expect(events).toMatchObject({ kind: 'storage', version_num: 1 });
      expect(events?.version?.columns.map((c) => [c.name, c.type, c.rendered_type, c.native_type])).toEqual([
        ['id', int64, 'int64', 'INT64'],
        ['at', EVENTS[1].type, 'timestamp[us, tz=UTC]', 'INT64 (TIMESTAMP(MICROS,true))'],
        ['tags', EVENTS[2].type, 'list<utf8>', 'LIST<BYTE_ARRAY (STRING)>'],
        ['dt', utf8, 'utf8', 'partition key'],
      ]);
    } finally {
      await client.close();
    }

    // Matched by object_name, from the fingerprints and from the whole snapshot alike.
    for (const read of [[], ['--full-registry-read']]) {
      const again = await run([...crawl, ...read, '--check']);
      expect(again.stdout).toContain('No differences');
      expect(again.code).toBe(ExitCode.OK);
    }

    // A column added to one dataset (compatible), one removed from the other (breaking).
    lake.tables[0].columns.push(column('source', 5, 'BYTE_ARRAY (STRING)', utf8));
    lake.tables[1].columns.pop();
    const second = join(tmp, 'second.json');
    expect((await run([...crawl, '--check', '--format', 'json', '-o', second])).code).toBe(
      ExitCode.DIFFERENCES,
    );
    const changed = readJson<CrawlReport>(second).datasets;
    expect(changed.map((d) => [d.object_name, d.status, d.base_version_num, d.compatibility])).toEqual([
      ['events', 'changed', 1, 'compatible'],
      ['logs/app', 'changed', 1, 'breaking'],
    ]);
    expect(changed.map((d) => d.changes.map((c) => [c.category, c.name]))).toEqual([
      [['column_added', 'source']],
      [['column_removed', 'message']],
    ]);
    const changedText = await run(crawl);
    expect(changedText.stdout).toContain('~ events  v1, compatible');
    expect(changedText.stdout).toMatch(/~ logs\/app {2}v1, breaking\n {4}BREAKING +column removed: message/);

    const published = await run(['apply', second]);
    expect(published.code).toBe(ExitCode.OK);
    expect(published.stdout).toContain('0 created, 2 published');

    // A dataset gone from the source is reported as removed, by its object_name, and kept.
    lake.tables.pop();
    const removed = await run([...crawl, '--check']);
    expect(removed.code).toBe(ExitCode.DIFFERENCES);
    expect(removed.stdout).toContain('- logs/app  removed from the source (registry v2)');
  });

  it("names the flavor of a placement in the dataset it creates unless it is the system's", () => {
    const report = { source: { database: '' }, system: { flavor: 'avro' } } as CrawlReport;
    const diff = {
      kind: 'kafka' as const,
      object_name: 'orders',
      schema: '',
      table: 'orders',
      placement: {
        kind: 'kafka' as const,
        object_name: 'orders',
        attributes: { topic: 'orders', format: 'protobuf', key_columns: [] },
        flavor: 'protobuf',
      },
      status: 'new' as const,
      dataset_id: null,
      base_version_num: null,
      compatibility: 'compatible' as const,
      changes: [],
      target: null,
    };
    const systemId = '00000000-0000-4000-8000-000000000001';
    const flavorId = '00000000-0000-4000-8000-000000000002';
    expect(createBody(systemId, report, diff, new Map([['protobuf', flavorId]]))).toEqual({
      kind: 'kafka',
      system_id: systemId,
      object_name: 'orders',
      topic: 'orders',
      format: 'protobuf',
      key_columns: [],
      flavor_id: flavorId,
    });
    expect(
      createBody(systemId, report, { ...diff, placement: { ...diff.placement, flavor: undefined } }),
    ).not.toHaveProperty('flavor_id');
  });
});
