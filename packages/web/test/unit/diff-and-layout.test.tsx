import type { DatasetLineageGraph, SchemaVersion } from '@aide/sdk';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Highlight } from '../../src/components/common';
import { layout } from '../../src/components/Lineage';
import { diffRows } from '../../src/components/VersionDiff';
import { parseRoute } from '../../src/router';

type Column = SchemaVersion['columns'][number];
const column = (name: string, type: string, nullable = true): Column =>
  ({ name, rendered_type: type, native_type: null, nullable }) as Column;
const version = (...columns: Column[]) => ({ columns }) as SchemaVersion;

describe('diffRows', () => {
  it('matches columns by name and marks what breaks a reader', () => {
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
        column('added', 'date'),
      ),
    );
    expect(rows.map((r) => [r.name, r.change, r.breaking])).toEqual([
      ['id', 'changed', true],
      ['email', 'changed', true],
      ['n', 'same', false],
      ['added', 'added', false],
      ['gone', 'removed', true],
    ]);
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
