// The lineage graph in a real Chromium against the real backend (issue 28 #12): arrows on every edge,
// a cut label named in full, zoom about the pointer and the centre, the wheel zooming the graph and not
// the page, pan, keyboard-reachable nodes, a readable graph at phone width, and the OpenLineage jobs
// between the datasets they read and write, leading to their job pages. axe checks each state.
import { randomUUID } from 'node:crypto';
import type { AideClient } from '@aide/sdk';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminClient,
  axeAfterEach,
  axeViolations,
  go as goTo,
  launch,
  PHONE,
  seededFlavor,
  shot,
  sidewaysOverflow,
  signedInPage,
} from './browser';

const NS = 'web-lineage-warehouse';
const JOB = 'build_clicks_daily';
const LONG = `mart.clicks_${'by_country_and_device_'.repeat(3)}final`;

let browser: Browser;
let page: Page;
let api: AideClient;
let rootId: string;
let jobId: string;

beforeAll(async () => {
  browser = await launch();
  api = adminClient();
  const flavor = await seededFlavor(api);
  const system = await api.systems.create({
    code: 'lineage_pg',
    name: 'Lineage checks',
    flavor_id: flavor.id,
    extra: { openlineage_namespace: NS },
  });
  const table = async (name: string) => {
    const [schema, tableName] = name.split('.') as [string, string];
    const d = await api.datasets.create({
      kind: 'rdbms',
      system_id: system.id,
      object_name: name,
      schema_name: schema,
      table_name: tableName,
    });
    await api.datasets.publishSchemaVersion(d.id, {
      columns: [{ name: 'id', nullable: false, type: { data_type: 'integer' } }],
    });
    return d;
  };
  rootId = (await table('raw.clicks')).id;
  await table('mart.clicks_daily');
  await table(LONG);
  await api.lineage.sendOpenLineageEvent({
    eventType: 'COMPLETE',
    eventTime: '2026-12-07T10:00:00Z',
    producer: 'https://example.com/web-test',
    run: { runId: randomUUID() },
    job: { namespace: 'spark', name: JOB },
    inputs: [{ namespace: NS, name: 'raw.clicks' }],
    outputs: [
      { namespace: NS, name: 'mart.clicks_daily' },
      { namespace: NS, name: LONG },
      { namespace: NS, name: 'mart.not_registered' },
    ],
  });
  const job = (await api.lineage.jobs.list({ namespace: 'spark', name: JOB })).items[0];
  if (!job) throw new Error('the job was not recorded');
  jobId = job.id;
  page = await signedInPage(browser);
});
axeAfterEach(() => page);
afterAll(async () => {
  await page?.close();
  await browser?.close();
  await api?.close();
});

const go = (path: string) => goTo(page, path);

const graph = () => page.locator('svg[aria-label^="Lineage graph"]');
const centre = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not laid out');
  return { x: b.x + b.width / 2, y: b.y + b.height / 2, width: b.width };
};

async function openRoot() {
  await go(`/datasets/${rootId}`);
  await page.getByRole('heading', { level: 1, name: 'raw.clicks' }).waitFor();
  await graph().waitFor();
  await graph().scrollIntoViewIfNeeded();
}

describe('the lineage graph', () => {
  it('shows the job between the datasets it reads and writes, with arrows, and leads to the job page', async () => {
    await openRoot();
    expect(await graph().getAttribute('aria-label')).toBe('Lineage graph: 4 datasets, 1 job, 4 links');
    const job = page.getByRole('link', { name: `Job spark/${JOB}` });
    expect(await job.getAttribute('href')).toBe(`/ui/jobs/${jobId}`);
    // Every edge ends in an arrowhead that exists.
    const edges = graph().locator('path.edge');
    expect(await edges.count()).toBe(4);
    const markers = new Set(await edges.evaluateAll((els) => els.map((e) => e.getAttribute('marker-end'))));
    expect(markers.size).toBe(1);
    const id = /^url\(#(.+)\)$/.exec([...markers][0] ?? '')?.[1] ?? '';
    expect(await graph().locator(`marker[id="${id}"]`).count()).toBe(1);
    // The job sits between the dataset it reads and those it writes; no direct link stands for it.
    const root = await centre(page.getByRole('link', { name: 'Dataset raw.clicks' }));
    const jobAt = await centre(job);
    const out = await centre(page.getByRole('link', { name: 'Dataset mart.clicks_daily' }));
    expect(root.x < jobAt.x && jobAt.x < out.x).toBe(true);
    // A dataset the run wrote that nobody registered: shown, set apart, not a link.
    const seen = page.getByRole('img', { name: `Unregistered dataset ${NS}/mart.not_registered` });
    expect(await seen.count()).toBe(1);
    expect(await page.locator('.legend').innerText()).toMatch(
      /dataset\s+job\s+dataset seen by OpenLineage, not registered/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'lineage-jobs');
  });

  it('cuts a long label in its box, and names it in full (tooltip and accessible name)', async () => {
    const node = page.getByRole('link', { name: `Dataset ${LONG}`, exact: true });
    // The box clips the name and marks the cut: less of the text shows than it is long.
    const text = node.locator('text');
    const widths = await text.evaluate((t: SVGTextElement) => {
      const id = /^url\("?#([^")]+)"?\)$/.exec(t.getAttribute('clip-path') ?? '')?.[1] ?? '';
      const clip = document.getElementById(id)?.querySelector('rect');
      return { text: t.getBBox().width, clip: clip?.width.baseVal.value ?? Infinity, box: 180 };
    });
    expect(widths.clip).toBeLessThan(widths.box);
    expect(widths.text).toBeGreaterThan(widths.clip);
    expect(await node.locator('.more circle').count()).toBe(3);
    expect(await node.locator('title').textContent()).toBe(`Dataset ${LONG}`);
    // Hover (or focus) shows the whole name under the graph, for touch screens too.
    await node.locator('rect').hover();
    await page.locator('.graph-status', { hasText: LONG }).waitFor();
  });

  it('zooms about the pointer with the wheel, leaving the page where it was', async () => {
    const root = page.getByRole('link', { name: 'Dataset raw.clicks' });
    const before = await centre(root);
    const scrollY = await page.evaluate(() => window.scrollY);
    await page.mouse.move(before.x, before.y);
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => (await centre(root)).width).toBeGreaterThan(before.width * 1.2);
    const after = await centre(root);
    // The point under the pointer stays under it.
    expect(Math.abs(after.x - before.x)).toBeLessThan(2);
    expect(Math.abs(after.y - before.y)).toBeLessThan(2);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);
  });

  it('zooms about the centre with the buttons, and pans by dragging', async () => {
    await page.getByRole('button', { name: 'Reset' }).click();
    const box = await graph().boundingBox();
    if (!box) throw new Error('not laid out');
    const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const job = page.getByRole('link', { name: `Job spark/${JOB}` });
    const before = await centre(job);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await centre(job)).width).toBeGreaterThan(before.width * 1.2);
    const after = await centre(job);
    // Distances from the centre grow by the zoom factor: the centre stays put.
    expect(after.x - mid.x).toBeCloseTo((before.x - mid.x) * 1.25, 0);
    expect(after.y - mid.y).toBeCloseTo((before.y - mid.y) * 1.25, 0);
    // Drag the background: everything moves with the pointer.
    await page.mouse.move(box.x + 8, box.y + box.height - 8);
    await page.mouse.down();
    await page.mouse.move(box.x + 68, box.y + box.height - 38, { steps: 5 });
    await page.mouse.up();
    const panned = await centre(job);
    expect(panned.x - after.x).toBeCloseTo(60, 0);
    expect(panned.y - after.y).toBeCloseTo(-30, 0);
  });

  it('reaches the nodes with the keyboard, and opens one with Enter', async () => {
    await page.getByRole('button', { name: 'Reset' }).focus();
    const names: string[] = [];
    for (let i = 0; i < 8 && !names.includes(`Job spark/${JOB}`); i++) {
      await page.keyboard.press('Tab');
      names.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''));
    }
    expect(names).toContain('Dataset raw.clicks');
    expect(names).toContain(`Job spark/${JOB}`);
    await page.getByRole('link', { name: 'Dataset mart.clicks_daily' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'mart.clicks_daily' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('is readable at phone width: nodes at a readable size, the root in view, no sideways page', async () => {
    await page.setViewportSize(PHONE);
    await openRoot();
    const box = await graph().boundingBox();
    const root = await page.getByRole('link', { name: 'Dataset raw.clicks' }).locator('rect').boundingBox();
    if (!box || !root) throw new Error('not laid out');
    // Drawn at 85% or more of its size (13px labels stay 11px or larger)…
    expect(root.width).toBeGreaterThanOrEqual(180 * 0.85 - 1);
    // …and inside the visible part of the graph.
    expect(root.x).toBeGreaterThanOrEqual(box.x);
    expect(root.x + root.width).toBeLessThanOrEqual(box.x + box.width);
    expect(await sidewaysOverflow(page)).toEqual([]);
    // Tabbing to a node out of view brings it into view.
    const last = page.getByRole('link', { name: `Dataset ${LONG}`, exact: true });
    await last.focus();
    await expect
      .poll(async () => {
        const b = await last.locator('rect').boundingBox();
        return !!b && b.x >= box.x - 1 && b.x + b.width <= box.x + box.width + 1;
      })
      .toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'lineage-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
