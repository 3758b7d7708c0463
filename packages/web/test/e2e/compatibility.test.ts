// Compatibility levels and translations in the UI (issue 25), in a real Chromium against the real
// backend: the level of a dataset and where it comes from, a forced publish with its reason and the
// violations it overrode, the check of a version against the level, and "translate to…" with its loss
// report, a strict translation refused with TRANSLATION_LOSSY, copy and download of the output.
import { AideApiError, type AideClient } from '@aide/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LEVEL_MEANINGS } from '../../src/components/Compatibility';
import {
  adminClient,
  axeAfterEach,
  axeViolations,
  launch,
  PHONE,
  seededFlavor,
  shot,
  sidewaysOverflow,
  signedInPage,
  signIn,
} from './browser';

const baseUrl = inject('baseUrl');
const reader = inject('reader');
let browser: Browser;
let api: AideClient;
let datasetId: string;

const REASON = 'total moved to invoice_lines, agreed with finance';

/**
 * A system of its own (the other tests count shop_pg's datasets) with `public.invoices` at level FULL:
 * v1, then v2 without `total`, refused by the level and published by force.
 */
async function seed() {
  const flavor = await seededFlavor(api);
  const system = await api.systems.create({ code: 'billing_pg', name: 'Billing', flavor_id: flavor.id });
  const invoices = await api.datasets.create({
    kind: 'rdbms',
    system_id: system.id,
    object_name: 'public.invoices',
    schema_name: 'public',
    table_name: 'invoices',
  });
  datasetId = invoices.id;
  const v1 = [
    { name: 'invoice_no', nullable: false, type: { data_type: 'integer' } },
    { name: 'total', nullable: false, type: { data_type: 'numeric', params: { precision: 12, scale: 2 } } },
    { name: 'issued_at', type: { data_type: 'timestamptz' } },
    { name: 'billing_period', type: { data_type: 'interval' } },
  ];
  await api.datasets.publishSchemaVersion(invoices.id, {
    columns: v1,
    primary_key: { columns: ['invoice_no'] },
  });
  await api.compatibility.setDatasetCompatibility(invoices.id, 'FULL');
  const v2 = v1.filter((c) => c.name !== 'total');
  const refused = await api.datasets
    .publishSchemaVersion(invoices.id, { columns: v2, primary_key: { columns: ['invoice_no'] } })
    .catch((e: unknown) => e);
  expect((refused as AideApiError).errorCode).toBe('DATASET_SCHEMA_INCOMPATIBLE');
  await api.datasets.publishSchemaVersion(invoices.id, {
    columns: v2,
    primary_key: { columns: ['invoice_no'] },
    force_reason: REASON,
  });
}

beforeAll(async () => {
  browser = await launch();
  api = adminClient();
  await seed();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function openInvoices(page: Page) {
  await page.getByRole('combobox', { name: 'Search systems, datasets and fields' }).fill('invoices');
  await page.getByRole('option').filter({ hasText: 'public.invoices' }).first().click();
  await page.getByRole('heading', { name: 'public.invoices', exact: true }).waitFor();
}

describe('a regular user on a dataset with a compatibility level', () => {
  let context: BrowserContext;
  let page: Page;
  axeAfterEach(() => page);
  beforeAll(async () => {
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    await signIn(page, baseUrl, reader);
    await openInvoices(page);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('sees the level, where it comes from, and what it means', async () => {
    const level = page.getByTestId('compatibility-level');
    await level.getByText('Compatibility level: FULL (set on this dataset)').waitFor();
    expect(await level.locator('abbr').getAttribute('title')).toBe(LEVEL_MEANINGS.FULL);
    const registry = (await api.compatibility.getRegistryCompatibility()).level;
    expect(await level.textContent()).toContain(
      `Dataset: FULL · System default: inherited · Registry default: ${registry}`,
    );
    // Setting a level is for superusers, as the API has it.
    expect(await level.getByRole('button', { name: 'Set level' }).count()).toBe(0);
    await level.getByText('What the levels mean').click();
    await level.getByText(LEVEL_MEANINGS.BACKWARD_TRANSITIVE).waitFor();
  });

  it('sees the forced version with its reason and the violation it overrode', async () => {
    const row = page.getByRole('row', { name: /^v2 / });
    await row.getByText('forced').waitFor();
    expect(await row.locator('q').textContent()).toBe(REASON);
    await row.getByText('1 violation overridden').click();
    const violation = row.locator('table.violations tbody tr');
    expect(await violation.locator('td').allTextContents()).toEqual([
      'v1',
      'forward',
      expect.stringMatching(/^COLUMN_REMOVED/),
      'total',
      expect.any(String),
    ]);
    // v1 was not forced.
    expect(await page.getByRole('row', { name: /^v1 / }).getByText('passed').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'dataset-compatibility');
  });

  it('checks a version against the level: v1 again is refused, with the rule; v2 is accepted', async () => {
    await page.getByRole('button', { name: 'Check v1' }).click();
    const form = page.locator('form.check');
    expect(await form.getByLabel('Version to check').inputValue()).toBe('1');
    await form.getByRole('button', { name: 'Check compatibility' }).click();
    const result = form.getByTestId('check-result');
    await result.getByText('Refused').waitFor();
    expect(await result.textContent()).toContain(
      'Refused under FULL (set on this dataset), compared with v2.',
    );
    const cells = await result.locator('table.violations tbody tr').first().locator('td').allTextContents();
    expect(cells.slice(0, 2)).toEqual(['v2', 'backward']);
    expect(cells[2]).toMatch(/^COLUMN_ADDED_REQUIRED/);
    expect(cells[3]).toBe('total');
    await form.getByLabel('Version to check').selectOption('2');
    await form.getByRole('button', { name: 'Check compatibility' }).click();
    await result.getByText('Accepted').waitFor();
    // Edited before checking: v2 without issued_at is a removal, which FULL refuses.
    await form.getByText('Edit the would-be version').click();
    const body = form.getByLabel('Publish body to check (JSON)');
    const edited = JSON.parse(await body.inputValue()) as { columns: { name: string }[] };
    edited.columns = edited.columns.filter((c) => c.name !== 'issued_at');
    await body.fill(JSON.stringify(edited));
    await form.getByRole('button', { name: 'Check compatibility' }).click();
    await result.getByText('Refused').waitFor();
    expect(await result.textContent()).toContain('issued_at');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('translates v1 to mysql8: the DDL, the loss report, copy and download', async () => {
    await page.getByRole('button', { name: 'Translate v1' }).click();
    const form = page.locator('form.translate');
    await form.getByLabel('Target flavor').selectOption('mysql8');
    await form.getByRole('button', { name: 'Translate' }).click();
    const output = form.locator('pre.translation-content');
    await output.waitFor();
    const expected = await api.datasets.translateSchemaVersion(datasetId, 1, { flavor: 'mysql8' });
    expect(await output.textContent()).toBe(expected.content);
    expect(expected.content).toMatch(/CREATE TABLE/);
    expect(expected.lossy).toBe(true);
    const summary = form.locator('.loss-summary');
    await summary.getByText('Lossy:').waitFor();
    const lossy = expected.columns.filter((c) => c.fidelity !== 'exact' && c.fidelity !== 'widening');
    expect(await summary.locator('tbody th').allTextContents()).toEqual(lossy.map((c) => c.path));
    for (const o of expected.omissions) await summary.getByText(o.reason).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'translation');

    await form.getByRole('button', { name: 'Copy' }).click();
    await form.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected.content);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      form.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('public.invoices.v1.mysql8.sql');
  });

  it('asks for a strict translation and is shown why it was refused', async () => {
    const form = page.locator('form.translate');
    await form.getByLabel('Strict').check();
    await form.getByRole('button', { name: 'Translate' }).click();
    const alert = form.getByRole('alert');
    await alert.getByText('Not translated: the translation would lose information').waitFor();
    expect(await alert.textContent()).toContain('TRANSLATION_LOSSY');
    // What it would have lost, as the lenient translation reports it.
    const lenient = await api.datasets.translateSchemaVersion(datasetId, 1, { flavor: 'mysql8' });
    const lossy = lenient.columns.filter((c) => c.fidelity === 'lossy');
    expect(lossy.length).toBeGreaterThan(0);
    expect(await alert.locator('tbody th').allTextContents()).toEqual(lossy.map((c) => c.path));
    expect(await alert.locator('tbody td:nth-child(3)').allTextContents()).toEqual(
      lossy.map((c) => c.target_type),
    );
    expect(await form.locator('pre.translation-content').count()).toBe(0);
    const refused = await api.datasets
      .translateSchemaVersion(datasetId, 1, { flavor: 'mysql8', strict: true })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AideApiError);
    expect((refused as AideApiError).errorCode).toBe('TRANSLATION_LOSSY');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'translation-strict');
  });

  it('offers the formats a flavor has when asked for one it lacks', async () => {
    const form = page.locator('form.translate');
    await form.getByLabel('Strict').uncheck();
    await form.getByLabel('Format').selectOption('avro');
    await form.getByRole('button', { name: 'Translate' }).click();
    await form.getByRole('alert').filter({ hasText: 'TRANSLATION_FORMAT_UNSUPPORTED' }).waitFor();
    await form.getByRole('button', { name: 'DDL' }).click();
    expect(await form.getByLabel('Format').inputValue()).toBe('ddl');
    await form.getByRole('button', { name: 'Translate' }).click();
    await form.locator('pre.translation-content').waitFor();
    // Another flavor, in its own format: an Avro schema.
    await form.getByLabel('Format').selectOption('');
    await form.getByLabel('Target flavor').selectOption('avro');
    await form.getByRole('button', { name: 'Translate' }).click();
    await form.getByRole('heading', { name: 'v1 in avro (Avro schema)' }).waitFor();
    const schema = JSON.parse((await form.locator('pre.translation-content').textContent()) ?? '') as {
      type: string;
    };
    expect(schema.type).toBe('record');
    expect(await form.getByRole('link', { name: 'Download' }).getAttribute('download')).toBe(
      'public.invoices.v1.avro.avsc',
    );
  });

  it('stays readable on a phone', async () => {
    await page.setViewportSize(PHONE);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await shot(page, 'translation-phone');
  });
});

describe('a superuser', () => {
  let page: Page;
  axeAfterEach(() => page);
  beforeAll(async () => {
    page = await signedInPage(browser);
    await openInvoices(page);
  });
  afterAll(async () => {
    await page?.close();
  });

  it("sets the dataset's own level, then clears it to inherit the registry's", async () => {
    const level = page.getByTestId('compatibility-level');
    await level.getByText('Compatibility level: FULL (set on this dataset)').waitFor();
    await level.getByLabel("Dataset's own level").selectOption('BACKWARD_TRANSITIVE');
    await level.getByRole('button', { name: 'Set level' }).click();
    await level.getByText('Compatibility level: BACKWARD_TRANSITIVE (set on this dataset)').waitFor();
    expect((await api.compatibility.getDatasetCompatibility(datasetId)).level).toBe('BACKWARD_TRANSITIVE');
    await level.getByLabel("Dataset's own level").selectOption('');
    await level.getByRole('button', { name: 'Set level' }).click();
    const registry = (await api.compatibility.getRegistryCompatibility()).level;
    await level.getByText(`Compatibility level: ${registry} (the registry's default)`).waitFor();
    expect(await api.compatibility.getDatasetCompatibility(datasetId)).toMatchObject({
      level: null,
      source: 'registry',
      effective_level: registry,
    });
    expect(await axeViolations(page)).toEqual([]);
  });
});
