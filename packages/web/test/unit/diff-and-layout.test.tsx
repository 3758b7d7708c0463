import type { DatasetLineageGraph, SchemaVersion, SchemaVersionDiff } from '@aide/sdk';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Highlight } from '../../src/components/common';
import { layout } from '../../src/components/Lineage';
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
  it('puts upstream left of the dataset and downstream right', () => {
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
    const pos = layout(
      [node('root', 0, 0), node('up', 1, null), node('down', null, 1), node('down2', null, 2)],
      'root',
    );
    const x = (id: string) => pos.get(id)?.x ?? NaN;
    expect(x('up')).toBeLessThan(x('root'));
    expect(x('root')).toBeLessThan(x('down'));
    expect(x('down')).toBeLessThan(x('down2'));
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
