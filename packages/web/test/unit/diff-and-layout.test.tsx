import type { DatasetLineageGraph, SchemaVersion, SchemaVersionDiff } from '@aide/sdk';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Highlight } from '../../src/components/common';
import { isCut, layout, mergeLineage } from '../../src/components/graph-layout';
import { diffRows, tableChanges } from '../../src/components/VersionDiff';
import { parseRoute } from '../../src/router';

type Column = SchemaVersion['columns'][number];
type SchemaChange = SchemaVersionDiff['changes'][number];
const column = (name: string, type: string, nullable = true): Column =>
  ({ name, rendered_type: type, native_type: null, nullable }) as Column;
const version = (...columns: Column[]) => ({ columns }) as SchemaVersion;

describe('diffRows', () => {
  it("shows the diff route's classes by column, never its own", () => {
    const change = (
      category: SchemaChange['category'],
      name: string | null,
      compatibility: SchemaChange['compatibility'],
    ) => ({ category, name, before: null, after: null, compatibility, reason: 'r' }) as SchemaChange;
    const diff = {
      compatibility: 'breaking',
      changes: [
        // A widening the registry classes compatible: the UI does not second-guess it.
        change('type_changed', 'id', 'compatible'),
        change('nullability_changed', 'email', 'breaking'),
        change('column_removed', 'gone', 'breaking'),
        // An added column the registry classes breaking (NOT NULL without a default).
        change('column_added', 'added', 'breaking'),
        // A constraint of a column's name is not a change of that column.
        change('unique_added', 'n', 'compatible'),
      ],
    } as SchemaVersionDiff;
    const rows = diffRows(
      version(
        column('id', 'integer', false),
        column('email', 'text'),
        column('gone', 'text'),
        column('n', 'int'),
      ),
      version(
        column('id', 'bigint', false),
        column('email', 'text', false),
        column('n', 'int'),
        column('added', 'date', false),
      ),
      diff,
    );
    expect(rows.map((r) => [r.name, r.change, r.breaking])).toEqual([
      ['id', 'changed', false],
      ['email', 'changed', true],
      ['n', 'same', false],
      ['added', 'added', true],
      ['gone', 'removed', true],
    ]);
    expect(tableChanges(diff).map((c) => [c.category, c.name])).toEqual([['unique_added', 'n']]);
  });
});

describe('layout', () => {
  const node = (id: string, up: number | null, down: number | null) =>
    ({
      id,
      object_name: id,
      kind: 'rdbms',
      layer: null,
      system_id: 's',
      upstream_depth: up,
      downstream_depth: down,
    }) as DatasetLineageGraph['nodes'][number];

  it('puts upstream left of the dataset and downstream right', () => {
    const graph = mergeLineage(
      'root',
      {
        nodes: [node('root', 0, 0), node('up', 1, null), node('down', null, 1), node('down2', null, 2)],
        edges: [],
      },
      null,
    );
    const pos = layout(graph);
    const x = (id: string) => pos.get(`dataset:${id}`)?.x ?? NaN;
    expect(x('up')).toBeLessThan(x('root'));
    expect(x('root')).toBeLessThan(x('down'));
    expect(x('down')).toBeLessThan(x('down2'));
    // Columns in use are packed: one node width and gap apart.
    expect(x('down') - x('root')).toBe(x('root') - x('up'));
  });

  it('puts a job between the datasets it reads and writes, in place of the link it explains', () => {
    const link = { id: 'l1', source_id: 'root', target_id: 'down', engine_id: null };
    const job = (key: string, type: 'job' | 'dataset', depth: number | null, id: string | null) => ({
      key,
      type,
      id,
      namespace: 'spark',
      name: key,
      object_name: null,
      upstream_depth: null,
      downstream_depth: depth,
    });
    const graph = mergeLineage(
      'root',
      { nodes: [node('root', 0, 0), node('down', null, 1)], edges: [link] },
      {
        nodes: [
          job('dataset:root', 'dataset', 0, 'root'),
          job('job:j1', 'job', 1, 'j1'),
          job('dataset:down', 'dataset', 2, 'down'),
          job('dataset:spark/seen', 'dataset', 2, null),
        ],
        edges: [
          { source: 'dataset:root', target: 'job:j1', role: 'input' },
          { source: 'job:j1', target: 'dataset:down', role: 'output' },
          { source: 'job:j1', target: 'dataset:spark/seen', role: 'output' },
        ],
      },
    );
    expect(graph.edges.map((e) => `${e.source}>${e.target}`).sort()).toEqual([
      'dataset:root>job:j1',
      'job:j1>dataset:down',
      'job:j1>dataset:spark/seen',
    ]);
    expect(graph.nodes.find((n) => n.key === 'job:j1')).toMatchObject({ kind: 'job', href: '/jobs/j1' });
    expect(graph.nodes.find((n) => n.key === 'dataset:spark/seen')).toMatchObject({
      kind: 'unregistered',
      href: null,
      label: 'spark/dataset:spark/seen',
    });
    const pos = layout(graph);
    const x = (k: string) => pos.get(k)?.x ?? NaN;
    expect(x('dataset:root')).toBeLessThan(x('job:j1'));
    expect(x('job:j1')).toBeLessThan(x('dataset:down'));
  });

  it('says when a label is longer than its box', () => {
    expect(isCut('public.orders')).toBe(false);
    expect(isCut(`public.${'x'.repeat(50)}`)).toBe(true);
  });
});

describe('Highlight', () => {
  it('renders segments as text, marking matches, never interpreting markup', () => {
    const { container } = render(
      <Highlight
        segments={[
          { text: '<b>', match: false },
          { text: 'bold', match: true },
        ]}
      />,
    );
    expect(container.querySelector('mark')?.textContent).toBe('bold');
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('<b>bold');
  });
});

describe('parseRoute', () => {
  it.each([
    ['/ui/', { page: 'systems' }],
    ['/ui/systems/abc', { page: 'system', id: 'abc' }],
    ['/ui/datasets/d1', { page: 'dataset', id: 'd1' }],
    ['/ui/types', { page: 'types' }],
    ['/ui/crawl-runs', { page: 'crawl-runs' }],
    ['/ui/nope', { page: 'not-found' }],
  ])('%s', (path, route) => {
    expect(parseRoute(path)).toEqual(route);
  });
});
