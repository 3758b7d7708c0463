// Issue 28's "what people expect next", in a real Chromium against the real backend: the search page
// (paging, facets with counts that filter, highlighted matches, a column hit landing on its row), the
// dataset header (flavor, location, the last crawl naming it, linked to its run), a refused publish
// saying why, OpenLineage jobs and runs, and unknown datasets registered in one click. axe on each state.
import { randomUUID } from 'node:crypto';
import type { AideClient } from '@aide/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminClient,
  axeAfterEach,
  axeViolations,
  launch,
  PHONE,
  seededFlavor,
  shot,
  sidewaysOverflow,
  signIn,
} from './browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
let browser: Browser;
let page: Page;
let api: AideClient;
/** Uncaught errors of the page: none is expected (a crash would blank the app). */
const pageErrors: string[] = [];

const RUN_ID = randomUUID();
const PARENT_RUN_ID = randomUUID();
const PRODUCER = 'https://github.com/apache/airflow/tree/providers-openlineage/2.1.0';
const event = (eventType: string, eventTime: string, runFacets: Record<string, unknown> = {}) => ({
  eventType,
  eventTime,
  producer: PRODUCER,
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  run: { runId: RUN_ID, facets: runFacets },
  job: {
    namespace: 'airflow_ui',
    name: 'daily_orders.summarise',
    facets: {
      jobType: {
        _producer: PRODUCER,
        _schemaURL: 'x',
        processingType: 'BATCH',
        integration: 'AIRFLOW',
        jobType: 'TASK',
      },
      sourceCodeLocation: {
        _producer: PRODUCER,
        _schemaURL: 'x',
        type: 'git',
        url: 'https://git.example.com/dags/daily_orders.py',
      },
    },
  },
  inputs: [{ namespace: 'ol_pg', name: 'public.raw_orders' }],
  outputs: [
    {
      namespace: 'ol_pg',
      name: 'public.orders_daily',
      facets: {
        schema: {
          _producer: PRODUCER,
          _schemaURL: 'x',
          fields: [
            { name: 'day', type: 'date' },
            { name: 'total', type: 'numeric' },
          ],
        },
      },
    },
  ],
});

beforeAll(async () => {
  browser = await launch();
  api = adminClient();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await signIn(page, baseUrl, admin);
});
axeAfterEach(() => page);
afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await api?.close();
  await browser?.close();
});

async function ordersId(): Promise<string> {
  const found = await api.datasets.list({ object_name: 'public.orders' });
  const id = found.items[0]?.id;
  if (!id) throw new Error('no public.orders');
  return id;
}

describe('the search page', () => {
  it('is reached from the search box, pages every result, and counts them by facet', async () => {
    await page.getByRole('combobox', { name: 'Search systems, datasets and fields' }).fill('events');
    await page.getByRole('option', { name: /See all results/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Search: events' }).waitFor();
    expect(new URL(page.url()).search).toBe('?q=events');
    // The catalogue has 30 events_NN datasets (global-setup), and other tests may add more.
    const expected = await api.searchWithFacets({ q: 'events', size: 20 });
    expect(expected.total).toBeGreaterThanOrEqual(30);
    await page.getByText(`${expected.total} results.`).waitFor();
    expect(await page.locator('ol.search-hit-list > li').count()).toBe(20);
    expect(await page.locator('ol.search-hit-list mark').first().textContent()).toBe('events');
    const filters = page.getByRole('complementary', { name: 'Filters' });
    const shown = (await filters.getByRole('button').allTextContents()).sort();
    const text = (label: string, n: number) => `${label} (${n})`;
    const f = expected.facets!;
    expect(shown).toEqual(
      [
        ...f.kind.map((c) => text(c.value === 'field' ? 'column' : c.value, c.count)),
        ...f.system.map((c) => text(c.label ?? '', c.count)),
        ...f.flavor.map((c) => text(c.value, c.count)),
        ...f.pii_tag.map((c) => text(c.value, c.count)),
        ...f.has_lineage.map((c) => text(c.value === 'true' ? 'has lineage' : 'no lineage', c.count)),
      ].sort(),
    );
    expect(shown).toContain(text('Shop database (shop_pg)', 30));
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`Page 2 of ${expected.pages} (${expected.total} in all)`).waitFor();
    expect(await page.locator('ol.search-hit-list > li').count()).toBe(Math.min(20, expected.total - 20));
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await shot(page, 'search-page');
  });

  it('filters by a facet (kept in the address), and a column hit lands on its row, highlighted', async () => {
    await page.getByRole('searchbox', { name: 'Search the catalogue' }).fill('customer');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Search: customer' }).waitFor();
    const filters = page.getByRole('complementary', { name: 'Filters' });
    await filters.getByRole('button', { name: /^column \(\d+\)$/ }).click();
    await filters.getByRole('button', { name: /^column/, pressed: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('kind')).toBe('field');
    // public.orders is the source of a lineage hop: its column counts as having lineage.
    expect(await filters.getByRole('button', { name: /^has lineage \(\d+\)$/ }).count()).toBe(1);
    const hit = page.locator('ol.search-hit-list > li').filter({ hasText: 'customer_email' });
    expect(await hit.locator('mark').textContent()).toBe('customer');
    expect(await hit.textContent()).toContain('shop_pg / public.orders / customer_email');
    expect(await axeViolations(page)).toEqual([]);
    // A pressed facet removes its filter; the filter lives in the address.
    await filters.getByRole('button', { name: /^column/, pressed: true }).click();
    await filters.getByRole('button', { name: /^column/, pressed: false }).waitFor();
    expect(new URL(page.url()).searchParams.get('kind')).toBeNull();
    await hit.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'public.orders' }).waitFor();
    const row = page.locator('tr.highlighted');
    await row.waitFor();
    expect(await row.getAttribute('aria-current')).toBe('true');
    expect(await row.locator('th').textContent()).toBe('customer_email');
    const box = await row.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= 900).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('stays readable on a phone', async () => {
    await page.setViewportSize(PHONE);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describe('the dataset header', () => {
  it('shows system, kind, flavor, location, layer and the last crawl naming it, linked to the run', async () => {
    const id = await ordersId();
    const orders = await api.datasets.get(id);
    const crawl = await api.crawlRuns.create({
      system_id: orders.system_id,
      config: { dialect: 'postgresql' },
    });
    await api.crawlRuns.update(crawl.id, {
      status: 'completed',
      summary: { changes: { total: 0 }, datasets: { unchanged: 1 } },
      diff_payload: {
        datasets: [{ object_name: 'public.orders', dataset_id: id, status: 'unchanged', changes: [] }],
      },
      row_version: crawl.row_version,
    });
    // A newer run of the same system whose report names another dataset: not the one to link.
    const other = await api.crawlRuns.create({ system_id: orders.system_id, config: {} });
    await api.crawlRuns.update(other.id, {
      status: 'completed',
      diff_payload: { datasets: [{ object_name: 'public.other', dataset_id: randomUUID() }] },
      row_version: other.row_version,
    });
    // The header asks the server for the newest run naming the dataset: one run, no reports to scan.
    const asked: URL[] = [];
    const onRequest = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/crawl-runs') asked.push(url);
    };
    page.on('request', onRequest);
    // In-app navigation (a reload would sign out: tokens live in memory), from another page so that
    // the dataset page is opened anew.
    await page.getByRole('link', { name: 'Systems' }).click();
    await page.getByRole('heading', { level: 1, name: 'Systems' }).waitFor();
    await page.evaluate((path) => {
      window.history.pushState(null, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, `/ui/datasets/${id}`);
    const header = page.getByTestId('dataset-header');
    await header.getByText('postgres14').waitFor();
    const facts = Object.fromEntries(
      await header
        .locator('div')
        .evaluateAll((divs) =>
          divs.map((d) => [
            d.querySelector('dt')?.textContent ?? '',
            d.querySelector('dd')?.textContent ?? '',
          ]),
        ),
    );
    expect(facts).toMatchObject({
      System: 'Shop database (shop_pg)',
      Kind: 'rdbms',
      Flavor: "postgres14 (its system's)",
      Location: 'public.orders',
      Layer: 'source',
    });
    const last = header.getByRole('link', { name: /^Crawl of .* \(completed\)$/ });
    await last.waitFor();
    page.off('request', onRequest);
    const naming = asked.filter((url) => url.searchParams.has('dataset_id'));
    expect(naming.map((url) => Object.fromEntries(url.searchParams))).toEqual([
      expect.objectContaining({ dataset_id: id, size: '1' }),
    ]);
    expect(await last.getAttribute('href')).toBe(`/ui/crawl-runs/${crawl.id}`);
    expect(await axeViolations(page)).toEqual([]);
    await last.click();
    await page.getByRole('heading', { level: 1, name: 'Crawl run' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/ui/crawl-runs/${crawl.id}`);
    await page.locator('table.crawl-runs tbody tr').first().waitFor();
    expect(await page.locator('table.crawl-runs tbody tr').count()).toBe(1);
    expect(await page.locator('table.crawl-runs').textContent()).toContain('Shop database');
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('a refused publish', () => {
  it('says which changes the level refuses, in words', async () => {
    const flavor = await seededFlavor(api);
    const system = await api.systems.create({
      code: 'contracts_pg',
      name: 'Contracts',
      flavor_id: flavor.id,
    });
    const ds = await api.datasets.create({
      kind: 'rdbms',
      system_id: system.id,
      object_name: 'public.agreements',
      schema_name: 'public',
      table_name: 'agreements',
    });
    await api.datasets.publishSchemaVersion(ds.id, {
      columns: [
        { name: 'agreement_no', nullable: false, type: { data_type: 'integer' } },
        { name: 'signed_on', type: { data_type: 'date' } },
      ],
    });
    await api.compatibility.setDatasetCompatibility(ds.id, 'FULL');
    await page.getByRole('link', { name: 'Systems' }).click();
    await page.getByRole('combobox', { name: 'Search systems, datasets and fields' }).fill('agreements');
    await page.getByRole('option').filter({ hasText: 'public.agreements' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'public.agreements' }).waitFor();
    const form = page.locator('form.check');
    await form.getByText('Edit the would-be version').click();
    const body = form.getByLabel('Publish body to check (JSON)');
    await body.waitFor();
    await expect.poll(() => body.inputValue()).toContain('signed_on');
    const edited = JSON.parse(await body.inputValue()) as { columns: { name: string }[] };
    edited.columns = edited.columns.filter((c) => c.name !== 'signed_on');
    await body.fill(JSON.stringify(edited));
    await form.getByRole('button', { name: 'Publish as a new version' }).click();
    const refused = form.getByTestId('publish-refused');
    await refused.getByText('Not published.').waitFor();
    expect(await refused.textContent()).toContain('level FULL refuses this version');
    const sentences = await refused.locator('ul.violation-sentences li').allTextContents();
    expect(sentences).toContainEqual(
      expect.stringMatching(
        /^signed_on: .*readers still on v1 could not read data written under the new version\.$/,
      ),
    );
    expect((await api.datasets.schemaVersions(ds.id)).length).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'publish-refused');
  });
});

describe('OpenLineage jobs, runs and unknown datasets', () => {
  beforeAll(async () => {
    // A system of their own (its code is its OpenLineage namespace), so that other tests' counts hold.
    const flavor = await seededFlavor(api);
    const system = await api.systems.create({ code: 'ol_pg', name: 'Lineage source', flavor_id: flavor.id });
    await api.datasets.create({
      kind: 'rdbms',
      system_id: system.id,
      object_name: 'public.raw_orders',
      schema_name: 'public',
      table_name: 'raw_orders',
    });
    await api.lineage.sendOpenLineageEvent(
      event('START', '2026-12-01T02:00:00.000Z', {
        nominalTime: { _producer: PRODUCER, _schemaURL: 'x', nominalStartTime: '2026-12-01T00:00:00.000Z' },
        parent: {
          _producer: PRODUCER,
          _schemaURL: 'x',
          run: { runId: PARENT_RUN_ID },
          job: { namespace: 'airflow_ui', name: 'daily_orders' },
        },
      }),
    );
    await api.lineage.sendOpenLineageEvent(
      event('FAIL', '2026-12-01T02:01:30.000Z', {
        errorMessage: {
          _producer: PRODUCER,
          _schemaURL: 'x',
          message: 'division by zero in <total>',
          programmingLanguage: 'python',
          stackTrace: 'Traceback (most recent call last): ...',
        },
      }),
    );
  });

  it('lists the jobs with their latest run, filtered by name in the address', async () => {
    await page.getByRole('link', { name: 'Jobs' }).click();
    await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
    await page.getByLabel('Name contains').fill('summarise');
    await page.getByRole('button', { name: 'Filter' }).click();
    const row = page.getByRole('row', { name: /daily_orders\.summarise/ });
    await row.waitFor();
    expect(new URL(page.url()).searchParams.get('name')).toBe('summarise');
    expect(await row.locator('td').first().textContent()).toBe('airflow_ui');
    expect(await row.getByText('FAILED').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole('link', { name: 'daily_orders.summarise' }).click();
    await page.getByRole('heading', { level: 1, name: 'daily_orders.summarise' }).waitFor();
  });

  it("shows a job's type, source, inputs and outputs, and its runs with state and duration", async () => {
    expect(await page.locator('dl.dataset-header').textContent()).toContain('AIRFLOW · TASK · BATCH');
    expect(await page.locator('dl.dataset-header').textContent()).toContain(
      'git https://git.example.com/dags/daily_orders.py',
    );
    await page.getByRole('link', { name: /public\.raw_orders$/ }).waitFor();
    await page.getByText('public.orders_daily (not registered)').waitFor();
    const run = page.locator('table.runs tbody tr');
    await run.first().waitFor();
    expect(await run.count()).toBe(1);
    expect(await run.locator('td').allTextContents()).toEqual([
      'FAILED',
      expect.any(String),
      expect.any(String),
      '1 min 30 s',
      expect.any(String),
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await run.getByRole('link', { name: RUN_ID }).click();
    await page.getByRole('heading', { level: 1, name: 'Run of daily_orders.summarise' }).waitFor();
  });

  it('shows a run: state, times, nominal time, parent, error, inputs/outputs and its events as text', async () => {
    const facts = page.getByTestId('run-facts');
    expect(await facts.textContent()).toContain('FAILED');
    expect(await facts.textContent()).toContain('1 min 30 s');
    expect(await facts.textContent()).toContain(PARENT_RUN_ID);
    expect(await facts.textContent()).toContain('Nominal time');
    // The message is text: its markup is shown, never interpreted.
    await page.locator('.run-error').getByText('division by zero in <total>').waitFor();
    await page.getByText('public.orders_daily (not registered)').waitFor();
    const events = page.locator('ol.run-events > li');
    expect(await events.count()).toBe(2);
    await events.nth(1).locator('summary').click();
    expect(await events.nth(1).locator('summary').textContent()).toMatch(/^FAIL at /);
    const sent = JSON.parse((await events.nth(1).locator('pre').textContent()) ?? '{}') as {
      run: { runId: string };
      eventType: string;
    };
    expect(sent).toMatchObject({ eventType: 'FAIL', run: { runId: RUN_ID } });
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'run-page');
  });

  it('lists the unknown dataset with fields, times and jobs, and registers it in one click', async () => {
    await page.getByRole('link', { name: 'Unknown datasets' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Unknown datasets' }).waitFor();
    const row = page.getByRole('row', { name: /public\.orders_daily/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('day date, total numeric');
    expect(await row.textContent()).toContain('daily_orders.summarise (output)');
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole('button', { name: 'Register public.orders_daily' }).click();
    await row.getByRole('link', { name: 'Registered' }).waitFor();
    const registered = (await api.datasets.list({ object_name: 'public.orders_daily' })).items[0];
    expect(registered).toBeDefined();
    expect(
      (await api.lineageObservations.unknownDatasets({ registered: true })).items.map((u) => u.name),
    ).toContain('public.orders_daily');
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole('link', { name: 'Registered' }).click();
    await page.getByRole('heading', { level: 1, name: 'public.orders_daily' }).waitFor();
    // Its version 1 is the fields seen.
    await page.getByRole('rowheader', { name: 'total' }).waitFor();
  });
});
