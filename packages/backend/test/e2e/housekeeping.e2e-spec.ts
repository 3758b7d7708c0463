import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Housekeeping } from '../../src/modules/housekeeping/housekeeping.service.js';
import { insertUser } from '../helpers/factories.js';
import { createTestContext, type TestContext } from '../helpers/test-app.js';

describe('housekeeping', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('deletes stale throttle windows, expired idempotency keys and long-dead refresh tokens only', async () => {
    const { id } = await insertUser(ctx);
    await ctx.dataSource.query(
      `INSERT INTO auth_throttle (key, window_started_at, attempts) VALUES
         ('ip:old', now() - interval '1 day', 3), ('ip:fresh', now(), 1)`,
    );
    await ctx.dataSource.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES
         ($1, 'old', repeat('a', 64), now() - interval '2 days'), ($1, 'fresh', repeat('b', 64), now())`,
      [id],
    );
    await ctx.dataSource.query(
      `INSERT INTO refresh_tokens (token_hash, user_id, expires_at, revoked_at) VALUES
         (repeat('1', 64), $1, now() - interval '40 days', NULL),
         (repeat('2', 64), $1, now() + interval '10 days', now() - interval '31 days'),
         (repeat('3', 64), $1, now() + interval '10 days', now() - interval '1 day'),
         (repeat('4', 64), $1, now() + interval '10 days', NULL)`,
      [id],
    );
    const report = await ctx.app.get(Housekeeping).run();
    // Without AIDE_OPENLINEAGE_EVENT_RETENTION_DAYS raw OpenLineage events are kept (jobs-runs e2e prunes them).
    expect(report).toEqual({
      throttle: 1,
      idempotency_keys: 1,
      refresh_tokens: 2,
      openlineage_run_events: 0,
    });
    const left = async (sql: string) => (await ctx.dataSource.query<{ n: string }[]>(sql))[0]?.n;
    expect(
      await left(
        `SELECT string_agg(key, ',' ORDER BY key) AS n FROM auth_throttle WHERE key IN ('ip:old', 'ip:fresh')`,
      ),
    ).toBe('ip:fresh');
    expect(await left(`SELECT string_agg(key, ',') AS n FROM idempotency_keys`)).toBe('fresh');
    expect(await left(`SELECT count(*)::text AS n FROM refresh_tokens WHERE user_id = '${id}'`)).toBe('2');
  });
});
