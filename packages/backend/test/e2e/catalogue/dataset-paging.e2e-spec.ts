// GET /datasets on a large collection (ADR 0024): keyset paging (`cursor` / `next_cursor`) walks the
// same rows in the same order as page paging, for every sort a cursor can follow, ties on the sort
// value included; `total=exact|estimate|none`; the answer of a request naming neither is as it was;
// bad cursors are 422; and the list's queries are answered from the sort indexes (EXPLAIN).
import { DatasetSchema } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createPgSystem, type Row, seedReference, sqlCounter } from '../../helpers/catalogue.js';
import { ok, unique } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;
const COUNT = 23;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
  // One bulk request (one transaction: every row has the same created_at, so the id breaks the ties),
  // then a few on their own.
  const prefix = unique('page');
  const item = (i: number) => ({
    kind: 'rdbms',
    system_id: system.id,
    object_name: `${prefix}_${String(i).padStart(2, '0')}`,
    layer: i % 2 === 0 ? 'raw' : null,
    is_active: i % 3 !== 0,
    schema_name: 's',
    table_name: `t${i}`,
  });
  ok(
    await ctx.request('POST', `${API}/datasets/bulk`, {
      token: ctx.userToken,
      body: { items: Array.from({ length: COUNT - 3 }, (_, i) => item(i)) },
    }),
  );
  for (let i = COUNT - 3; i < COUNT; i++) {
    ok(await ctx.request('POST', `${API}/datasets`, { token: ctx.userToken, body: item(i) }), 201);
  }
});
afterAll(async () => {
  await ctx.close();
});

const list = async (query: string) =>
  ok(await ctx.request('GET', `${API}/datasets?system_id=${system.id}&${query}`, { token: ctx.userToken }));

describe('dataset list paging', () => {
  it.each([
    'object_name',
    '-created_at',
    'created_at',
    'kind,-object_name',
    'kind',
    '-updated_at,-id',
    '-is_active',
    'updated_at',
    'id',
  ])('walks every row once, in page order, by cursor (sort=%s)', async (sort) => {
    const whole = await list(`sort=${sort}&size=100`);
    expect(whole.total).toBe(COUNT);
    const walked: Row[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body = await list(`sort=${sort}&size=5&total=none${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...body.items);
      cursor = body.next_cursor;
      pages++;
      expect(body.items.length).toBe(cursor ? 5 : COUNT - 5 * (pages - 1));
    } while (cursor);
    expect(pages).toBe(Math.ceil(COUNT / 5));
    expect(walked.map((d) => d.id)).toEqual(whole.items.map((d: Row) => d.id));
    for (const d of walked) DatasetSchema.parse(d);
  });

  it('answers a request naming neither cursor nor total as before (no next_cursor)', async () => {
    const body = await list('size=5');
    expect(Object.keys(body).sort()).toEqual(['items', 'page', 'pages', 'size', 'total']);
    expect(body).toMatchObject({ total: COUNT, page: 1, size: 5, pages: Math.ceil(COUNT / 5) });
  });

  it('counts as asked: exact, estimate (exact on the last page), none (lower bounds)', async () => {
    expect(await list('size=5&total=exact')).toMatchObject({ total: COUNT, pages: 5 });
    const none = await list('size=5&total=none');
    expect(none).toMatchObject({ total: 6, pages: 2 });
    expect(typeof none.next_cursor).toBe('string');
    expect(await list('size=5&page=5&total=none')).toMatchObject({
      total: COUNT,
      pages: 5,
      next_cursor: null,
    });
    expect(await list('size=5&page=5&total=estimate')).toMatchObject({ total: COUNT, next_cursor: null });
    const estimate = await list('size=5&total=estimate');
    expect(estimate.total).toBeGreaterThanOrEqual(6);
    expect(estimate.items).toHaveLength(5);
  });

  it('keeps the filters with a cursor', async () => {
    const first = await list('is_active=true&size=4&total=none');
    const second = await list(`is_active=true&size=4&total=exact&cursor=${first.next_cursor}`);
    const all = await list('is_active=true&size=100');
    expect(second.total).toBe(all.total);
    expect([...first.items, ...second.items].map((d: Row) => d.id)).toEqual(
      all.items.slice(0, 8).map((d: Row) => d.id),
    );
  });

  it('refuses a cursor it did not issue, of another sort, with a page, or on a sort it cannot follow', async () => {
    const cursor = (await list('sort=object_name&size=5&total=none')).next_cursor as string;
    const bad = async (query: string) =>
      expectEnvelope(
        await ctx.request('GET', `${API}/datasets?system_id=${system.id}&${query}`, { token: ctx.userToken }),
        422,
        'VALIDATION_ERROR',
      );
    await bad(`sort=-created_at&cursor=${cursor}`);
    await bad(`sort=object_name&page=2&cursor=${cursor}`);
    await bad(`sort=layer&cursor=${cursor}`);
    await bad('cursor=bm90LWpzb24');
    await bad(`cursor=${Buffer.from('["object_name,id","a"]').toString('base64url')}`);
    await bad(`cursor=${Buffer.from('["object_name,id",1,2]').toString('base64url')}`);
    await bad('cursor=not%20base64');
    await bad('total=all');
  });

  it('reads a page in one statement with total=none, two with the exact count', async () => {
    const counter = sqlCounter(ctx);
    counter.start();
    await list('sort=-created_at&size=5&total=none');
    expect(counter.stop()).toHaveLength(1);
    counter.start();
    await list('sort=-created_at&size=5');
    expect(counter.stop()).toHaveLength(2);
  });

  it('pages from the sort indexes (EXPLAIN on 20,000 datasets)', async () => {
    const runner = ctx.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      // Enough rows for the planner to prefer the indexes, rolled back afterwards.
      const systems = (await runner.query(
        `INSERT INTO systems (code, name, flavor_id)
         SELECT 'paging_' || i, 'Paging ' || i, $1 FROM generate_series(1, 50) i RETURNING id`,
        [system.flavor_id],
      )) as { id: string }[];
      await runner.query(
        `INSERT INTO datasets (system_id, object_name, kind)
         SELECT ($1::uuid[])[1 + i % 50], 'bulk_' || i, 'rdbms' FROM generate_series(1, 20000) i`,
        [systems.map((s) => s.id)],
      );
      await runner.query('ANALYZE datasets');
      const plan = async (sql: string, params: unknown[]) =>
        ((await runner.query(`EXPLAIN ${sql}`, params)) as { 'QUERY PLAN': string }[])
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      const pageOf = (where: string, order: string) =>
        `SELECT d.id FROM datasets d WHERE d.deleted_at IS NULL ${where} ORDER BY ${order} LIMIT 51`;
      // A system of 400 datasets: read in sort order from the index, not all found then sorted.
      expect(
        await plan(pageOf('AND d.system_id = $1', 'd.created_at DESC, d.id ASC'), [systems[0]?.id]),
      ).toContain('ix_datasets_system_created_active');
      expect(await plan(pageOf('', 'd.object_name ASC, d.id ASC'), [])).toContain(
        'ix_datasets_object_name_active',
      );
      expect(await plan(pageOf('', 'd.created_at DESC, d.id ASC'), [])).toContain(
        'ix_datasets_created_active',
      );
      // The other sorts (migration 1766230000000), within a system and over all.
      for (const [order, within, over] of [
        ['d.kind ASC, d.id ASC', 'ix_datasets_system_kind_active', 'ix_datasets_kind_active'],
        ['d.layer ASC, d.id ASC', 'ix_datasets_system_layer_active', 'ix_datasets_layer_active'],
        ['d.updated_at DESC, d.id ASC', 'ix_datasets_system_updated_active', 'ix_datasets_updated_active'],
      ] as const) {
        expect(await plan(pageOf('AND d.system_id = $1', order), [systems[0]?.id])).toContain(within);
        expect(await plan(pageOf('', order), [])).toContain(over);
      }
      // A cursor page of a sort whose first value repeats (every row here is 'rdbms') seeks to the
      // cursor's row in the index: the row comparison is an index condition, not a filter.
      expect(
        await plan(pageOf('AND d.system_id = $1 AND (d.kind, d.id) > ($2, $3)', 'd.kind ASC, d.id ASC'), [
          systems[0]?.id,
          'rdbms',
          '80000000-0000-0000-0000-000000000000',
        ]),
      ).toMatch(/Index Cond: .*ROW\(\(?kind\)?(::text)?, id\) > ROW\(/);
      expect(
        await plan(
          pageOf(`AND lower(d.object_name) LIKE lower($1) ESCAPE '\\'`, 'd.object_name ASC, d.id ASC'),
          ['%bulk_1234%'],
        ),
      ).toContain('ix_datasets_name_trgm');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
