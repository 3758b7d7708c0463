// `apply` reads what it needs of the registry (ADR 0032): the fingerprint listing (each dataset's
// current version number), then in full only the current versions of the report's datasets, instead
// of the whole snapshot. Against the real registry (behind a recording HTTP front) and the realistic
// PostgreSQL fixture: the plan is the one a full read gives — publish, create, kept, already applied,
// and stale when a version was published after the crawl or between the listing and the versions read.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apply, type ApplyCommandOptions, type ApplyOutcome } from '../src/commands/apply.js';
import { crawl } from '../src/commands/crawl.js';
import { ExitCode } from '../src/errors.js';
import type { CrawlReport } from '../src/report/report.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';
import {
  olderRegistry,
  registryFront,
  type FrontRequest,
  type RegistryFront,
} from './helpers/registry-front.js';
import { publishEditedColumn } from './helpers/versions.js';

let backend: TestBackend;
let db: TestPgDatabase;
let front: RegistryFront;
let tmp: string;
let reportFile: string;
let report: CrawlReport;
const SYSTEM = 'apply_fp_pg';

const ioVia = (registry: RegistryFront) => ({
  stdout: () => undefined,
  stderr: () => undefined,
  env: { ...backend.env, AIDE_METASTORE_URL: registry.url },
});

/** The snapshot reads among `requests`, the system id and query left out. */
const snapshotReads = (requests: readonly FrontRequest[]) =>
  requests
    .filter((r) => r.path.includes('/snapshot'))
    .map((r) => `${r.method} ${r.path.replace(/^.*\/systems\/[^/]+/, '/systems/{id}').replace(/\?.*/, '')}`);

/** The report applied through `registry` (default: the recording front), and the requests it sent. */
async function applyVia(
  options: ApplyCommandOptions,
  registry = front,
): Promise<{ outcome: ApplyOutcome; requests: FrontRequest[] }> {
  registry.requests.length = 0;
  const outcome = await apply(reportFile, options, ioVia(registry));
  return { outcome, requests: registry.requests.splice(0) };
}

/** A dry run both ways: the plans must be the same. Returns the fingerprint way's. */
async function planBothWays() {
  const light = await applyVia({ dryRun: true });
  const full = await applyVia({ dryRun: true, fullRegistryRead: true });
  expect(light.outcome.result).toEqual(full.outcome.result);
  expect(light.outcome.exitCode).toBe(full.outcome.exitCode);
  expect(snapshotReads(full.requests)).toEqual(['GET /systems/{id}/snapshot']);
  return light;
}

const itemOf = (outcome: ApplyOutcome, objectName: string) =>
  outcome.result.items.find((i) => i.object_name === objectName);

beforeAll(async () => {
  backend = await startBackend('apply_fp');
  db = await createPgDatabase('apply_fp');
  await db.exec(readFileSync(new URL('./fixtures/postgres-realistic.sql', import.meta.url), 'utf8'));
  await backend.createSystem(SYSTEM, 'postgres14');
  front = await registryFront(backend);
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-apply-fp-'));
  const io = ioVia(front);
  const first = join(tmp, 'first.json');
  await crawl({ systemCode: SYSTEM, connectionUrl: db.url, format: 'json', output: first }, io);
  expect((await apply(first, {}, io)).exitCode).toBe(ExitCode.OK);
  // The report under test: three changed tables, a new one, a removed one.
  await db.exec(`
    ALTER TABLE public.currencies ADD COLUMN symbol text;
    ALTER TABLE sales.customers ALTER COLUMN email TYPE varchar(320);
    COMMENT ON TABLE public.countries IS 'ISO 3166 countries, edited';
    CREATE TABLE public.brand_new (id int PRIMARY KEY);
    DROP TABLE hr.time_off;
  `);
  reportFile = join(tmp, 'report.json');
  report = (
    await crawl({ systemCode: SYSTEM, connectionUrl: db.url, format: 'json', output: reportFile }, io)
  ).report;
}, 180_000);

afterAll(async () => {
  await front?.close();
  await db?.drop();
  await backend?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe('an apply that reads the fingerprints first', () => {
  it("plans what a full read plans, reading in full only the report's versions", async () => {
    expect(report.datasets.map((d) => [d.object_name, d.status])).toEqual(
      expect.arrayContaining([
        ['public.currencies', 'changed'],
        ['sales.customers', 'changed'],
        ['public.countries', 'changed'],
        ['public.brand_new', 'new'],
        ['hr.time_off', 'removed'],
      ]),
    );
    const { outcome, requests } = await planBothWays();
    expect(outcome.result.summary).toMatchObject({ create: 1, publish: report.datasets.length - 2, kept: 1 });
    // The listing, then the versions the report has a target for (not the new table's, nor the removed one's).
    expect(snapshotReads(requests)).toEqual([
      'GET /systems/{id}/snapshot/fingerprints',
      'POST /systems/{id}/snapshot/versions',
    ]);
    const read = requests.find((r) => r.path.endsWith('/snapshot/versions'));
    const ids = (JSON.parse(read?.body ?? '{}') as { dataset_ids: string[] }).dataset_ids;
    const expected = report.datasets.filter((d) => d.dataset_id !== null && d.target !== null);
    expect([...ids].sort()).toEqual(expected.map((d) => d.dataset_id).sort());
    expect(ids.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses, as a full read does, a dataset published after the crawl', async () => {
    const client = backend.client();
    try {
      await publishEditedColumn(client, SYSTEM, 'public.countries', {
        index: 0,
        comment: 'edited after the crawl',
      });
    } finally {
      await client.close();
    }
    const { outcome } = await planBothWays();
    expect(itemOf(outcome, 'public.countries')).toMatchObject({
      action: 'stale',
      base_version_num: 1,
      version_num: 2,
    });
    expect(itemOf(outcome, 'public.currencies')).toMatchObject({ action: 'publish' });
    expect(outcome.exitCode).toBe(ExitCode.FAILURE);
  });

  it('refuses a dataset published between the listing and the versions read', async () => {
    // A front that publishes a version of sales.customers once the listing has given its base (v1),
    // before the versions read: the apply must see the newer version.
    let published: number | null = null;
    const racing = await registryFront(backend, async (seen) => {
      if (seen.method === 'POST' && seen.path.endsWith('/snapshot/versions') && published === null) {
        const client = backend.client();
        try {
          const edit = { index: 0, comment: 'edited between the reads' };
          published = (await publishEditedColumn(client, SYSTEM, 'sales.customers', edit)).version
            .version_num;
        } finally {
          await client.close();
        }
      }
      return false;
    });
    let applied: { outcome: ApplyOutcome; requests: FrontRequest[] };
    try {
      applied = await applyVia({}, racing);
    } finally {
      await racing.close();
    }
    expect(published).toBe(2);
    const { outcome } = applied;
    expect(outcome.exitCode).toBe(ExitCode.FAILURE);
    expect(itemOf(outcome, 'sales.customers')).toMatchObject({
      action: 'stale',
      base_version_num: 1,
      version_num: 2,
    });
    expect(itemOf(outcome, 'public.countries')).toMatchObject({ action: 'stale', version_num: 2 });
    expect(itemOf(outcome, 'public.currencies')).toMatchObject({ action: 'publish' });
    expect(outcome.result.summary).toMatchObject({ create: 1, stale: 2, kept: 1, failed: 0 });

    // Applied again: what was published is already applied, both ways; the two stay refused.
    const again = await planBothWays();
    expect(again.outcome.result.summary).toMatchObject({
      create: 0,
      publish: 0,
      stale: 2,
      kept: 1,
      already_applied: report.datasets.length - 3,
    });
  });

  it('against a registry that predates fingerprints, reads the whole snapshot and plans the same', async () => {
    const older = await olderRegistry(backend);
    try {
      const old = await applyVia({ dryRun: true }, older);
      const light = await applyVia({ dryRun: true });
      expect(old.outcome.result).toEqual(light.outcome.result);
      expect(snapshotReads(old.requests)).toEqual([
        'GET /systems/{id}/snapshot/fingerprints',
        'GET /systems/{id}/snapshot',
      ]);
    } finally {
      await older.close();
    }
  });
});
