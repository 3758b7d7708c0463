// The catalogue UI in a real Chromium (Debian's, driven by playwright-core) against the real backend:
// log in, search with the `/` shortcut, open a dataset, compare two versions, follow lineage, tag a
// field as PII, log out. Screenshots of the main pages go to test-results/ (artifacts, not assertions);
// axe-core checks each main page for serious or critical accessibility violations.
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeAfterEach, axeViolations as axeOf, launch, shot as shotOf } from './browser';

let browser: Browser;
let page: Page;
const baseUrl = inject('baseUrl');
const admin = inject('admin');
const shot = (name: string) => shotOf(page, name);
const axeViolations = () => axeOf(page);

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
axeAfterEach(() => page);
afterAll(async () => {
  await browser?.close();
});

describe('catalogue UI', () => {
  it('serves the app at /ui with long-lived caching for hashed assets only', async () => {
    const index = await fetch(`${baseUrl}/ui/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const asset = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${baseUrl}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A client-side route is the app too; a missing asset is a 404, not the app.
    expect((await fetch(`${baseUrl}/ui/datasets/x`)).headers.get('content-type')).toMatch(/text\/html/);
    expect((await fetch(`${baseUrl}/ui/assets/nope.js`)).status).toBe(404);
  });

  it('refuses a wrong password, then logs in', async () => {
    await page.goto(`${baseUrl}/ui/`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await axeViolations()).toEqual([]);
    await shot('login');
    await page.getByLabel('Password').fill(admin.password);
    const requests: string[] = [];
    const record = (r: { url(): string }) => requests.push(new URL(r.url()).pathname);
    page.on('request', record);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Systems' }).waitFor();
    await page.getByRole('link', { name: 'shop_pg' }).waitFor();
    // Dataset counts: one request for the page (GET /systems/dataset-counts), none per system.
    await page
      .getByRole('row', { name: /shop_pg/ })
      .getByRole('cell', { name: '32' })
      .waitFor();
    page.off('request', record);
    expect(requests.filter((p) => p === '/api/v1/systems/dataset-counts')).toHaveLength(1);
    expect(requests.filter((p) => p === '/api/v1/datasets')).toEqual([]);
    expect(await page.evaluate(() => window.localStorage.length + window.sessionStorage.length)).toBe(0);
    expect(await axeViolations()).toEqual([]);
    await shot('systems');
  });

  it("lists a system's datasets with filter and paging", async () => {
    await page.getByRole('link', { name: 'shop_pg' }).click();
    await page.getByRole('heading', { name: 'shop_pg' }).waitFor();
    await page.getByText('Page 1 of 2 (32 in all)').waitFor();
    await page.getByLabel('Filter by name').fill('orders');
    await page.getByText('Page 1 of 1 (2 in all)').waitFor();
    expect(await axeViolations()).toEqual([]);
    await shot('system');
  });

  it('searches as you type from the / shortcut and opens the dataset', async () => {
    await page.locator('main').click();
    await page.keyboard.press('/');
    await page.keyboard.type('custom');
    const option = page.getByRole('option').filter({ hasText: 'customer_email' }).first();
    await option.waitFor();
    expect(await option.locator('mark').first().textContent()).toBe('custom');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'public.orders', exact: true }).waitFor();
  });

  it('shows the schema, compares two versions side by side and marks breaking changes', async () => {
    await page.getByRole('rowheader', { name: 'placed_at' }).first().waitFor();
    const diff = page.locator('table.diff');
    await diff.waitFor();
    await page.getByText('3 column changes, 1 breaking. Overall: breaking.').waitFor();
    expect(await diff.locator('tr.diff-removed th').textContent()).toBe('amount');
    expect(await diff.locator('tr.diff-added th').textContent()).toBe('placed_at');
    expect(await axeViolations()).toEqual([]);
    await shot('dataset');
  });

  it('tags a field as PII and shows it in the history', async () => {
    await page.getByRole('button', { name: 'Tag customer_email' }).click();
    await page.getByLabel('PII tags of customer_email (comma-separated)').fill('email, personal');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.badge.pii', { hasText: 'email' }).first().waitFor();
    await page.getByRole('cell', { name: 'email, personal' }).waitFor();
  });

  it('follows lineage to the downstream dataset', async () => {
    await page.getByRole('link', { name: 'Dataset public.orders_copy' }).click();
    await page.getByRole('heading', { name: 'public.orders_copy', exact: true }).waitFor();
  });

  it('shows the type catalogue and crawl runs pages', async () => {
    await page.getByRole('link', { name: 'Types' }).click();
    const flavor = page.getByLabel('Flavor');
    await flavor.locator('option', { hasText: 'postgres14' }).waitFor({ state: 'attached' });
    const value = await flavor.locator('option', { hasText: 'postgres14' }).getAttribute('value');
    await flavor.selectOption(value ?? '');
    await page.getByRole('rowheader', { name: 'varchar', exact: true }).waitFor();
    expect(await axeViolations()).toEqual([]);
    await shot('types');
    await page.getByRole('link', { name: 'Crawl runs' }).click();
    await page.getByRole('heading', { name: 'Crawl runs', level: 1 }).waitFor();
    // Other test files share the backend and may have recorded runs: a table or the empty note.
    await page.getByRole('table').or(page.getByText('No crawl runs.')).first().waitFor();
  });

  it('logs out and is back at the login form', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
