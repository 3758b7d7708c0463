// /crawl-runs over HTTP: the crawler's audit log. Created running, finished once as completed or
// failed, never deleted.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { crawlRunResource, listQuerySchema } from '@aide/schemas';
import { applyFilters, applySort } from '../../../src/common/crud/list.js';
import { CrawlRunEntity } from '../../../src/modules/crawl-runs/crawl-run.entity.js';
import { CRAWL_RUN_RELATIONS } from '../../../src/modules/crawl-runs/crawl-runs.repository.js';
import { API, createPgSystem, type Row, seedReference } from '../../helpers/catalogue.js';
import { ok, UNKNOWN_ID } from '../../helpers/factories.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
  USER,
} from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const base = `${API}/crawl-runs`;
const v422 = (r: TestResponse) => expectEnvelope(r, 422, 'VALIDATION_ERROR');
const HOUR = 3_600_000;

async function start(body: Record<string, unknown> = {}): Promise<Row> {
  return ok(
    await ctx.request('POST', base, { token: ctx.userToken, body: { system_id: system.id, ...body } }),
    201,
  );
}

function update(id: string, body: Record<string, unknown>, token = ctx.userToken): Promise<TestResponse> {
  return ctx.request('PATCH', `${base}/${id}`, { token, body });
}

describe('crawl runs', () => {
  it('starts a run (regular user): running, started now, config stored', async () => {
    const before = Date.now();
    const run = await start({ config: { schemas: ['public'] }, note: 'nightly' });
    expect(run).toMatchObject({
      system_id: system.id,
      status: 'running',
      finished_at: null,
      config: { schemas: ['public'] },
      summary: null,
      diff_payload: null,
      error_message: null,
      note: 'nightly',
      row_version: 1,
      created_by: USER.id,
    });
    expect(Date.parse(run.started_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(run.started_at)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(ok(await ctx.request('GET', `${base}/${run.id}`, { token: ctx.userToken }))).toEqual(run);
    const explicit = await start({ started_at: new Date(Date.now() - HOUR).toISOString() });
    expect(Date.parse(explicit.started_at)).toBeLessThan(Date.now() - HOUR + 1000);
  });

  it('goes running → completed once; a second transition is 409 CRAWL_RUN_INVALID_TRANSITION', async () => {
    const run = await start();
    const progress = ok(await update(run.id, { summary: { tables: 3 }, row_version: 1 }));
    expect(progress).toMatchObject({
      status: 'running',
      finished_at: null,
      summary: { tables: 3 },
      row_version: 2,
    });
    const done = ok(
      await update(run.id, {
        status: 'completed',
        summary: { tables: 12 },
        diff_payload: { added: ['t'] },
        row_version: 2,
      }),
    );
    expect(done).toMatchObject({
      status: 'completed',
      summary: { tables: 12 },
      diff_payload: { added: ['t'] },
      row_version: 3,
    });
    expect(Date.parse(done.finished_at)).toBeGreaterThanOrEqual(Date.parse(run.started_at));
    for (const body of [{ status: 'failed' }, { status: 'completed' }, { summary: { tables: 0 } }]) {
      expectEnvelope(await update(run.id, { ...body, row_version: 3 }), 409, 'CRAWL_RUN_INVALID_TRANSITION');
    }
    expect(ok(await ctx.request('GET', `${base}/${run.id}`, { token: ctx.userToken }))).toEqual(done);
  });

  it('goes running → failed with an error message and an explicit finished_at; then no more transitions', async () => {
    const started = new Date(Date.now() - 2 * HOUR);
    const run = await start({ started_at: started.toISOString() });
    const finished = new Date(Date.now() - HOUR).toISOString();
    const failed = ok(
      await ctx.request('PUT', `${base}/${run.id}`, {
        token: ctx.userToken,
        body: {
          status: 'failed',
          finished_at: finished,
          error_message: 'connection refused',
          row_version: 1,
        },
      }),
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error_message: 'connection refused',
      finished_at: finished,
    });
    expectEnvelope(
      await update(run.id, { status: 'completed', row_version: 2 }),
      409,
      'CRAWL_RUN_INVALID_TRANSITION',
    );
  });

  it('refuses finished_at before started_at, in the future, or without a final status (422)', async () => {
    const run = await start({ started_at: new Date(Date.now() - HOUR).toISOString() });
    const before = new Date(Date.now() - 2 * HOUR).toISOString();
    const future = new Date(Date.now() + 24 * HOUR).toISOString();
    const early = v422(await update(run.id, { status: 'completed', finished_at: before, row_version: 1 }));
    expect(JSON.stringify(early.details)).toContain('finished_at');
    const late = v422(await update(run.id, { status: 'completed', finished_at: future, row_version: 1 }));
    expect(JSON.stringify(late.details)).toContain('finished_at');
    v422(await update(run.id, { finished_at: new Date().toISOString(), row_version: 1 }));
    v422(await update(run.id, { status: 'running', row_version: 1 }));
    v422(await update(run.id, { status: 'completed', finished_at: 'yesterday', row_version: 1 }));
    expect(ok(await ctx.request('GET', `${base}/${run.id}`, { token: ctx.userToken }))).toEqual(run);
  });

  it('refuses a start in the future or in another status (422), and an unknown system (404)', async () => {
    v422(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { system_id: system.id, started_at: new Date(Date.now() + 24 * HOUR).toISOString() },
      }),
    );
    v422(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { system_id: system.id, status: 'completed' },
      }),
    );
    v422(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { system_id: system.id, finished_at: new Date().toISOString() },
      }),
    );
    v422(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { system_id: system.id, config: 'all' },
      }),
    );
    v422(await ctx.request('POST', base, { token: ctx.userToken, body: { system_id: 'nope' } }));
    v422(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { system_id: system.id, colour: 'red' },
      }),
    );
    expectEnvelope(
      await ctx.request('POST', base, { token: ctx.userToken, body: { system_id: UNKNOWN_ID } }),
      404,
      'SYSTEM_NOT_FOUND',
    );
  });

  it('refuses a stale row_version (409) and a missing one (428)', async () => {
    const run = await start();
    ok(await update(run.id, { summary: { n: 1 }, row_version: 1 }));
    expectEnvelope(await update(run.id, { status: 'completed', row_version: 1 }), 409, 'VERSION_CONFLICT');
    expectEnvelope(await update(run.id, { status: 'completed' }), 428, 'PRECONDITION_REQUIRED');
    expect(ok(await ctx.request('GET', `${base}/${run.id}`, { token: ctx.userToken })).status).toBe(
      'running',
    );
  });

  it('is never deleted: DELETE is 405, also for a superuser', async () => {
    const run = await start();
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${run.id}`, { token: ctx.adminToken }),
      405,
      'METHOD_NOT_ALLOWED',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${run.id}`, { token: ctx.userToken }),
      405,
      'METHOD_NOT_ALLOWED',
    );
    expect(ok(await ctx.request('GET', `${base}/${run.id}`, { token: ctx.userToken })).id).toBe(run.id);
  });

  it('answers 401 without a token and 404 for unknown ids', async () => {
    const run = await start();
    expectEnvelope(await ctx.request('GET', base), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('GET', `${base}/${run.id}`), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('POST', base, { body: { system_id: system.id } }), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${run.id}`, { body: { status: 'completed', row_version: 1 } }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(
      await ctx.request('GET', `${base}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'CRAWL_RUN_NOT_FOUND',
    );
    expectEnvelope(
      await update(UNKNOWN_ID, { status: 'completed', row_version: 1 }),
      404,
      'CRAWL_RUN_NOT_FOUND',
    );
  });

  it('lists with filters and sorting; validates the query string (422)', async () => {
    const { id: otherSystem } = await createPgSystem(ctx);
    const older = ok(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { system_id: otherSystem, started_at: new Date(Date.now() - 3 * HOUR).toISOString() },
      }),
      201,
    );
    const newer = ok(
      await ctx.request('POST', base, { token: ctx.userToken, body: { system_id: otherSystem } }),
      201,
    );
    ok(await update(older.id, { status: 'failed', error_message: 'x', row_version: 1 }));
    const all = ok(await ctx.request('GET', `${base}?system_id=${otherSystem}`, { token: ctx.userToken }));
    expect(all.items.map((r: Row) => r.id)).toEqual([newer.id, older.id]);
    const running = ok(
      await ctx.request('GET', `${base}?system_id=${otherSystem}&status=running`, { token: ctx.userToken }),
    );
    expect(running.items.map((r: Row) => r.id)).toEqual([newer.id]);
    const asc = ok(
      await ctx.request('GET', `${base}?system_id=${otherSystem}&sort=started_at`, { token: ctx.userToken }),
    );
    expect(asc.items.map((r: Row) => r.id)).toEqual([older.id, newer.id]);
    v422(await ctx.request('GET', `${base}?status=paused`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?colour=red`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?sort=config`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?size=101`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}/nope`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?include_deleted=true`, { token: ctx.adminToken }));
  });
});

describe('the runs whose report names a dataset (?dataset_id=, ADR 0061)', () => {
  let of: Row;
  const A = randomUUID();
  const B = randomUUID();
  const hoursAgo = (n: number) => new Date(Date.now() - n * HOUR).toISOString();

  /** A finished run of `of`'s system, started `hours` ago, whose report is `diff_payload`. */
  async function finished(
    hours: number,
    diff_payload: Record<string, unknown> | null,
    command = 'crawl',
  ): Promise<Row> {
    const run = ok(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { system_id: of.id, started_at: hoursAgo(hours), config: { command } },
      }),
      201,
    );
    return ok(await update(run.id, { status: 'completed', diff_payload, row_version: 1 }));
  }
  const ids = async (query: string): Promise<string[]> =>
    ok(await ctx.request('GET', `${base}?${query}`, { token: ctx.userToken })).items.map((r: Row) => r.id);

  let crawl: Row;
  let apply: Row;
  beforeAll(async () => {
    of = await createPgSystem(ctx);
    crawl = await finished(200, {
      format: 'aide-crawl-report',
      datasets: [
        { object_name: 'public.a', status: 'changed', dataset_id: A, changes: [] },
        { object_name: 'public.fresh', status: 'new', dataset_id: null, changes: [] },
      ],
    });
    // The crawler writes ids as the registry answers them; another writer may not: any case is the id.
    apply = await finished(
      190,
      { applied: [{ object_name: 'public.a', action: 'publish', dataset_id: A.toUpperCase() }] },
      'apply',
    );
    // Not naming A: another dataset; A where the filter does not look (a summary, an object name, a
    // list of removed ids); no report at all.
    await finished(180, { datasets: [{ object_name: 'public.b', dataset_id: B }] });
    await finished(170, { removed: [A], datasets: [{ object_name: A, dataset_id: null }], applied: 'x' });
    await finished(160, null);
    // 55 newer runs of the same system: A's runs are older than the newest 50.
    for (let n = 0; n < 55; n++)
      await finished(150 - n, n % 5 === 0 ? { applied: [{ dataset_id: B }] } : null);
  });

  it('finds the crawl naming it in datasets[] and the apply naming it in applied[], beyond the newest 50', async () => {
    expect(await ids(`system_id=${of.id}&size=50`)).not.toContain(crawl.id);
    const page = ok(await ctx.request('GET', `${base}?dataset_id=${A}`, { token: ctx.userToken }));
    expect(page.items.map((r: Row) => r.id)).toEqual([apply.id, crawl.id]);
    expect(page).toMatchObject({ total: 2, page: 1, size: 50, pages: 1 });
    expect(page.items[1]).toEqual(crawl);
    // The dataset header's question: the newest one, alone.
    expect(await ids(`dataset_id=${A}&sort=-started_at&size=1`)).toEqual([apply.id]);
    expect(await ids(`dataset_id=${A.toUpperCase()}&size=1`)).toEqual([apply.id]);
  });

  it('sorts, pages by cursor and combines with the other filters like any filter', async () => {
    expect(await ids(`dataset_id=${A}&sort=started_at`)).toEqual([crawl.id, apply.id]);
    const first = ok(
      await ctx.request('GET', `${base}?dataset_id=${A}&size=1&total=none`, { token: ctx.userToken }),
    );
    expect(first.items.map((r: Row) => r.id)).toEqual([apply.id]);
    const second = ok(
      await ctx.request('GET', `${base}?dataset_id=${A}&size=1&total=none&cursor=${first.next_cursor}`, {
        token: ctx.userToken,
      }),
    );
    expect(second.items.map((r: Row) => r.id)).toEqual([crawl.id]);
    expect(second.next_cursor).toBeNull();
    expect(await ids(`dataset_id=${A}&system_id=${system.id}`)).toEqual([]);
    expect(await ids(`dataset_id=${A}&started_at__gte=${encodeURIComponent(hoursAgo(195))}`)).toEqual([
      apply.id,
    ]);
    const either = ok(
      await ctx.request('GET', `${base}?dataset_id__in=${A},${B}&size=100`, { token: ctx.userToken }),
    );
    expect(either.total).toBe(2 + 1 + 11);
    expect(either.items.map((r: Row) => r.id)).toEqual(expect.arrayContaining([apply.id, crawl.id]));
    expect(await ids(`dataset_id=${randomUUID()}`)).toEqual([]);
  });

  it('follows the report as it is rewritten while the run is running; other updates keep it', async () => {
    const run = ok(
      await ctx.request('POST', base, { token: ctx.userToken, body: { system_id: of.id } }),
      201,
    );
    const C = randomUUID();
    ok(await update(run.id, { diff_payload: { datasets: [{ dataset_id: C }] }, row_version: 1 }));
    expect(await ids(`dataset_id=${C}`)).toEqual([run.id]);
    ok(await update(run.id, { summary: { tables: 1 }, note: 'progress', row_version: 2 }));
    expect(await ids(`dataset_id=${C}`)).toEqual([run.id]);
    ok(
      await update(run.id, {
        status: 'completed',
        diff_payload: { datasets: [{ dataset_id: B }] },
        row_version: 3,
      }),
    );
    expect(await ids(`dataset_id=${C}`)).toEqual([]);
    expect(await ids(`dataset_id=${B}&size=1`)).toEqual([run.id]);
  });

  it('refuses a bad id, an operator it lacks and sorting by it (422 VALIDATION_ERROR)', async () => {
    const bad = v422(await ctx.request('GET', `${base}?dataset_id=not-a-uuid`, { token: ctx.userToken }));
    expect(JSON.stringify(bad.details)).toContain('dataset_id');
    v422(await ctx.request('GET', `${base}?dataset_id__in=${A},nope`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?dataset_id__gte=${A}`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?sort=dataset_id`, { token: ctx.userToken }));
  });

  it('is answered from ix_crawl_run_datasets_dataset (EXPLAIN on 3,000 runs)', async () => {
    const runner = ctx.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      // 3,000 finished runs, each report naming 20 of 2,000 datasets; rolled back afterwards.
      await runner.query(
        `INSERT INTO crawl_runs (system_id, status, started_at, finished_at, diff_payload, created_by, updated_by)
         SELECT $1, 'completed', now() - i * interval '1 hour', now() - i * interval '1 hour',
                jsonb_build_object('datasets', (SELECT jsonb_agg(jsonb_build_object('dataset_id',
                  (md5(((i * 20 + k) % 2000)::text))::uuid)) FROM generate_series(1, 20) k)),
                $2, $2
           FROM generate_series(1, 3000) i`,
        [of.id, USER.id],
      );
      await runner.query('ANALYZE crawl_runs, crawl_run_datasets');
      const query = listQuerySchema(crawlRunResource.list).parse({ dataset_id: A, size: '1' });
      const qb = runner.manager.getRepository(CrawlRunEntity).createQueryBuilder('e');
      applyFilters(qb, 'e', query.filters, CRAWL_RUN_RELATIONS);
      applySort(qb, 'e', query.sort);
      const [sql, params] = qb.limit(2).getQueryAndParameters();
      const plan = ((await runner.query(`EXPLAIN ${sql}`, params)) as { 'QUERY PLAN': string }[])
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toContain('ix_crawl_run_datasets_dataset');
      expect(plan).not.toContain('Seq Scan on crawl_runs');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
