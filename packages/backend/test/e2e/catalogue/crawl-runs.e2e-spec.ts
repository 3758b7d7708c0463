// /crawl-runs over HTTP: the crawler's audit log. Created running, finished once as completed or
// failed, never deleted.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
