// Keyset paging on every collection list (ADR 0024, amendment of issue 22): a `cursor` walk gives the
// same rows in the same order as the offset pages, with the list's filters, on any of its sorts — ties
// on the sort value and NULLs of a nullable column (`slot`, `finished_at`) included — and a cursor that
// is not the `next_cursor` of a page with this sort is 422. Shown on fields, type instances and crawl
// runs, whose lists page past MAX_PAGE_OFFSET only this way.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  createDataset,
  createPgSystem,
  dataTypeOf,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { ok } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;
let dataset: Row;
let typeId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
  dataset = await createDataset(ctx, system.id);
  typeId = (await dataTypeOf(ctx, 'postgres14', 'integer')).id;
  // 30 fields in one batch (one transaction: one created_at for all, so the id breaks those ties).
  ok(
    await ctx.request('POST', `${API}/fields/batch`, {
      token: ctx.userToken,
      body: {
        items: Array.from({ length: 30 }, (_, i) => ({
          dataset_id: dataset.id,
          name: `col_${i % 3}_${String(i).padStart(2, '0')}`,
        })),
      },
    }),
    201,
  );
  // Type instances: 12 roots (slot NULL), 18 children under 6 of them (slots a, b, c: repeated);
  // created_at in four steps, so that ties.
  await ctx.dataSource.query(
    `WITH roots AS (
       INSERT INTO type_instances (data_type_id, created_at)
       SELECT $1, now() - (i % 4) * interval '1 minute' FROM generate_series(1, 12) i RETURNING id)
     INSERT INTO type_instances (data_type_id, parent_id, slot, created_at)
     SELECT $1, r.id, s.slot, now() - (s.n % 4) * interval '1 minute'
     FROM (SELECT id FROM roots ORDER BY id LIMIT 6) r
     CROSS JOIN (VALUES ('a', 1), ('b', 2), ('c', 3)) AS s(slot, n)`,
    [typeId],
  );
  // Crawl runs: running ones unfinished (finished_at NULL); started_at and finished_at both repeat.
  await ctx.dataSource.query(
    `INSERT INTO crawl_runs (system_id, status, started_at, finished_at)
     SELECT $1, (ARRAY['running', 'completed', 'failed'])[1 + i % 3],
            timestamptz '2025-01-01' + (i % 5) * interval '1 hour',
            CASE WHEN i % 3 = 0 THEN NULL
                 ELSE timestamptz '2025-01-01' + (i % 5) * interval '1 hour' + (i % 4) * interval '1 minute' END
     FROM generate_series(1, 30) i`,
    [system.id],
  );
});
afterAll(async () => {
  await ctx.close();
});

interface Case {
  path: string;
  filters: () => string;
  /** The rows the filters select. */
  count: number;
  sorts: string[];
}

const CASES: Case[] = [
  {
    path: 'fields',
    filters: () => `dataset_id=${dataset.id}`,
    count: 30,
    sorts: ['name', '-name', 'created_at', '-created_at,name', 'id'],
  },
  {
    path: 'fields',
    filters: () => `dataset_id=${dataset.id}&name__like=col_1`,
    count: 10,
    sorts: ['-name', 'updated_at'],
  },
  {
    path: 'type-instances',
    filters: () => `data_type_id=${typeId}`,
    count: 30,
    sorts: ['slot', '-slot', 'slot,-created_at', '-slot,created_at', 'created_at', '-updated_at,-id'],
  },
  {
    path: 'crawl-runs',
    filters: () => `system_id=${system.id}`,
    count: 30,
    sorts: ['-started_at', 'finished_at', '-finished_at', 'finished_at,-status', 'status,-started_at'],
  },
  {
    path: 'crawl-runs',
    filters: () => `system_id=${system.id}&status__in=completed,failed&started_at__gte=2025-01-01T01:00:00Z`,
    count: 16,
    sorts: ['-finished_at', 'status'],
  },
];

const list = async (path: string, query: string) =>
  ok(await ctx.request('GET', `${API}/${path}?${query}`, { token: ctx.userToken }));

describe.each(CASES)('GET /$path by cursor', ({ path, filters, count, sorts }) => {
  it.each(sorts)('walks the filtered rows once each, in page order (sort=%s)', async (sort) => {
    const whole = await list(path, `${filters()}&sort=${sort}&size=100`);
    expect(whole.total).toBe(count);
    expect(whole).not.toHaveProperty('next_cursor');
    const walked: Row[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body = await list(
        path,
        `${filters()}&sort=${sort}&size=7&total=exact${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(body).toMatchObject({ total: count, page: 1, size: 7 });
      walked.push(...body.items);
      cursor = body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(count / 7));
    expect(walked.map((r) => r.id)).toEqual(whole.items.map((r: Row) => r.id));
  });
});

describe('bad cursors', () => {
  const bad = async (path: string, query: string) =>
    expectEnvelope(
      await ctx.request('GET', `${API}/${path}?${query}`, { token: ctx.userToken }),
      422,
      'VALIDATION_ERROR',
    );
  const forged = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

  it.each([
    ['fields', () => `dataset_id=${dataset.id}`, 'name', '-name'],
    ['type-instances', () => `data_type_id=${typeId}`, 'slot', 'created_at'],
    ['crawl-runs', () => `system_id=${system.id}`, 'finished_at', '-started_at'],
  ])(
    '%s: refuses a cursor of another sort, with a page, forged or malformed',
    async (path, f, sort, other) => {
      const cursor = (await list(path, `${f()}&sort=${sort}&size=5&total=none`)).next_cursor as string;
      expect(typeof cursor).toBe('string');
      await bad(path, `${f()}&sort=${other}&cursor=${cursor}`);
      await bad(path, `${f()}&sort=${sort}&page=2&cursor=${cursor}`);
      await bad(path, `${f()}&sort=${sort}&cursor=not%20base64`);
      await bad(path, `${f()}&sort=${sort}&cursor=bm90LWpzb24`);
      await bad(path, `${f()}&sort=${sort}&cursor=${forged([`${sort},id`, 'x'])}`);
      await bad(path, `${f()}&sort=${sort}&cursor=${forged([`${sort},id`, null, null])}`);
      await bad(path, `${f()}&sort=${sort}&cursor=${forged([`${sort},id`, 1, 'x'])}`);
    },
  );

  it('answers a forged value of the wrong type 422, not 500', async () => {
    const body = await bad(
      'crawl-runs',
      `system_id=${system.id}&sort=-started_at&cursor=${forged(['-started_at,id', 'not a date', 'not a uuid'])}`,
    );
    expect(body.details.issues).toHaveLength(1);
  });
});
