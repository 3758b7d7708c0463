// Issue 22 item 9 (ADR 0037): `apply` with an edited ("forged") report, against the real registry.
// A report whose versions the registry refuses leaves no dataset behind (the dataset and its first
// version are one transaction); a breaking change the report labels compatible is refused by the
// registry's own classification; what apply shows and records is the registry's class.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ExitCode } from '../src/errors.js';
import { main } from '../src/program.js';
import type { CrawlReport } from '../src/report/report.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';

let backend: TestBackend;
let db: TestPgDatabase;
let tmp: string;

beforeAll(async () => {
  backend = await startBackend('forged');
  db = await createPgDatabase('forged');
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-forged-'));
}, 180_000);

afterAll(async () => {
  await backend?.stop();
  await db?.drop();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: backend.env,
  });
  return { code, stdout, stderr };
}

/** Crawls the tables of one schema into a JSON report and returns its path and content. */
async function crawl(system: string, schema: string, name: string) {
  const path = join(tmp, `${name}.json`);
  const r = await run([
    'crawl',
    '--system-code',
    system,
    '--connection-url',
    db.url,
    '--schemas',
    schema,
    '--format',
    'json',
    '-o',
    path,
  ]);
  expect(r.code).toBe(ExitCode.OK);
  return { path, report: JSON.parse(readFileSync(path, 'utf8')) as CrawlReport };
}

function write(path: string, report: CrawlReport): string {
  writeFileSync(path, JSON.stringify(report));
  return path;
}

async function registry(system: string) {
  const client = backend.client();
  try {
    const found = (await client.systems.list({ code: system, size: 1 })).items[0];
    if (found === undefined) throw new Error(`no system ${system}`);
    const id = found.id;
    const datasets = (await client.datasets.list({ system_id: id, size: 100 })).items;
    const runs = (await client.crawlRuns.list({ system_id: id, size: 100, sort: 'started_at' })).items;
    const versions = new Map<string, number[]>();
    for (const d of datasets) {
      versions.set(
        d.object_name,
        (await client.datasets.schemaVersions(d.id)).map((v) => v.version_num),
      );
    }
    return { datasets, versions, runs };
  } finally {
    await client.close();
  }
}

describe('apply with a report whose versions the registry refuses', () => {
  it('creates no dataset: each is created with its first version, or not at all', async () => {
    await backend.createSystem('forged_new', 'postgres14');
    await db.exec(
      'CREATE SCHEMA fresh; ' +
        Array.from({ length: 17 }, (_, i) => `CREATE TABLE fresh.t${i} (id int PRIMARY KEY, v text);`).join(
          ' ',
        ),
    );
    const { path, report } = await crawl('forged_new', 'fresh', 'fresh');
    expect(report.datasets).toHaveLength(17);
    // Edited: every column typed with a data type the registry does not have.
    for (const dataset of report.datasets) {
      for (const column of dataset.target?.columns ?? []) column.type = { data_type: 'no_such_type' };
    }
    const applied = await run(['apply', write(path, report)]);
    expect(applied.code).toBe(ExitCode.FAILURE);
    expect(applied.stdout).toContain(
      '0 created, 0 published, 0 already applied, 0 refused as stale, 17 failed',
    );
    expect(applied.stdout).toMatch(/FAILED\s+fresh\.t0 {2}— DATA_TYPE_NOT_FOUND/);
    const after = await registry('forged_new');
    expect(after.datasets).toEqual([]);
    expect(after.runs.map((r) => r.diff_payload?.['applied'])).toEqual([
      undefined, // the crawl
      expect.arrayContaining([
        expect.objectContaining({ action: 'create', dataset_id: null, version_num: null }),
      ]),
    ]);
  });
});

describe('apply with a breaking change the report labels compatible', () => {
  beforeAll(async () => {
    await backend.createSystem('forged_label', 'postgres14');
    await db.exec(`CREATE SCHEMA shop;
      CREATE TABLE shop.orders (id int PRIMARY KEY, amount numeric(10,2) NOT NULL, note text);
      CREATE TABLE shop.customers (id int PRIMARY KEY, name varchar(40))`);
    const { path } = await crawl('forged_label', 'shop', 'shop-v1');
    const first = await run(['apply', path]);
    expect(first.code).toBe(ExitCode.OK);
    // The registry classes what it published: a new table is compatible.
    expect(first.stdout).toMatch(/created\s+shop\.orders v1 \(compatible\)/);
  });

  it("is refused by the registry's own classification; the honest report then applies", async () => {
    // A dropped column (breaking) and a widened one (compatible).
    await db.exec(`ALTER TABLE shop.orders DROP COLUMN note;
      ALTER TABLE shop.customers ALTER COLUMN name TYPE varchar(80)`);
    const { path, report } = await crawl('forged_label', 'shop', 'shop-v2');
    const orders = report.datasets.find((d) => d.table === 'orders');
    expect([
      orders?.compatibility,
      report.datasets.find((d) => d.table === 'customers')?.compatibility,
    ]).toEqual(['breaking', 'compatible']);
    // Edited: every change of the report, and the report's summary, called compatible.
    const forged: CrawlReport = JSON.parse(JSON.stringify(report)) as CrawlReport;
    for (const dataset of forged.datasets) {
      dataset.compatibility = 'compatible';
      for (const change of dataset.changes) change.compatibility = 'compatible';
    }
    forged.summary.changes = {
      ...forged.summary.changes,
      compatible: forged.summary.changes.total,
      breaking: 0,
    };
    const refused = await run(['apply', write(join(tmp, 'forged.json'), forged)]);
    expect(refused.code).toBe(ExitCode.FAILURE);
    expect(refused.stdout).toMatch(
      /FAILED\s+shop\.orders \(breaking\) {2}— DATASET_SCHEMA_BREAKING_CHANGE: .*column_removed note.* The report calls the change compatible/,
    );
    expect(refused.stdout).toMatch(/published\s+shop\.customers v2 \(compatible\)/);
    let state = await registry('forged_label');
    expect(state.versions.get('shop.orders')).toEqual([1]);
    expect(state.versions.get('shop.customers')).toEqual([2, 1]);

    // The unedited report: the reviewer saw "breaking"; the registry agrees and publishes it.
    const honest = await run(['apply', path]);
    expect(honest.code).toBe(ExitCode.OK);
    expect(honest.stdout).toMatch(/published\s+shop\.orders v2 \(breaking\)/);
    state = await registry('forged_label');
    expect(state.versions.get('shop.orders')).toEqual([2, 1]);
    // The apply run records the registry's class.
    const applied = state.runs[state.runs.length - 1]?.diff_payload?.['applied'];
    expect(applied).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ object_name: 'shop.orders', version_num: 2, compatibility: 'breaking' }),
      ]),
    );
  });
});
