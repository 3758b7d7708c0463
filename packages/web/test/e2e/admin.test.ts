// Editing from the UI in a real Chromium against the real backend: a superuser edits a flavor (with a
// concurrent change answered by VERSION_CONFLICT, then reloaded), creates, previews and deletes a data
// type, tags a field with a reason and opens column lineage; a regular user sees no control the API
// would refuse. axe checks each new view; screenshots (laptop and phone) are artifacts, not assertions.
import { AideClient, PermissionDeniedError } from '@aide/sdk';
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
const reader = inject('reader');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function openTypes(page: Page, flavor: string) {
  await page.getByRole('link', { name: 'Types', exact: true }).click();
  await page.getByRole('heading', { name: 'Type catalogue' }).waitFor();
  await page.getByLabel('Flavor').first().selectOption({ label: flavor });
  await page.getByRole('rowheader', { name: 'varchar', exact: true }).waitFor();
}

describe('a superuser', () => {
  let page: Page;
  axeAfterEach(() => page);
  let api: AideClient;
  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    api = adminClient();
    await signIn(page, baseUrl, admin);
  });
  afterAll(async () => {
    await page?.close();
    await api?.close();
  });

  it('edits a flavor: a concurrent change is refused with VERSION_CONFLICT, reloaded, then saved', async () => {
    await page.getByRole('link', { name: 'Reference data' }).click();
    await page.getByRole('heading', { name: 'Reference data' }).waitFor();
    await page.getByRole('link', { name: 'System flavors' }).click();
    await page.getByRole('button', { name: 'Edit postgres14' }).click();
    const form = page.getByRole('form', { name: 'Edit flavor postgres14' });
    await form.getByLabel('Vendor').fill('PGDG, edited in the UI');
    // Someone else changes the flavor after the form was opened.
    const flavor = await seededFlavor(api);
    await api.systemFlavors.update(flavor.id, { note: 'changed elsewhere' }, { ifMatch: flavor.row_version });
    await form.getByRole('button', { name: 'Save changes' }).click();
    const alert = form.getByRole('alert');
    await alert.filter({ hasText: 'VERSION_CONFLICT' }).waitFor();
    expect(await alert.textContent()).toContain('Someone changed this since you opened it');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'flavor-conflict');
    await form.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => form.getByLabel('Note').inputValue()).toBe('changed elsewhere');
    await form.getByLabel('Vendor').fill('PGDG, edited in the UI');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('cell', { name: 'PGDG, edited in the UI' }).waitFor();
    const saved = await api.systemFlavors.get(flavor.id);
    // Only the changed field was sent: the other writer's note is kept.
    expect([saved.vendor, saved.note]).toEqual(['PGDG, edited in the UI', 'changed elsewhere']);
  });

  it('creates a data type with a params schema, previews it live, and deletes it', async () => {
    await openTypes(page, 'postgres14');
    await page.getByRole('button', { name: 'New data type' }).click();
    const form = page.getByRole('form', { name: 'New data type' });
    await form.getByLabel('Flavor').selectOption({ label: 'postgres14' });
    await form.getByLabel('Code').fill('varchar');
    await form.getByRole('button', { name: 'Create data type' }).click();
    await form.getByRole('alert').filter({ hasText: 'DATA_TYPE_ALREADY_EXISTS' }).waitFor();
    await form.getByLabel('Code').fill('ascii_fixed');
    await form.getByLabel('Params schema (JSON)').fill('{"type": "object", "properties": {');
    await form.getByRole('button', { name: 'Create data type' }).click();
    await form.getByText('not valid JSON').waitFor();
    await form
      .getByLabel('Params schema (JSON)')
      .fill(
        '{"type": "object", "properties": {"length": {"type": "integer", "minimum": 1, "maximum": 64}}, "required": ["length"]}',
      );
    await form.getByLabel('Render template').fill('ascii_fixed({{ length }})');
    await form.getByRole('button', { name: 'Create data type' }).click();
    await page.getByRole('rowheader', { name: 'ascii_fixed', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Preview ascii_fixed' }).click();
    const preview = page.getByRole('form', { name: 'Render preview of ascii_fixed' });
    const output = preview.locator('output');
    expect(await preview.getByLabel('length').evaluate((el) => el === document.activeElement)).toBe(true);
    await preview.getByLabel('length').fill('0');
    await preview.getByText('Too small').waitFor();
    expect(await output.textContent()).toBe('(fix the parameters)');
    expect(await preview.getByLabel('length').getAttribute('aria-invalid')).toBe('true');
    await preview.getByLabel('length').fill('12');
    await preview.locator('output', { hasText: 'ascii_fixed(12)' }).waitFor();
    await preview.getByText('Params schema of ascii_fixed').click();
    expect(await preview.locator('pre').textContent()).toContain('"maximum": 64');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'type-preview');
    // Keyboard: the preview took the focus when it opened; Escape closes it.
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Delete ascii_fixed' }).click();
    await page.getByRole('button', { name: 'Yes, delete ascii_fixed' }).click();
    await page.getByRole('rowheader', { name: 'ascii_fixed', exact: true }).waitFor({ state: 'detached' });
    expect((await api.dataTypes.list({ code: 'ascii_fixed' })).total).toBe(0);
  });

  it('previews a built-in type with and without its optional parameter, storing nothing', async () => {
    const instancesBefore = (await api.typeInstances.list({ size: 1 })).total;
    await page.getByRole('button', { name: 'Preview varchar' }).click();
    const preview = page.getByRole('form', { name: 'Render preview of varchar' });
    await preview.locator('output', { hasText: /^varchar$/ }).waitFor();
    await preview.getByLabel('length').fill('20');
    await preview.locator('output', { hasText: 'varchar(20)' }).waitFor();
    // Rendered by POST /type-instances/render: no type instance is created for a preview.
    expect((await api.typeInstances.list({ size: 1 })).total).toBe(instancesBefore);
  });

  it('tags a field as PII with a reason, shown in the history', async () => {
    await page.getByRole('combobox', { name: 'Search systems, datasets and fields' }).fill('placed_at');
    await page.getByRole('option').filter({ hasText: 'placed_at' }).first().click();
    await page.getByRole('heading', { name: 'public.orders', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Tag placed_at' }).click();
    await page.getByLabel('PII tags of placed_at (comma-separated)').fill('behaviour');
    await page.getByLabel('Reason for the classification of placed_at').fill('reveals habits');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'reveals habits' }).waitFor();
  });

  it('shows column lineage on demand, and a field node leads to its dataset', async () => {
    await page.getByRole('button', { name: 'Lineage of id' }).click();
    await page.getByRole('heading', { name: 'Column lineage of id' }).waitFor();
    const node = page.getByRole('link', { name: 'Field public.orders_copy.id' });
    await node.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'field-lineage');
    // Pan: dragging the background moves the view; zoom changes its size.
    const svg = page.locator('svg[aria-label^="Field lineage of id"]');
    const before = await svg.getAttribute('viewBox');
    await svg.scrollIntoViewIfNeeded();
    const box = await svg.boundingBox();
    if (!box) throw new Error('the graph is not laid out');
    await page.mouse.move(box.x + box.width - 20, box.y + box.height - 20);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 80, box.y + box.height - 60, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => svg.getAttribute('viewBox')).not.toBe(before);
    const panned = await svg.getAttribute('viewBox');
    await page.getByRole('button', { name: 'Zoom in' }).last().click();
    await expect.poll(() => svg.getAttribute('viewBox')).not.toBe(panned);
    await node.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'public.orders_copy', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Field public.orders.id' }).waitFor();
  });

  it('shows the PII history of every column of a wide dataset, past the first 100', async () => {
    // A system of its own: the other tests count shop_pg's datasets.
    const flavor = await seededFlavor(api);
    const system = await api.systems.create({ code: 'wide_pg', name: 'Wide tables', flavor_id: flavor.id });
    const wide = await api.datasets.create({
      kind: 'rdbms',
      system_id: system.id,
      object_name: 'public.wide_events',
      schema_name: 'public',
      table_name: 'wide_events',
    });
    const names = Array.from({ length: 130 }, (_, i) => `attr_${String(i).padStart(3, '0')}`);
    const published = await api.datasets.publishSchemaVersion(wide.id, {
      columns: names.map((name) => ({ name, type: { data_type: 'text' } })),
    });
    const fieldOf = new Map(published.version.columns.map((c) => [c.name, c.field_id]));
    // Columns 1 and 125 (beyond the first 100 field ids), and 125 twice: 3 entries in all.
    for (const [name, tags, reason] of [
      ['attr_001', ['email'], 'first column'],
      ['attr_125', ['phone'], 'wide column, first review'],
      ['attr_125', [], 'wide column, reviewed again'],
    ] as const) {
      await api.fieldClassifications.create({
        field_id: fieldOf.get(name) ?? '',
        pii_tags: [...tags],
        reason,
      });
    }
    await page.getByRole('combobox', { name: 'Search systems, datasets and fields' }).fill('wide_events');
    await page.getByRole('option').filter({ hasText: 'wide_events' }).first().click();
    await page.getByRole('heading', { name: 'public.wide_events', exact: true }).waitFor();
    const history = page.locator('h2:has-text("PII classification history") + *').locator('tbody tr');
    await page.getByRole('cell', { name: 'wide column, reviewed again' }).waitFor();
    expect(await history.count()).toBe(3);
    // Newest first.
    expect(await history.locator('td:nth-child(4)').allTextContents()).toEqual([
      'wide column, reviewed again',
      'wide column, first review',
      'first column',
    ]);
    expect(await history.locator('td:nth-child(2)').allTextContents()).toEqual([
      'attr_125',
      'attr_125',
      'attr_001',
    ]);
  });

  it('filters the cast rules by source and target flavor', async () => {
    await page.getByRole('link', { name: 'Reference data' }).click();
    await page.getByRole('link', { name: 'Cast rules' }).click();
    const sources = page.locator('table tbody th[scope="row"]');
    await sources.first().waitFor();
    const source = page.getByRole('combobox', { name: 'Source flavor' });
    await source.selectOption({ label: 'mysql8' });
    // Some rows, all of them mysql8 (an empty table while the filtered page loads would pass `every`).
    const onlyRowsOf = async (cells: typeof sources, prefix: string) => {
      const texts = await cells.allTextContents();
      return texts.length > 0 && texts.every((t) => t.startsWith(prefix));
    };
    await expect.poll(() => onlyRowsOf(sources, 'mysql8.')).toBe(true);
    const target = page.getByRole('combobox', { name: 'Target flavor' });
    await target.selectOption({ label: 'iceberg_v2' });
    const targets = page.locator('table tbody tr td:nth-child(2)');
    await expect.poll(() => onlyRowsOf(targets, 'iceberg_v2.')).toBe(true);
    // The same rules as the API's filter on the flavor's types.
    const flavor = (await api.systemFlavors.list({ code: 'iceberg_v2' })).items[0];
    const mysql = (await api.systemFlavors.list({ code: 'mysql8' })).items[0];
    const typeIds = async (id: string | undefined) =>
      (await api.dataTypes.list({ system_flavor_id: id ?? '', size: 100 })).items.map((t) => t.id).join(',');
    const expected = await api.castRules.list({
      source_data_type_id__in: await typeIds(mysql?.id),
      target_data_type_id__in: await typeIds(flavor?.id),
      size: 1,
    });
    await expect.poll(() => sources.count()).toBe(Math.min(expected.total, 50));
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'cast-rules-filtered');
    await source.selectOption({ label: 'any' });
    await target.selectOption({ label: 'any' });
  });
});

describe('a regular user', () => {
  let page: Page;
  axeAfterEach(() => page);
  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, baseUrl, reader);
  });
  afterAll(async () => {
    await page?.close();
  });

  it('sees no control the API would refuse, and the API does refuse them', async () => {
    expect(await page.locator('.user').textContent()).not.toContain('superuser');
    await page.getByRole('link', { name: 'Reference data' }).click();
    const controls = page.getByRole('button').filter({ hasText: /^(New|Edit|Delete)/ });
    for (const [tab, row] of [
      ['System kinds', 'rdbms'],
      ['Cast rules', /^(mysql8|postgres14)\./],
      ['System flavors', 'postgres14'],
    ] as const) {
      await page.getByRole('link', { name: tab }).click();
      await page.getByRole('rowheader', { name: row }).first().waitFor();
      expect(await controls.count()).toBe(0);
    }
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'reference-reader');
    const api = new AideClient({ baseUrl, username: reader.email, password: reader.password, fetch });
    try {
      const flavor = await seededFlavor(api);
      const refused = await api.systemFlavors
        .update(flavor.id, { note: 'x' }, { ifMatch: flavor.row_version })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PermissionDeniedError);
      expect((refused as PermissionDeniedError).errorCode).toBe('FORBIDDEN');
    } finally {
      await api.close();
    }
    // Systems: any user may create and edit one; deleting is for superusers.
    await page.getByRole('link', { name: 'Systems', exact: true }).last().click();
    await page.getByRole('button', { name: 'Edit shop_pg' }).waitFor();
    expect(await page.getByRole('button', { name: 'New system' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Delete shop_pg' }).count()).toBe(0);
    // Types: the preview is for everyone, editing is not.
    await openTypes(page, 'postgres14');
    await page.getByRole('button', { name: 'Preview varchar' }).waitFor();
    expect(await page.getByRole('button', { name: /^(New|Edit|Delete)/ }).count()).toBe(0);
  });

  it('previews a type through the API as a regular user', async () => {
    await page.getByRole('button', { name: 'Preview numeric' }).click();
    const preview = page.getByRole('form', { name: 'Render preview of numeric' });
    await preview.getByLabel('precision').fill('12');
    await preview.getByLabel('scale').fill('2');
    await preview.locator('output', { hasText: 'numeric(12,2)' }).waitFor();
  });

  it('is readable on a phone: no sideways scrolling of the page', async () => {
    await page.setViewportSize(PHONE);
    await page.getByRole('link', { name: 'Systems', exact: true }).first().click();
    await page.getByRole('link', { name: 'shop_pg' }).click();
    await page.getByLabel('Filter by name').fill('orders');
    await page.getByRole('link', { name: 'public.orders', exact: true }).click();
    await page.getByRole('rowheader', { name: 'customer_email' }).first().waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    await shot(page, 'dataset-phone');
    await page.getByRole('link', { name: 'Reference data' }).click();
    await page.getByRole('rowheader', { name: 'rdbms' }).waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    await shot(page, 'reference-phone');
  });
});
