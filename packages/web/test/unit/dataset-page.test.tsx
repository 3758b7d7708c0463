// Issue 28's dataset-page defects, rendered with a stub client: the diff as the server classes it
// (comment changes included, "1 column change"), no v1-vs-v1 diff, one not-found page, the system's
// name in the header, the tab title and focus, the new-system form's defaults.
import type { AideClient, SchemaVersion, SchemaVersionDiff, SchemaVersionSummary } from '@aide/sdk';
import { AideApiError } from '@aide/sdk';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildBody, type FieldSpec } from '../../src/components/EntityEditor';
import { NotFound, PageHeading } from '../../src/components/Page';
import { changeDetail, diffRows, plural, VersionDiff } from '../../src/components/VersionDiff';
import { DatasetPage } from '../../src/pages/Dataset';
import { SessionContext } from '../../src/session';

afterEach(cleanup);

type Column = SchemaVersion['columns'][number];
type SchemaChange = SchemaVersionDiff['changes'][number];
const column = (name: string, type: string, comment: string | null = null): Column =>
  ({ name, rendered_type: type, native_type: null, nullable: true, comment }) as Column;
const version = (num: number, ...columns: Column[]) => ({ version_num: num, columns }) as SchemaVersion;
const change = (
  category: SchemaChange['category'],
  name: string,
  compatibility: SchemaChange['compatibility'],
  before: unknown = null,
  after: unknown = null,
) => ({ category, name, before, after, compatibility, reason: 'r' }) as SchemaChange;
const summary = (num: number) =>
  ({ version_num: num, created_at: '2026-01-01T00:00:00Z', column_count: 2 }) as SchemaVersionSummary;

const notFound = (route: string) =>
  new AideApiError({
    status: 404,
    errorCode: 'NOT_FOUND',
    detail: 'no such thing',
    requestId: 'req-1',
    details: undefined,
    headers: {},
    route,
  });

/** A client whose `resource.method` calls answer from `calls`, every other call with `fallback`. */
function stub(calls: Record<string, () => Promise<unknown>>, fallback: () => Promise<unknown>) {
  return new Proxy(
    {},
    {
      get: (_, resource: string) =>
        new Proxy({}, { get: (__, method: string) => calls[`${resource}.${method}`] ?? fallback }),
    },
  );
}

function withClient(client: unknown, children: ReactNode) {
  return (
    <SessionContext.Provider
      value={{
        client: client as AideClient,
        user: { id: 'u', email: 'a@b.c', is_superuser: false } as never,
      }}
    >
      {children}
    </SessionContext.Provider>
  );
}

const v1 = version(1, column('code', 'varchar(20)'), column('ratio', 'real'), column('note', 'text', 'old'));
const v2 = version(
  2,
  column('code', 'varchar(30)'),
  column('ratio', 'double precision'),
  column('note', 'text', 'new'),
);
// What the diff route answers for v1 → v2: two widenings and a comment change, none breaking.
const diff = {
  compatibility: 'compatible',
  changes: [
    change('type_changed', 'code', 'compatible', 'varchar(20)', 'varchar(30)'),
    change('type_changed', 'ratio', 'compatible', 'real', 'double precision'),
    change('comment_changed', 'note', 'compatible', 'old', 'new'),
  ],
} as SchemaVersionDiff;

describe('the version diff', () => {
  it('shows a comment change with its old and new text, classed as the server classes it', () => {
    const rows = diffRows(v1, v2, diff);
    expect(rows.map((r) => [r.name, r.change, r.breaking])).toEqual([
      ['code', 'changed', false],
      ['ratio', 'changed', false],
      ['note', 'changed', false],
    ]);
    expect(rows[2]?.details).toEqual(['comment: “old” → “new” (compatible)']);
    expect(changeDetail(change('nullability_changed', 'x', 'breaking'))).toBe('nullability changed');
  });

  it('counts in words a person writes', () => {
    expect(plural(1, 'column change')).toBe('1 column change');
    expect(plural(0, 'column change')).toBe('0 column changes');
    expect(plural(3, 'column change')).toBe('3 column changes');
  });

  it('renders widenings as not breaking and the comment change, as the diff route says', async () => {
    const client = {
      datasets: {
        schemaVersion: vi.fn((_: string, n: number) => Promise.resolve(n === 1 ? v1 : v2)),
        diffSchemaVersions: vi.fn(() => Promise.resolve(diff)),
      },
    };
    render(withClient(client, <VersionDiff datasetId="d" versions={[summary(2), summary(1)]} />));
    await screen.findByText('3 column changes, 0 breaking.', { exact: false });
    expect(screen.queryByText('breaking', { selector: 'strong' })).toBeNull();
    expect(screen.getByText('comment: “old” → “new” (compatible)')).toBeTruthy();
    const oneChange = { compatibility: 'compatible', changes: [diff.changes[0]] } as SchemaVersionDiff;
    client.datasets.diffSchemaVersions.mockResolvedValue(oneChange);
    cleanup();
    render(withClient(client, <VersionDiff datasetId="d2" versions={[summary(2), summary(1)]} />));
    await screen.findByText('1 column change, 0 breaking.', { exact: false });
  });

  it('shows no v1-vs-v1 diff for a single version, and asks the server nothing', () => {
    const client = { datasets: { schemaVersion: vi.fn(), diffSchemaVersions: vi.fn() } };
    const { container } = render(withClient(client, <VersionDiff datasetId="d" versions={[summary(1)]} />));
    expect(container.textContent).toBe('Only one version so far (v1): nothing to compare yet.');
    expect(container.querySelector('table')).toBeNull();
    expect(client.datasets.diffSchemaVersions).not.toHaveBeenCalled();
  });
});

describe('the dataset page', () => {
  it('shows one not-found page with a heading for an unknown dataset', async () => {
    // Every call of the stub client is a 404, as the API answers for an unknown dataset id.
    const client = stub({}, () => Promise.reject(notFound('GET /api/v1/datasets/x')));
    const { container } = render(withClient(client, <DatasetPage id="x" />));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Dataset not found' });
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect(container.querySelectorAll('[role="alert"]')).toHaveLength(0);
    expect(container.textContent).not.toContain('No published version yet');
    expect(container.textContent).toContain('There is no dataset with the id x');
    // Focus and title are set in effects, which may run after the heading is in the document.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await waitFor(() => expect(document.title).toBe('Dataset not found · AIDE'));
  });

  it("names the dataset's system with its code, linked to the system", async () => {
    const dataset = {
      id: 'd',
      object_name: 'public.orders',
      kind: 'rdbms',
      system_id: 's1',
      layer: null,
      note: null,
    };
    // What the other sections ask for stays pending (not what this test is about).
    const client = stub(
      {
        'datasets.get': () => Promise.resolve(dataset),
        'systems.get': () => Promise.resolve({ id: 's1', code: 'shop_pg', name: 'Shop database' }),
      },
      () => new Promise(() => undefined),
    );
    render(withClient(client, <DatasetPage id="d" />));
    const link = await screen.findByRole('link', { name: /^Shop database/ });
    expect(link.textContent).toBe('Shop database (shop_pg)');
    expect(link.getAttribute('href')).toBe('/ui/systems/s1');
    await waitFor(() => expect(document.title).toBe('public.orders · AIDE'));
  });
});

describe('page headings', () => {
  it('name the tab and take the focus, but not from a field being typed in', () => {
    const input = document.createElement('input');
    document.body.append(input);
    input.focus();
    render(<PageHeading title="Somewhere" />);
    expect(document.title).toBe('Somewhere · AIDE');
    expect(document.activeElement).toBe(input);
    input.remove();
    cleanup();
    render(<NotFound />);
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBe(document.activeElement);
  });
});

describe('the new-system form', () => {
  const fields: FieldSpec[] = [
    { key: 'code', label: 'Code', kind: 'text' },
    {
      key: 'flavor_id',
      label: 'Flavor',
      kind: 'select',
      options: [{ value: 'f1', label: 'iceberg_v2' }],
      placeholder: 'Choose a flavor…',
      required: 'Choose the flavor of the system.',
    },
    { key: 'is_active', label: 'Active', kind: 'bool', initial: 'true' },
  ];
  it('refuses to create without a chosen flavor, with a message of its own', () => {
    const { errors } = buildBody(fields, { code: 'x', flavor_id: '', is_active: true }, null);
    expect(errors).toEqual({ flavor_id: 'Choose the flavor of the system.' });
    const chosen = buildBody(fields, { code: 'x', flavor_id: 'f1', is_active: true }, null);
    expect(chosen).toEqual({ body: { code: 'x', flavor_id: 'f1', is_active: true }, errors: {} });
  });
});
