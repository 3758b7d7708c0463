// A crawl reads the registry's fingerprints first and in full only the versions whose fingerprint
// differs from the inspected table's (ADR 0032). Against the real registry and the realistic
// PostgreSQL fixture (foreign keys, partitions, views, expression and partial indexes, arrays,
// enums): the report is the one a full read gives, after database changes, after registry-side changes
// (a version published through the API, PII tags, an edited data type) and for versions stored before
// fingerprints existed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { crawl, type CrawlOutcome } from '../src/commands/crawl.js';
import { apply } from '../src/commands/apply.js';
import { ExitCode } from '../src/errors.js';
import { readChanged, readFingerprints, readRegistry } from '../src/registry/snapshot.js';
import type { CrawlReport } from '../src/report/report.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';
import { olderRegistry } from './helpers/registry-front.js';
import { publishEditedColumn } from './helpers/versions.js';

let backend: TestBackend;
let db: TestPgDatabase;
const SYSTEM = 'fp_pg';

const io = () => ({ stdout: () => undefined, stderr: () => undefined, env: { ...backend.env } });

const crawlWith = (fullRegistryRead: boolean): Promise<CrawlOutcome> =>
  crawl({ systemCode: SYSTEM, connectionUrl: db.url, format: 'json', fullRegistryRead }, io());

/** What must not depend on how the registry was read: every dataset's diff and the summary. */
const comparable = (report: CrawlReport) => ({ datasets: report.datasets, summary: report.summary });

/**
 * Crawls both ways; the reports must be the same. Returns the fingerprint crawl (run first: a full
 * read stores the fingerprints of the versions it had to read again).
 */
async function crawlBothWays(): Promise<CrawlOutcome> {
  const light = await crawlWith(false);
  const full = await crawlWith(true);
  expect(comparable(light.report)).toEqual(comparable(full.report));
  return light;
}

async function registryQuery(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: backend.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  backend = await startBackend('fingerprints');
  db = await createPgDatabase('fingerprints');
  await db.exec(readFileSync(new URL('./fixtures/postgres-realistic.sql', import.meta.url), 'utf8'));
  await backend.createSystem(SYSTEM, 'postgres14');
  const dir = mkdtempSync(join(tmpdir(), 'aide-crawler-fp-'));
  try {
    const file = join(dir, 'first.json');
    const first = await crawl(
      { systemCode: SYSTEM, connectionUrl: db.url, format: 'json', output: file },
      io(),
    );
    expect(first.report.datasets.length).toBeGreaterThan(10);
    const applied = await apply(file, {}, io());
    expect(applied.exitCode).toBe(ExitCode.OK);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);

afterAll(async () => {
  await db?.drop();
  await backend?.stop();
}, 60_000);

describe('a crawl that compares fingerprints first', () => {
  it('reads no version in full when nothing changed, and reports what a full read reports', async () => {
    const light = await crawlBothWays();
    expect(light.report.datasets).toEqual([]);
    expect(light.report.summary.datasets.unchanged).toBeGreaterThan(10);
    expect(light.versionsRead).toBe(0);
  });

  it('reads only the changed tables, with the same report as a full read', async () => {
    await db.exec(`
      ALTER TABLE public.currencies ADD COLUMN symbol text;
      ALTER TABLE sales.customers ALTER COLUMN email TYPE varchar(320);
      COMMENT ON TABLE public.countries IS 'ISO 3166 countries, edited';
      CREATE INDEX country_currencies_currency_idx ON public.country_currencies (currency_code);
      CREATE TABLE public.brand_new (id int PRIMARY KEY);
    `);
    const light = await crawlBothWays();
    const byTable = new Map(light.report.datasets.map((d) => [d.object_name, d]));
    expect(byTable.get('public.currencies')?.changes.map((c) => c.category)).toEqual(['column_added']);
    expect(byTable.get('sales.customers')?.changes.map((c) => c.category)).toContain('type_changed');
    expect(byTable.get('public.countries')?.changes.map((c) => c.category)).toEqual([
      'table_comment_changed',
    ]);
    expect(byTable.get('public.country_currencies')?.status).toBe('changed');
    expect(byTable.get('public.brand_new')?.status).toBe('new');
    // The four changed tables; the new one has no version to read.
    expect(light.versionsRead).toBe(4);
    // Applied: the registry is the database again, and only the published versions were new.
    const dir = mkdtempSync(join(tmpdir(), 'aide-crawler-fp-'));
    try {
      const file = join(dir, 'changes.json');
      await crawl({ systemCode: SYSTEM, connectionUrl: db.url, format: 'json', output: file }, io());
      expect((await apply(file, {}, io())).exitCode).toBe(ExitCode.OK);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const applied = await crawlBothWays();
    expect(applied.report.datasets).toEqual([]);
    expect(applied.versionsRead).toBe(0);
  });

  it('reports a version published through the API that differs from the database', async () => {
    const before = await crawlWith(false);
    expect(before.report.datasets).toEqual([]);
    const client = backend.client();
    try {
      // A registry-side edit of one column: its comment and nullability.
      const published = await publishEditedColumn(client, SYSTEM, 'public.currencies', {
        index: 1,
        comment: 'edited in the registry',
        flipNullable: true,
      });
      expect(published.created).toBe(true);
      const light = await crawlBothWays();
      expect(light.versionsRead).toBe(1);
      const [changed] = light.report.datasets;
      expect(changed?.object_name).toBe('public.currencies');
      expect(changed?.base_version_num).toBe(published.version.version_num);
      expect(changed?.changes.map((c) => c.category).sort()).toEqual([
        'comment_changed',
        'nullability_changed',
      ]);
    } finally {
      await client.close();
    }
  });

  it('ignores PII tags, and follows an edited data type by reading its versions again once', async () => {
    const client = backend.client();
    try {
      const system = (await client.systems.list({ code: SYSTEM, size: 1 })).items[0];
      const dataset = (await client.datasets.list({ system_id: system?.id, object_name: 'sales.customers' }))
        .items[0];
      if (dataset === undefined) throw new Error('sales.customers is not registered');
      const current = (await client.datasets.schemaVersions(dataset.id))[0];
      const version = await client.datasets.schemaVersion(dataset.id, current?.version_num ?? 1);
      const email = version.columns.find((c) => c.name === 'email');
      await client.fieldClassifications.create({ field_id: email?.field_id ?? '', pii_tags: ['email'] });
      const tagged = await crawlBothWays();
      expect(tagged.versionsRead).toBe(1); // public.currencies, still behind the database
      expect(tagged.report.datasets.map((d) => d.object_name)).toEqual(['public.currencies']);

      if (!email?.type) throw new Error('sales.customers.email has no type');
      const varchar = await client.dataTypes.get(email.type.data_type_id);
      await client.dataTypes.update(varchar.id, {
        description: 'edited by the fingerprint test',
        row_version: varchar.row_version,
      });
      const edited = await crawlWith(false);
      // Every version with a varchar column is read in full once (its shape is rebuilt with the data type).
      expect(edited.versionsRead).toBeGreaterThan(1);
      expect(edited.report.datasets.map((d) => d.object_name)).toEqual(['public.currencies']);
      const again = await crawlBothWays();
      expect(again.versionsRead).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('reads in full, once, the versions stored before fingerprints existed', async () => {
    await registryQuery(`UPDATE schema_version_read_shapes SET fingerprint = NULL`);
    const light = await crawlBothWays();
    expect(light.versionsRead).toBe(light.report.summary.datasets.unchanged + light.report.datasets.length);
    expect(light.report.datasets.map((d) => d.object_name)).toEqual(['public.currencies']);
    const again = await crawlWith(false);
    expect(again.versionsRead).toBe(1);
  });

  it('reads versions by batches into what the snapshot gives, in the same order', async () => {
    const client = backend.client();
    try {
      const system = (await client.systems.list({ code: SYSTEM, size: 1 })).items[0];
      if (system === undefined) throw new Error(`no system ${SYSTEM}`);
      const heads = await readFingerprints(client, system.id, undefined, 7);
      if (heads === null) throw new Error('the registry has fingerprints');
      // Nothing inspected, everything in scope: every version is read, one per request.
      const changed = await readChanged(client, system.id, heads, [], () => true, undefined, 1);
      expect(changed.fetched).toBe(heads.filter((h) => h.version_num !== null).length);
      expect(changed.registered).toEqual(await readRegistry(client, system.id));
    } finally {
      await client.close();
    }
  });

  it('reports a dropped table as removed, as a full read does', async () => {
    await db.exec(`DROP TABLE public.brand_new`);
    const light = await crawlBothWays();
    const removed = light.report.datasets.find((d) => d.object_name === 'public.brand_new');
    expect(removed).toMatchObject({ status: 'removed', base_version_num: 1 });
    expect(removed?.changes[0]).toMatchObject({ category: 'table_removed', before: 'table' });
    // public.currencies (behind) and the removed table.
    expect(light.versionsRead).toBe(2);
  });
});

describe('a crawl against a registry that predates fingerprints', () => {
  // The real backend behind a real HTTP front that answers the fingerprint route as an older backend
  // does (the generic NOT_FOUND of an unknown route) and passes every other request through.
  it('reads every version in full and reports what a fingerprint crawl reports', async () => {
    const older = await olderRegistry(backend);
    try {
      const outcome = await crawl(
        { systemCode: SYSTEM, connectionUrl: db.url, format: 'json' },
        { ...io(), env: { ...backend.env, AIDE_METASTORE_URL: older.url } },
      );
      const light = await crawlWith(false);
      expect(comparable(outcome.report)).toEqual(comparable(light.report));
      expect(outcome.versionsRead).toBeGreaterThan(10);
      expect(outcome.versionsRead).toBe(
        outcome.report.summary.datasets.unchanged +
          outcome.report.datasets.filter((d) => d.status !== 'new').length,
      );
    } finally {
      await older.close();
    }
  });
});
