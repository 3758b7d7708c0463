// Issue 28's defects of the dataset and system pages in a real Chromium against the real backend: the
// version diff as the server classes it (widenings are not breaking, comment changes shown, "1 column
// change"), no v1-vs-v1 diff, one not-found page for an unknown URL, the system's name in the dataset
// header, a 130-character table name at phone width, the new-system form's defaults, the tab title,
// the focus after navigation and the favicon. axe checks each new view.
import { type AideClient } from '@aide/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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

const baseUrl = inject('baseUrl');
const admin = inject('admin');
// A table name of 130 characters without a space to break at.
const LONG = `t_${'very_long_segment_'.repeat(7)}`.padEnd(130, 'x');
const UNKNOWN_ID = '00000000-0000-4000-8000-00000000dead';

let browser: Browser;
let page: Page;
let api: AideClient;
let flavorId: string;

beforeAll(async () => {
  browser = await launch();
  api = adminClient();
  const flavor = await seededFlavor(api);
  flavorId = flavor.id;
  // A system of its own: the other tests count shop_pg's datasets.
  const system = await api.systems.create({ code: 'pages_pg', name: 'Page checks', flavor_id: flavorId });
  const dataset = (name: string) =>
    api.datasets.create({
      kind: 'rdbms',
      system_id: system.id,
      object_name: `public.${name}`,
      schema_name: 'public',
      table_name: name,
    });
  const widened = await dataset('widened');
  await api.datasets.publishSchemaVersion(widened.id, {
    columns: [
      { name: 'code', type: { data_type: 'varchar', params: { length: 20 } } },
      { name: 'ratio', type: { data_type: 'real' } },
      { name: 'note', type: { data_type: 'text' }, comment: 'old comment' },
    ],
  });
  await api.datasets.publishSchemaVersion(widened.id, {
    columns: [
      { name: 'code', type: { data_type: 'varchar', params: { length: 30 } } },
      { name: 'ratio', type: { data_type: 'double' } },
      { name: 'note', type: { data_type: 'text' }, comment: 'new comment' },
    ],
  });
  const oneChange = await dataset('one_change');
  for (const length of [20, 30])
    await api.datasets.publishSchemaVersion(oneChange.id, {
      columns: [
        { name: 'id', nullable: false, type: { data_type: 'integer' } },
        { name: 'code', type: { data_type: 'varchar', params: { length } } },
      ],
    });
  const single = await dataset('single');
  await api.datasets.publishSchemaVersion(single.id, {
    columns: [{ name: 'id', nullable: false, type: { data_type: 'integer' } }],
  });
  const long = await api.datasets.create({
    kind: 'rdbms',
    system_id: system.id,
    object_name: LONG,
    schema_name: 'public',
    table_name: LONG,
  });
  await api.datasets.publishSchemaVersion(long.id, {
    columns: [
      { name: 'id', nullable: false, type: { data_type: 'integer' } },
      { name: 'email', type: { data_type: 'text' } },
    ],
  });
});
axeAfterEach(() => page);
afterAll(async () => {
  await page?.close();
  await browser?.close();
  await api?.close();
});

const go = (path: string) => goTo(page, path);

async function openDataset(name: string) {
  await page.getByRole('link', { name: 'Systems', exact: true }).first().click();
  await page.getByRole('link', { name: 'pages_pg' }).click();
  await page.getByRole('heading', { level: 1, name: 'pages_pg' }).waitFor();
  await page.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

describe('an unknown URL', () => {
  it('shows one not-found page with a heading, after signing in on it', async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404 && !r.url().includes('/api/')) missing.push(new URL(r.url()).pathname);
    });
    const favicons: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/favicon.ico') favicons.push(r.url());
    });
    await page.goto(`${baseUrl}/ui/datasets/${UNKNOWN_ID}`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const heading = page.getByRole('heading', { level: 1, name: 'Dataset not found' });
    await heading.waitFor();
    const main = page.locator('main');
    expect(await main.getByRole('heading').count()).toBe(1);
    expect(await main.getByRole('alert').count()).toBe(0);
    expect(await main.textContent()).not.toContain('No published version yet');
    expect(await main.textContent()).toContain(UNKNOWN_ID);
    expect(await page.title()).toBe('Dataset not found · AIDE');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'dataset-not-found');
    // An unknown system and an unknown page alike.
    await go(`/systems/${UNKNOWN_ID}`);
    await page.getByRole('heading', { level: 1, name: 'System not found' }).waitFor();
    await go('/nowhere/at/all');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found · AIDE');
    // No 404 of the page's own files: the icon is the bundled one, /favicon.ico is never asked for.
    expect(missing).toEqual([]);
    expect(favicons).toEqual([]);
  });

  it('serves the icon the page declares', async () => {
    const html = await (await fetch(`${baseUrl}/ui/`)).text();
    const href = /<link rel="icon"[^>]*href="([^"]+)"/.exec(html)?.[1];
    expect(href).toMatch(/^\/ui\/assets\/favicon-[\w-]+\.svg$/);
    const icon = await fetch(`${baseUrl}${href ?? ''}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });
});

describe('the dataset page', () => {
  beforeAll(async () => {
    if (!page) {
      page = await signedInPage(browser);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('names its system, classes the diff as the server does and shows the comment change', async () => {
    await openDataset('public.widened');
    // The tab title follows the page; the focus lands on its heading.
    expect(await page.title()).toBe('public.widened · AIDE');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    const system = page.getByRole('link', { name: /^Page checks/ });
    expect((await system.textContent())?.trim()).toBe('Page checks (pages_pg)');
    // varchar(20) → varchar(30) and real → double precision widen: not breaking.
    await page.getByText('3 column changes, 0 breaking.').waitFor();
    const diff = page.locator('table.diff');
    expect(await diff.locator('strong.breaking').count()).toBe(0);
    await diff.getByText('comment: “old comment” → “new comment” (compatible)').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'dataset-diff');
    await system.click();
    await page.getByRole('heading', { level: 1, name: 'pages_pg' }).waitFor();
    expect(await page.title()).toBe('pages_pg · AIDE');
  });

  it('says "1 column change" when one column changed', async () => {
    await openDataset('public.one_change');
    await page.getByText('1 column change, 0 breaking.').waitFor();
    // The same version on both sides: nothing changed.
    await page.getByLabel('with').selectOption({ index: 1 });
    await page.getByText('No column changes.').waitFor();
  });

  it('shows no v1-vs-v1 diff for a single version', async () => {
    await openDataset('public.single');
    await page.getByText('Only one version so far (v1): nothing to compare yet.').waitFor();
    expect(await page.locator('table.diff').count()).toBe(0);
    expect(await page.getByLabel('Compare').count()).toBe(0);
  });

  it('moves the focus to the heading of a page reached from the menu, and names the tab', async () => {
    await page.getByRole('link', { name: 'Types', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Type catalogue' }).waitFor();
    expect(await page.title()).toBe('Types · AIDE');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Type catalogue');
  });

  it('keeps a 130-character table name inside a phone-width page, its buttons reachable', async () => {
    await page.setViewportSize(PHONE);
    await page.getByRole('link', { name: 'Systems', exact: true }).first().click();
    await page.getByRole('link', { name: 'pages_pg' }).click();
    // In the list the name is cut, whole on hover and for a screen reader.
    const link = page.getByRole('link', { name: LONG, exact: true });
    expect(await link.getAttribute('title')).toBe(LONG);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await link.click();
    const heading = page.getByRole('heading', { level: 1, name: LONG, exact: true });
    await heading.waitFor();
    await page.getByRole('rowheader', { name: 'email' }).waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    const box = await heading.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(PHONE.width);
    for (const name of ['Tag email', 'Lineage of email']) {
      const button = page.getByRole('button', { name, exact: true });
      await button.scrollIntoViewIfNeeded();
      const b = await button.boundingBox();
      expect(b).not.toBeNull();
      expect((b?.x ?? -1) >= 0 && (b?.x ?? 0) + (b?.width ?? 0) <= PHONE.width).toBe(true);
    }
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'dataset-long-name-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describe('the new-system form', () => {
  it('starts active with no flavor chosen, and says a flavor must be chosen', async () => {
    await page.getByRole('link', { name: 'Reference data' }).click();
    await page.getByRole('heading', { name: 'Reference data' }).waitFor();
    await page.getByRole('link', { name: 'Systems', exact: true }).last().click();
    await page.getByRole('button', { name: 'New system' }).click();
    const form = page.getByRole('form', { name: 'New system' });
    expect(await form.getByLabel('Active').isChecked()).toBe(true);
    const flavor = form.getByLabel('Flavor');
    expect(await flavor.inputValue()).toBe('');
    expect(await flavor.locator('option:checked').textContent()).toBe('Choose a flavor…');
    await form.getByLabel('Code').fill('formed_pg');
    await form.getByLabel('Name').fill('Made in the form');
    await form.getByRole('button', { name: 'Create system' }).click();
    await form.getByText('Choose the flavor of the system.').waitFor();
    expect((await api.systems.list({ code: 'formed_pg' })).items).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await flavor.selectOption({ label: 'postgres14' });
    await form.getByRole('button', { name: 'Create system' }).click();
    await page.getByRole('link', { name: 'formed_pg' }).waitFor();
    const created = (await api.systems.list({ code: 'formed_pg' })).items[0];
    expect(created?.is_active).toBe(true);
    expect(created?.flavor_id).toBe(flavorId);
  });
});
