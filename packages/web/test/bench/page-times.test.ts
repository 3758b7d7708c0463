// `pnpm --filter @aide/web bench:pages`: how long each main page takes to become interactive against a
// registry holding 10,000 more datasets (AIDE_WEB_BENCH_DATASETS), seeded through the bulk routes. A
// report, not a test of speed: nothing here asserts on time (the machine is shared and its load moves
// every figure); it checks that each page did render, prints a table and writes
// bench-results/web-pages.json. Time to interactive here = from the navigation (a cold load of /ui/, or
// the client-side route change a click makes) until the page's main content is in the DOM and the
// next animation frame has run, measured from Node (so it includes a few ms of DevTools round trip).
import { mkdirSync, writeFileSync } from 'node:fs';
import { AideClient } from '@aide/sdk';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, signIn } from '../e2e/browser';

const DATASETS = Number(process.env['AIDE_WEB_BENCH_DATASETS'] ?? 10_000);
const RUNS = Number(process.env['AIDE_WEB_BENCH_RUNS'] ?? 5);
const COLUMNS = 8;
const nameOf = (i: number) => `table_${String(i).padStart(5, '0')}`;
const LAST = nameOf(DATASETS - 1);
const MIDDLE = nameOf(Math.floor(DATASETS / 2));
const baseUrl = inject('baseUrl');
const admin = inject('admin');
let browser: Browser;
let page: Page;
let client: AideClient;
const seeded = { systemId: '', datasetId: '', seconds: 0 };

beforeAll(async () => {
  client = new AideClient({ baseUrl, username: admin.email, password: admin.password, fetch });
  const started = performance.now();
  const flavor = (await client.systemFlavors.list({ code: 'postgres14' })).items[0];
  if (!flavor) throw new Error('no postgres14 flavor');
  const system = await client.systems.create({
    code: 'bench_pg',
    name: 'Bench database',
    flavor_id: flavor.id,
  });
  const names = Array.from({ length: DATASETS }, (_, i) => nameOf(i));
  const created = await client.datasets.bulkCreate(
    names.map((name) => ({
      kind: 'rdbms' as const,
      system_id: system.id,
      object_name: `sales.${name}`,
      schema_name: 'sales',
      table_name: name,
      layer: 'raw' as const,
    })),
  );
  expect(created.summary.failed).toBe(0);
  const ids = created.items.map((r) => r.dataset?.id ?? '');
  const published = await client.datasets.bulkPublish(
    ids.map((id) => ({
      dataset_id: id,
      base_version_num: null,
      columns: Array.from({ length: COLUMNS }, (_, c) => ({
        name: c === 0 ? 'id' : `column_${c}`,
        nullable: c !== 0,
        type: { data_type: c % 2 ? 'text' : 'bigint' },
      })),
    })),
  );
  expect(published.summary.failed).toBe(0);
  seeded.systemId = system.id;
  seeded.datasetId = ids[Math.floor(ids.length / 2)] ?? '';
  seeded.seconds = (performance.now() - started) / 1000;
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 1_800_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
});

const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));

/** Milliseconds from `start` (which triggers the navigation) to `ready` visible plus one frame. */
async function timed(start: () => Promise<unknown>, ready: () => Locator): Promise<number> {
  const t0 = performance.now();
  await start();
  await ready().first().waitFor();
  await frame();
  return performance.now() - t0;
}

/** A client-side route change, as a click on a link makes it. */
const go = (path: string) =>
  page.evaluate((to) => {
    window.history.pushState(null, '', `/ui${to}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);

const results: { page: string; runs: number[] }[] = [];

async function measure(name: string, once: () => Promise<number>) {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await go('/crawl-runs'); // somewhere else first, so each run is a real change of page
    await page.getByRole('heading', { name: 'Crawl runs' }).waitFor();
    runs.push(await once());
  }
  results.push({ page: name, runs });
}

describe(`page times with ${DATASETS} more datasets`, () => {
  it('measures each main page', async () => {
    // Cold load: the app's JavaScript, then the login form ready.
    const cold: number[] = [];
    for (let i = 0; i < RUNS; i++)
      cold.push(
        await timed(
          () => page.goto(`${baseUrl}/ui/`, { waitUntil: 'commit' }),
          () => page.getByRole('button', { name: 'Sign in' }),
        ),
      );
    results.push({ page: 'first load (login form)', runs: cold });
    const login: number[] = [];
    login.push(
      await timed(
        () => signIn(page, baseUrl, admin),
        () => page.getByRole('link', { name: 'bench_pg' }),
      ),
    );
    await measure('systems list', () =>
      timed(
        () => go('/systems'),
        () => page.getByRole('link', { name: 'bench_pg' }),
      ),
    );
    await measure(`system page (${DATASETS} datasets, page 1)`, () =>
      timed(
        () => go(`/systems/${seeded.systemId}`),
        () => page.getByText(/Page 1 of \d+ \(\d+ in all\)/),
      ),
    );
    await measure('system page, filter typed', async () => {
      await go(`/systems/${seeded.systemId}`);
      await page.getByText(/Page 1 of \d+/).waitFor();
      return timed(
        () => page.getByLabel('Filter by name').fill(LAST.slice(0, -1)),
        () => page.getByRole('link', { name: `sales.${LAST}` }),
      );
    });
    await measure('dataset page (schema, history, lineage)', () =>
      timed(
        () => go(`/datasets/${seeded.datasetId}`),
        () => page.getByRole('rowheader', { name: 'column_7' }),
      ),
    );
    await measure('search as you type (results shown)', async () => {
      const box = page.getByRole('combobox', { name: 'Search systems, datasets and fields' });
      await box.fill('');
      return timed(
        () => box.fill(MIDDLE),
        () => page.getByRole('option').filter({ hasText: MIDDLE }),
      );
    });
    await measure('type catalogue (first flavor)', () =>
      timed(
        () => go('/types'),
        () => page.getByRole('button', { name: /^Preview / }),
      ),
    );
    await measure('reference data (flavors)', () =>
      timed(
        () => go('/reference/flavors'),
        () => page.getByRole('button', { name: 'Edit postgres14' }),
      ),
    );
    await measure('crawl runs', async () => {
      await go('/systems');
      await page.getByRole('link', { name: 'bench_pg' }).waitFor();
      return timed(
        () => go('/crawl-runs'),
        () => page.getByText('No crawl runs.'),
      );
    });

    const stat = (runs: number[]) => {
      const sorted = [...runs].sort((a, b) => a - b);
      return { median: sorted[Math.floor(sorted.length / 2)] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
    };
    const lines = [
      `web UI page times, ${DATASETS} extra datasets (${COLUMNS} columns each), ${RUNS} runs per page; seeding took ${seeded.seconds.toFixed(0)} s`,
      `sign-in to systems list: ${login[0]?.toFixed(0)} ms`,
      '| page | median ms | max ms |',
      '| --- | ---: | ---: |',
      ...results.map((r) => {
        const s = stat(r.runs);
        return `| ${r.page} | ${s.median.toFixed(0)} | ${s.max.toFixed(0)} |`;
      }),
    ];
    process.stdout.write(`\n${lines.join('\n')}\n`);
    const out = new URL('../../../../bench-results/', import.meta.url);
    mkdirSync(out, { recursive: true });
    writeFileSync(
      new URL('web-pages.json', out),
      `${JSON.stringify({ datasets: DATASETS, columns: COLUMNS, runs: RUNS, seeded_seconds: seeded.seconds, login_ms: login[0], results }, null, 2)}\n`,
    );
    expect(results.every((r) => r.runs.length === RUNS)).toBe(true);
  });
});
