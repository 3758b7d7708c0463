// Issue 28 in a real browser: a session the server ended signs the user out with the reason (#4), a
// reload says why it signed out (#13), errors read as sentences with details on demand (#9), the
// crawl-runs page reads as who/what/when/result (#3), and the bundle is sent precompressed (#14).
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminClient, axeAfterEach, axeViolations, launch, signIn } from './browser';

let browser: Browser;
let page: Page;
const baseUrl = inject('baseUrl');
const admin = inject('admin');
const api = adminClient();

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
axeAfterEach(() => page);
afterAll(async () => {
  await api.close();
  await browser?.close();
});

describe('issue 28 (ui-b)', () => {
  it('says "Incorrect email or password", with the code and request id behind Details (#9)', async () => {
    await page.goto(`${baseUrl}/ui/`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Incorrect email or password.').waitFor();
    // The raw SDK message (status, code, route) is not what the user reads…
    expect(await alert.innerText()).not.toMatch(/401|INVALID_CREDENTIALS|POST \/api/);
    // …but it is one click away.
    await alert.getByText('Details').click();
    expect(await alert.innerText()).toMatch(/INVALID_CREDENTIALS \(401\)/);
    expect(await alert.innerText()).toMatch(/Request \S+/);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('reads a crawl run as system, kind, result and report (#3)', async () => {
    const system = (await api.systems.list({ code: 'shop_pg' })).items[0];
    if (!system) throw new Error('no shop_pg');
    const crawl = await api.crawlRuns.create({ system_id: system.id, config: { dialect: 'postgresql' } });
    await api.crawlRuns.update(crawl.id, {
      status: 'completed',
      summary: {
        datasets: { new: 0, changed: 2, removed: 0, unchanged: 1 },
        changes: { total: 5, compatible: 3, breaking: 2 },
        by_category: { type_changed: 2, column_added: 3 },
        unmapped_columns: 0,
      },
      row_version: crawl.row_version,
    });
    const apply = await api.crawlRuns.create({
      system_id: system.id,
      config: { command: 'apply', report_crawl_run_id: crawl.id },
    });
    await api.crawlRuns.update(apply.id, {
      status: 'completed',
      summary: { create: 0, publish: 2, already_applied: 0, stale: 0, kept: 0, failed: 0, incompatible: 0 },
      row_version: apply.row_version,
    });

    await signIn(page, baseUrl, admin);
    await page.getByRole('link', { name: 'Crawl runs' }).click();
    await page.getByRole('heading', { name: 'Crawl runs' }).waitFor();
    const crawlRow = page.getByRole('row').filter({ hasText: '5 changes: 2 breaking, 3 compatible' });
    await crawlRow.waitFor();
    expect(await crawlRow.getByRole('cell').nth(2).innerText()).toBe('Crawl');
    expect(await crawlRow.innerText()).not.toContain('{');
    const applyRow = page.getByRole('row').filter({ hasText: 'Datasets: 2 published' });
    expect(await applyRow.getByRole('cell').nth(2).innerText()).toBe('Apply');
    // The system by name, linked to its page.
    const systemLink = crawlRow.getByRole('link', { name: 'Shop database' });
    expect(await systemLink.getAttribute('href')).toBe(`/ui/systems/${system.id}`);
    // The report behind a disclosure: categories in words.
    await crawlRow.getByText('Report').click();
    expect(await crawlRow.innerText()).toMatch(/type changed: 2/);
    expect(await axeViolations(page)).toEqual([]);
    await systemLink.click();
    await page.getByRole('heading', { level: 1, name: system.code }).waitFor();
  });

  it('signs the user out with the reason when the session is revoked everywhere (#4)', async () => {
    await signIn(page, baseUrl, admin);
    // Another client of the same user signs out everywhere: the browser's refresh token is revoked.
    const other = adminClient();
    await other.auth.login();
    await other.auth.logoutAll();
    await other.close();
    await page.getByRole('link', { name: 'Crawl runs' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const status = page.getByRole('status');
    expect(await status.innerText()).toMatch(/Your session ended: you were signed out everywhere/);
    // Signed out: no header with the user, no raw 401 box.
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(await page.getByText('REFRESH_TOKEN_REVOKED').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('says why a reload signed the user out (#13)', async () => {
    await signIn(page, baseUrl, admin);
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').innerText()).toMatch(/The page was reloaded, which signs you out/);
    // Told without storing anything: no token, no flag.
    expect(await page.evaluate(() => window.localStorage.length + window.sessionStorage.length)).toBe(0);
    // Signing in again clears it.
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Systems' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').innerText()).toBe('You signed out.');
  });

  it('sends the bundle precompressed, cached for a year (#14)', async () => {
    const html = await (await fetch(`${baseUrl}/ui/`)).text();
    const asset = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    if (!asset) throw new Error('no script in index.html');
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${baseUrl}${asset}`, { headers: { 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await res.text()).length).toBeGreaterThan(100_000); // decoded by fetch: the whole bundle
    }
    const index = await fetch(`${baseUrl}/ui/`, { headers: { 'accept-encoding': 'br' } });
    expect(index.headers.get('content-encoding')).toBe('br');
    expect(index.headers.get('cache-control')).toBe('no-cache');
  });
});
