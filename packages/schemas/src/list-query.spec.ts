import { describe, expect, it } from '@jest/globals';
import { listQuerySchema } from './common/list-query.js';
import { crawlRunResource } from './entities/crawl-run.js';
import { datasetResource } from './entities/dataset.js';
import { systemResource } from './entities/system.js';
import * as schemas from './index.js';
import { buildOpenApiDocument } from './openapi.js';
import type { ListSpec } from './common/list-query.js';
import type { ResourceDef } from './resource.js';
import { PROVIDER_RESOURCES } from './resources.js';
import { userResource } from './entities/user.js';

/** Every ResourceDef the package exports, whichever list (if any) it is filed in. */
const EVERY_RESOURCE = (Object.values(schemas) as unknown[]).filter(
  (value: unknown): value is ResourceDef =>
    typeof value === 'object' && value !== null && 'path' in value && 'notFound' in value && 'list' in value,
);

/** The query is refused, with an issue at `path` (dot-joined; '' for the query as a whole). */
function expectRejectedAt(schema: ReturnType<typeof listQuerySchema>, query: object, path: string): void {
  const result = schema.safeParse(query);
  expect(result.success).toBe(false);
  expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path);
}

const systems = listQuerySchema(systemResource.list);
const datasets = listQuerySchema(datasetResource.list);

describe('list query', () => {
  it('parses paging, sort and filter operators', () => {
    const q = systems.parse({
      page: '2',
      size: '10',
      sort: '-created_at, code',
      code__in: 'a, b,,',
      is_active: 'false',
    });
    expect(q).toEqual({
      page: 2,
      size: 10,
      sort: [
        { field: 'created_at', direction: 'DESC' },
        { field: 'code', direction: 'ASC' },
      ],
      filters: [
        { field: 'code', op: 'in', value: ['a', 'b'] },
        { field: 'is_active', op: 'eq', value: false },
      ],
      include_deleted: false,
    });
  });

  it.each([
    [{ size: '101' }, 'size'],
    [{ size: '0' }, 'size'],
    [{ page: '0' }, 'page'],
    [{ sort: 'password' }, 'sort'],
    [{ nope: 'x' }, ''],
    [{ flavor_id: 'not-a-uuid' }, 'flavor_id'],
    [{ is_active: 'yes' }, 'is_active'],
  ])('rejects %j', (query, path) => expectRejectedAt(systems, query, path));

  it('applies the default sort', () => {
    expect(systems.parse({}).sort).toEqual([{ field: 'code', direction: 'ASC' }]);
  });
});

describe('list query: keyset paging (cursor, total) on every collection', () => {
  it('adds nothing to a query naming neither', () => {
    expect(Object.keys(datasets.parse({})).sort()).toEqual([
      'filters',
      'include_deleted',
      'page',
      'size',
      'sort',
    ]);
  });

  it('passes the cursor (opaque) and the total mode on', () => {
    expect(datasets.parse({ cursor: 'abc_-1', total: 'none', sort: '-created_at' })).toMatchObject({
      cursor: 'abc_-1',
      total: 'none',
      page: 1,
    });
    expect(datasets.parse({ total: 'estimate' }).total).toBe('estimate');
  });

  it.each([
    [{ cursor: 'abc', page: '2' }, 'page'],
    [{ cursor: 'a b' }, 'cursor'],
    [{ cursor: 'a'.repeat(2001) }, 'cursor'],
    [{ total: 'all' }, 'total'],
  ])('rejects %j', (query, path) => expectRejectedAt(datasets, query, path));

  it('finds every collection, the provider registry and users included', () => {
    expect(EVERY_RESOURCE).toEqual(expect.arrayContaining([...PROVIDER_RESOURCES, userResource]));
  });

  it.each(EVERY_RESOURCE.map((def) => [def.path, def] as const))(
    'is taken by %s, on each of its sorts either way (nullable columns included)',
    (_path, def) => {
      const query = listQuerySchema(def.list);
      expect(query.parse({ total: 'none' }).total).toBe('none');
      expect(def.list.sortable.length).toBeGreaterThan(0);
      for (const field of def.list.sortable)
        for (const sort of [field, `-${field}`])
          expect({ sort, cursor: query.parse({ cursor: 'abc', sort }).cursor }).toEqual({
            sort,
            cursor: 'abc',
          });
    },
  );

  it('is taken on a compound sort', () => {
    expect(datasets.parse({ cursor: 'abc', sort: 'layer,-kind' }).cursor).toBe('abc');
  });

  it('points a page past the offset limit at the cursor', () => {
    const result = systems.safeParse({ page: '102', size: '100' });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['page'],
      params: { max_page: 101, max_offset: 10_000 },
    });
    expect(result.error?.issues[0]?.message).toContain('page further with cursor');
  });
});

describe('list query: related filters (a relation the backend declares, not a column)', () => {
  const runs = listQuerySchema(crawlRunResource.list);
  const A = '0b7c6c1e-3d2a-4f5e-9a1b-2c3d4e5f6a7b';
  const B = '1c8d7d2f-4e3b-4a6f-8b2c-3d4e5f6a7b8c';
  const related = (list: ListSpec['filters']): ListSpec => ({
    filters: list,
    sortable: ['created_at'],
    defaultSort: 'created_at',
    softDelete: false,
  });

  it('parses `key` and `key__in` into terms marked related; column filters stay unmarked', () => {
    expect(runs.parse({ dataset_id: A, status: 'completed' }).filters).toEqual([
      { field: 'status', op: 'eq', value: 'completed' },
      { field: 'dataset_id', op: 'eq', value: A, related: true },
    ]);
    expect(runs.parse({ dataset_id__in: `${A}, ${B}` }).filters).toEqual([
      { field: 'dataset_id', op: 'in', value: [A, B], related: true },
    ]);
  });

  it.each([
    [{ dataset_id: 'not-a-uuid' }, 'dataset_id'],
    [{ dataset_id__in: `${A},nope` }, 'dataset_id__in.1'],
    [{ dataset_id__gte: A }, ''],
    [{ sort: 'dataset_id' }, 'sort'],
  ])('rejects %j', (query, path) => expectRejectedAt(runs, query, path));

  it('refuses a declaration it cannot serve: operators other than eq and in, or sorting by it', () => {
    const ops = ['eq', 'like'] as unknown as readonly ('eq' | 'in')[];
    expect(() =>
      listQuerySchema(related({ tag: { kind: 'related', type: 'string', ops, description: 'd' } })),
    ).toThrow("related filter 'tag' takes eq and in only, not like");
    expect(() =>
      listQuerySchema({
        ...related({ tag: { kind: 'related', type: 'string', ops: ['eq'], description: 'd' } }),
        sortable: ['tag'],
      }),
    ).toThrow("related filter 'tag' is not a column to sort by");
  });

  it('documents the parameters with what they mean', () => {
    const doc = buildOpenApiDocument('test') as {
      paths: Record<string, { get?: { parameters?: { name: string; description?: string }[] } }>;
    };
    const params = doc.paths['/api/v1/crawl-runs']?.get?.parameters ?? [];
    const byName = new Map(params.map((p) => [p.name, p.description]));
    expect(byName.get('dataset_id')).toContain('diff_payload.applied[]');
    expect(byName.get('dataset_id__in')).toContain('any of the comma-separated values');
    expect(byName.get('system_id')).toBeUndefined();
  });
});

describe('OpenAPI document', () => {
  it('documents every collection, from the same schemas', () => {
    const doc = buildOpenApiDocument('test') as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(EVERY_RESOURCE.length).toBeGreaterThan(0);
    for (const r of EVERY_RESOURCE) {
      expect(Object.keys(doc.paths)).toContain(`/api/v1/${r.path}`);
      expect(Object.keys(doc.paths)).toContain(`/api/v1/${r.path}/{id}`);
    }
  });
});
