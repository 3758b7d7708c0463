import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { ensureSuperuser } from '../../src/bootstrap/superuser.js';
import { createTestContext, type TestContext } from '../helpers/test-app.js';

const silent = pino({ level: 'silent' });

describe('first superuser at start-up', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('creates the configured superuser when missing, and never re-passwords it on restart', async () => {
    const email = 'first-admin@example.com';
    const first = await ensureSuperuser(
      ctx.dataSource,
      { ...ctx.config, superuserEmail: email, superuserPassword: 'first-password' },
      silent,
    );
    expect(first).toEqual({ email, created: true });
    expect((await ctx.login(email, 'first-password')).status).toBe(200);

    // A restart with another configured password leaves the account alone.
    const again = await ensureSuperuser(
      ctx.dataSource,
      { ...ctx.config, superuserEmail: email, superuserPassword: 'other-password' },
      silent,
    );
    expect(again).toEqual({ email, created: false });
    expect((await ctx.login(email, 'first-password')).status).toBe(200);
    expect((await ctx.login(email, 'other-password')).status).toBe(401);
  });

  it('generates one only when no superuser exists and none is configured', async () => {
    // The test database has a superuser already (the harness's ADMIN).
    expect(
      await ensureSuperuser(
        ctx.dataSource,
        { ...ctx.config, superuserEmail: undefined, superuserPassword: undefined },
        silent,
      ),
    ).toBeUndefined();
    await ctx.dataSource.query('UPDATE users SET is_superuser = false');
    const generated = await ensureSuperuser(
      ctx.dataSource,
      { ...ctx.config, superuserEmail: undefined, superuserPassword: undefined },
      silent,
    );
    expect(generated).toMatchObject({ email: 'admin@aide.local', created: true });
    expect(generated?.generatedPassword).toMatch(/^[\w-]{20,}$/);
    expect((await ctx.login('admin@aide.local', generated?.generatedPassword ?? '')).status).toBe(200);
    const rows: { hashed_password: string }[] = await ctx.dataSource.query(
      "SELECT hashed_password FROM users WHERE email = 'admin@aide.local'",
    );
    // Only the bcrypt hash is stored.
    expect(rows[0]?.hashed_password).toMatch(/^\$2[aby]\$12\$/);
  });
});
