// Issue 28 in a real browser, against the real backend: PII tags offered from the registry's tags and
// a suggested vocabulary, checked against the one tag format, with the author in the history (#11);
// the type preview of containers with child types picked per slot (#8); a scale without precision said
// (#13); the list row refreshed by "Reload" after a conflict (#13); filter, sort and page kept in the
// URL (#13). axe checks every state each test ends in, and the states between.
import { AideClient } from '@aide/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  adminClient,
  axeAfterEach,
  axeViolations,
  go as goTo,
  launch,
  seededFlavor,
  shot,
  signedInPage,
} from './browser';

const baseUrl = inject('baseUrl');
const admin = inject('admin');
const reader = inject('reader');

let browser: Browser;
let page: Page;
let api: AideClient;
let peopleId: string;

beforeAll(async () => {
  browser = await launch();
  api = adminClient();
  const flavor = await seededFlavor(api);
  const system = await api.systems.create({ code: 'pii_pg', name: 'PII checks', flavor_id: flavor.id });
  const people = await api.datasets.create({
    kind: 'rdbms',
    system_id: system.id,
    object_name: 'public.people',
    schema_name: 'public',
    table_name: 'people',
  });
  peopleId = people.id;
  const published = await api.datasets.publishSchemaVersion(people.id, {
    columns: [
      { name: 'email_address', type: { data_type: 'text' } },
      { name: 'full_name', type: { data_type: 'text' } },
    ],
  });
  // Another user tagged full_name: the history names who.
  const other = new AideClient({ baseUrl, username: reader.email, password: reader.password, fetch });
  const fullName = published.version.columns.find((c) => c.name === 'full_name')?.field_id ?? '';
  await other.fieldClassifications.create({ field_id: fullName, pii_tags: ['name'], reason: 'a person' });
  await other.close();
  page = await signedInPage(browser);
});
axeAfterEach(() => page);
afterAll(async () => {
  await page?.close();
  await browser?.close();
  await api?.close();
});

const go = (path: string) => goTo(page, path);

describe('PII tags (#11)', () => {
  it('offers the tags in use and the suggested ones, refuses a free-text tag with its likely form', async () => {
    await go(`/datasets/${peopleId}`);
    await page.getByRole('heading', { level: 1, name: 'public.people' }).waitFor();
    await page.getByRole('button', { name: 'Tag email_address' }).click();
    const known = page.getByRole('group', { name: 'Known PII tags for email_address' });
    // In use (on full_name, counted) and suggested.
    await known.getByRole('button', { name: /^name\b/ }).waitFor();
    expect(await known.getByRole('button', { name: /^name\b/ }).getAttribute('title')).toMatch(
      /^on \d+ fields?$/,
    );
    // Suggested, or in use elsewhere (then with its count).
    const email = known.getByRole('button', { name: /^email( \d+)?$/ });
    expect(await email.getAttribute('aria-pressed')).toBe('false');
    const input = page.getByLabel('PII tags of email_address (comma-separated)');
    await input.fill('Name With Spaces!!');
    const alert = page.getByRole('alert').filter({ hasText: 'is not a tag' });
    await alert.waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'pii-tag-invalid');
    await alert.getByRole('button', { name: 'Use name_with_spaces' }).click();
    expect(await input.inputValue()).toBe('name_with_spaces');
    await email.click();
    expect(await email.getAttribute('aria-pressed')).toBe('true');
    expect(await input.inputValue()).toBe('name_with_spaces, email');
    await page.getByLabel('Reason for the classification of email_address').fill('an address');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.badge.pii', { hasText: 'name_with_spaces' }).waitFor();
  });

  it('names who recorded each entry of the history', async () => {
    const rows = page.locator('h2:has-text("PII classification history") + *').locator('tbody tr');
    await page.getByRole('cell', { name: 'an address' }).waitFor();
    const byReason = Object.fromEntries(
      await rows.evaluateAll((trs) =>
        trs.map((tr) => [tr.children[3]?.textContent ?? '', tr.children[4]?.textContent ?? '']),
      ),
    );
    expect(byReason).toEqual({ 'an address': admin.email, 'a person': reader.email });
    expect(await page.getByRole('columnheader', { name: 'By' }).count()).toBe(1);
  });
});

async function preview(flavor: string, code: string) {
  await go('/types');
  await page.getByRole('heading', { level: 1, name: 'Type catalogue' }).waitFor();
  await page.getByLabel('Flavor').first().selectOption({ label: flavor });
  await page.getByRole('rowheader', { name: code, exact: true }).waitFor();
  await page.getByRole('button', { name: `Preview ${code}`, exact: true }).click();
  return page.getByRole('form', { name: `Render preview of ${code}` });
}

describe('the type preview (#8, #13)', () => {
  it('asks for the element type of an array and renders it, never "takes no parameters"', async () => {
    const form = await preview('postgres14', 'array');
    expect(await form.getByText('This type takes no parameters').count()).toBe(0);
    await form.locator('output', { hasText: '(Choose the type in slot item.)' }).waitFor();
    await form.getByLabel('Type in slot item').selectOption('varchar');
    await form.getByLabel('length (varchar in item)').fill('10');
    await form.locator('output', { hasText: 'varchar(10)[]' }).waitFor();
    expect(await form.getByRole('alert').count()).toBe(0);
    await shot(page, 'type-preview-array');
  });

  it('takes a map key and value, and struct members by name, nesting containers', async () => {
    let form = await preview('iceberg_v2', 'map');
    await form.getByLabel('Type in slot key').selectOption('string');
    await form.getByLabel('Type in slot value').selectOption('list');
    await form.locator('output', { hasText: '(Choose the type in slot element.)' }).waitFor();
    await form.getByLabel('Type in slot element').selectOption('long');
    await form.locator('output', { hasText: 'map<string,list<long>>' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Close preview' }).click();
    form = await preview('iceberg_v2', 'struct');
    await form.getByRole('button', { name: 'Add a member to struct' }).click();
    await form.getByLabel('Member name').fill('id');
    await form.getByLabel('Type of member id').selectOption('long');
    await form.getByRole('button', { name: 'Add a member to struct' }).click();
    await form.getByLabel('Member name').last().fill('amount');
    await form.getByLabel('Type of member amount').selectOption('decimal');
    await form.getByLabel('precision (decimal in field:amount)').fill('12');
    await form.getByLabel('scale (decimal in field:amount)').fill('2');
    await form.locator('output', { hasText: 'struct<id:long,amount:decimal(12,2)>' }).waitFor();
    await form.getByRole('button', { name: 'Remove member id' }).click();
    await form.locator('output', { hasText: 'struct<amount:decimal(12,2)>' }).waitFor();
  });

  it('says that a scale without a precision is not rendered', async () => {
    const form = await preview('postgres14', 'numeric');
    await form.getByLabel('scale').fill('2');
    const warning = form.getByText('scale is not rendered without precision: set precision too.');
    await warning.waitFor();
    await form.locator('output', { hasText: /^numeric$/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await form.getByLabel('precision').fill('12');
    await form.locator('output', { hasText: 'numeric(12,2)' }).waitFor();
    expect(await warning.count()).toBe(0);
  });
});

describe('lists (#13)', () => {
  it('shows the reloaded row in the list after "Reload" on a conflict', async () => {
    await go('/reference/flavors');
    await page.getByRole('button', { name: 'Edit mysql8' }).click();
    const form = page.getByRole('form', { name: 'Edit flavor mysql8' });
    const flavor = (await api.systemFlavors.list({ code: 'mysql8' })).items[0];
    if (!flavor) throw new Error('no mysql8');
    await api.systemFlavors.update(
      flavor.id,
      { vendor: 'Vendor set elsewhere' },
      { ifMatch: flavor.row_version },
    );
    await form.getByLabel('Note').fill('mine');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('alert').filter({ hasText: 'Someone changed this' }).waitFor();
    await form.getByRole('button', { name: 'Reload' }).click();
    // The form shows the other writer's value, and so does the list row behind it, form still open.
    await expect.poll(() => form.getByLabel('Vendor').inputValue()).toBe('Vendor set elsewhere');
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'mysql8', exact: true }) });
    await row.getByRole('cell', { name: 'Vendor set elsewhere' }).waitFor();
    expect(await form.isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('keeps filter, sort and page in the URL, through Back and a reload', async () => {
    await go('/systems');
    await page.getByRole('link', { name: 'shop_pg' }).click();
    await page.getByRole('heading', { level: 1, name: 'shop_pg' }).waitFor();
    await page.getByLabel('Filter by name').fill('events');
    await page.getByText('Page 1 of 2 (30 in all)').waitFor();
    await page.getByLabel('Sort').selectOption({ label: 'Recently changed' });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2 (30 in all)').waitFor();
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'events', sort: '-updated_at', page: '2' });
    // Into a dataset and Back: the same list.
    await page.locator('main table a').first().click();
    await page.getByRole('heading', { level: 1, name: /events_/ }).waitFor();
    await page.goBack();
    await page.getByText('Page 2 of 2 (30 in all)').waitFor();
    expect(await page.getByLabel('Filter by name').inputValue()).toBe('events');
    expect(await page.getByLabel('Sort').inputValue()).toBe('-updated_at');
    // A reload signs out (tokens live in memory); signing in again shows the same list.
    await page.reload();
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Page 2 of 2 (30 in all)').waitFor();
    expect(await page.getByLabel('Filter by name').inputValue()).toBe('events');
  });
});
