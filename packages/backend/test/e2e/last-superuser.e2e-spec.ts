// The last active superuser cannot be demoted or deactivated (409 LAST_SUPERUSER), also when two
// superusers demote each other at once; a database left without one says at start-up how to recover.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { ensureSuperuser } from '../../src/bootstrap/superuser.js';
import { insertUser, ok } from '../helpers/factories.js';
import { ADMIN, createTestContext, expectEnvelope, type TestContext, USER } from '../helpers/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

async function activeSuperusers(): Promise<string[]> {
  const rows: { id: string }[] = await ctx.dataSource.query(
    'SELECT id FROM users WHERE is_superuser AND is_active ORDER BY id',
  );
  return rows.map((r) => r.id);
}

const userRow = async (id: string) =>
  ok(await ctx.request('GET', `/api/v1/users/${id}`, { token: ctx.adminToken })) as Record<string, unknown>;

describe('the last active superuser', () => {
  it('cannot demote or deactivate itself (PUT and PATCH); the account is unchanged', async () => {
    expect(await activeSuperusers()).toEqual([ADMIN.id]);
    const before = await userRow(ADMIN.id);
    for (const method of ['PATCH', 'PUT']) {
      for (const change of [
        { is_superuser: false },
        { is_active: false },
        { is_superuser: false, is_active: false },
      ]) {
        expectEnvelope(
          await ctx.request(method, `/api/v1/users/${ADMIN.id}`, {
            token: ctx.adminToken,
            body: { ...change, row_version: before.row_version },
          }),
          409,
          'LAST_SUPERUSER',
        );
      }
    }
    expect(await userRow(ADMIN.id)).toEqual(before);
    // Other edits of the last superuser, and demotions while another superuser is left, still work.
    const renamed = ok(
      await ctx.request('PATCH', `/api/v1/users/${ADMIN.id}`, {
        token: ctx.adminToken,
        body: { full_name: 'Still admin', row_version: before.row_version },
      }),
    );
    expect(renamed).toMatchObject({ full_name: 'Still admin', is_superuser: true, is_active: true });
    const other = await insertUser(ctx, { is_superuser: true });
    const demoted = ok(
      await ctx.request('PATCH', `/api/v1/users/${other.id}`, {
        token: ctx.adminToken,
        body: { is_superuser: false, row_version: 1 },
      }),
    );
    expect(demoted.is_superuser).toBe(false);
    expect(await activeSuperusers()).toEqual([ADMIN.id]);
  });

  it('two superusers demoting each other at once: one succeeds, never zero left (every round)', async () => {
    const s1 = await insertUser(ctx, { is_superuser: true });
    const s2 = await insertUser(ctx, { is_superuser: true });
    const token = async (email: string, password: string) =>
      ok(await ctx.login(email, password)).access_token as string;
    const t1 = await token(s1.email, s1.password);
    const t2 = await token(s2.email, s2.password);
    // Only s1 and s2 are superusers during the rounds.
    await ctx.dataSource.query('UPDATE users SET is_superuser = false WHERE id = $1', [ADMIN.id]);
    try {
      for (let round = 0; round < 10; round++) {
        const rows: { id: string; row_version: number }[] = await ctx.dataSource.query(
          'SELECT id, row_version FROM users WHERE id = ANY($1::uuid[])',
          [[s1.id, s2.id]],
        );
        const version = new Map(rows.map((r) => [r.id, r.row_version]));
        const demote = (id: string, by: string) =>
          ctx.request('PATCH', `/api/v1/users/${id}`, {
            token: by,
            body: { is_superuser: false, row_version: version.get(id) },
          });
        const results = await Promise.all([demote(s2.id, t1), demote(s1.id, t2)]);
        expect(results.filter((r) => r.status === 200)).toHaveLength(1);
        const refused = results.find((r) => r.status !== 200);
        // Refused by the rule, or (when the other demotion committed before this request was let in)
        // because its sender is no longer a superuser.
        expect(['LAST_SUPERUSER', 'FORBIDDEN']).toContain(refused?.body.error_code);
        expect(await activeSuperusers()).toHaveLength(1);
        await ctx.dataSource.query('UPDATE users SET is_superuser = true WHERE id = ANY($1::uuid[])', [
          [s1.id, s2.id],
        ]);
      }
    } finally {
      await ctx.dataSource.query('UPDATE users SET is_superuser = true WHERE id = $1', [ADMIN.id]);
      await ctx.dataSource.query('UPDATE users SET is_superuser = false WHERE id = ANY($1::uuid[])', [
        [s1.id, s2.id],
      ]);
    }
  });
});

describe('start-up without an active superuser', () => {
  it('leaves the configured account alone and logs the statement that restores it', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    // A database from before the API refused it: nobody is an active superuser.
    await ctx.dataSource.query('UPDATE users SET is_superuser = false WHERE id = $1', [ADMIN.id]);
    expect(await activeSuperusers()).toEqual([]);
    const result = await ensureSuperuser(
      ctx.dataSource,
      { ...ctx.config, superuserEmail: ADMIN.email, superuserPassword: 'a-different-password' },
      logger,
    );
    expect(result).toEqual({ email: ADMIN.email, created: false });
    // Not re-passworded, not promoted.
    expect((await ctx.login(ADMIN.email, ADMIN.password)).status).toBe(200);
    expect(await activeSuperusers()).toEqual([]);
    const error = lines.find((l) => l['level'] === 50);
    expect(error?.['msg']).toMatch(/no active superuser.*admin@test\.local/);
    // The logged statement is what an operator runs, and it works.
    await ctx.dataSource.query(error?.['restore'] as string);
    expect(await activeSuperusers()).toEqual([ADMIN.id]);
    expect((await userRow(USER.id)).is_superuser).toBe(false);
  });
});
