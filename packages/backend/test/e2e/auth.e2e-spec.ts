// /api/v1/login, /login/refresh, /login/logout, /login/logout-all and login throttling.
import { ERROR_CATALOGUE } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PasswordHasher } from '../../src/common/auth/password-hasher.js';
import { insertUser, ok, unique } from '../helpers/factories.js';
import { ADMIN, createTestContext, expectEnvelope, type TestContext, USER } from '../helpers/test-app.js';
import { payloadOf } from '../helpers/tokens.js';

describe('login and tokens', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const refresh = (refresh_token: string) =>
    ctx.request('POST', '/api/v1/login/refresh', { body: { refresh_token } });
  const logout = (refresh_token: string) =>
    ctx.request('POST', '/api/v1/login/logout', { body: { refresh_token } });

  describe('POST /api/v1/login', () => {
    it('answers an OAuth2 token pair whose access token carries the documented claims', async () => {
      // The OAuth2 password grant, with its optional standard fields.
      const form = { grant_type: 'password', username: USER.email, password: USER.password, scope: '' };
      const pair = ok(
        await ctx.request('POST', '/api/v1/login', {
          rawBody: new URLSearchParams(form).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
      expect(pair).toEqual({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 1800,
      });
      const header = JSON.parse(Buffer.from(pair.access_token.split('.')[0], 'base64url').toString());
      expect(header.alg).toBe('HS256');
      const claims = payloadOf(pair.access_token);
      expect(claims).toMatchObject({ sub: USER.id, user_id: USER.id, typ: 'access', tv: expect.any(Number) });
      expect(typeof claims['jti']).toBe('string');
      expect(Number(claims['exp']) - Number(claims['iat'])).toBe(1800);
      expect(pair.refresh_token).not.toBe(pair.access_token);
      expect(pair.refresh_token.length).toBeGreaterThanOrEqual(43);
      const me = ok(await ctx.request('GET', '/api/v1/users/me', { token: pair.access_token }));
      expect(me.id).toBe(USER.id);
    });

    it('matches the email case-insensitively and ignores surrounding spaces', async () => {
      ok(await ctx.login(`  ${USER.email.toUpperCase()} `, USER.password));
    });

    it('answers unknown user and wrong password identically, each after one bcrypt compare of the same cost', async () => {
      // The time is equal because the work is: an unknown user still gets a bcrypt comparison, against
      // a dummy hash of the configured cost. Asserted on the comparisons made; `pnpm bench auth`
      // measures the two paths' times.
      const verify = jest.spyOn(ctx.app.get(PasswordHasher), 'verify');
      const attempt = async (email: string, password: string) => {
        verify.mockClear();
        const r = await ctx.login(email, password);
        const hashes = verify.mock.calls.map(([, hashed]) => hashed);
        return { r, costs: hashes.map((hashed) => hashed.slice(0, 7)) };
      };
      try {
        const unknown = await attempt(`${unique('nobody')}@example.com`, 'whatever-password');
        const wrong = await attempt(ADMIN.email, 'wrong-password');
        for (const { r } of [unknown, wrong]) {
          expectEnvelope(r, 401, 'INVALID_CREDENTIALS');
          expect(r.headers.get('www-authenticate')).toBe('Bearer');
          expect(Object.keys(r.body).sort()).toEqual(['detail', 'error_code', 'request_id']);
          expect(r.body.detail).toBe(wrong.r.body.detail);
        }
        // One comparison each, against a hash of the same algorithm and cost (`$2b$12$`).
        expect(wrong.costs).toEqual([expect.stringMatching(/^\$2[aby]\$\d\d\$$/)]);
        expect(unknown.costs).toEqual(wrong.costs);
      } finally {
        verify.mockRestore();
      }
    });

    it('refuses an inactive user even with the right password, with the same answer', async () => {
      const { email, password } = await insertUser(ctx, { is_active: false });
      const r = await ctx.login(email, password);
      expectEnvelope(r, 401, 'INVALID_CREDENTIALS');
      expect(r.body.detail).toBe(ERROR_CATALOGUE.INVALID_CREDENTIALS.detail);
    });

    it.each([
      ['no password', { username: USER.email }],
      ['no username', { password: USER.password }],
      ['an empty password', { username: USER.email, password: '' }],
      ['a 2,000-character password', { username: USER.email, password: 'x'.repeat(2000) }],
    ])('refuses a form with %s (422)', async (_what, form) => {
      const r = await ctx.request('POST', '/api/v1/login', {
        rawBody: new URLSearchParams(form as Record<string, string>).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectEnvelope(r, 422, 'VALIDATION_ERROR');
    });
  });

  it('token responses (login, refresh) are never cached: Cache-Control no-store, Pragma no-cache', async () => {
    // RFC 6749 section 5.1: a response carrying tokens must not be stored by a cache or a browser.
    const login = await ctx.login(USER.email, USER.password);
    const refreshed = await refresh(ok(login).refresh_token);
    for (const response of [login, refreshed]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('pragma')).toBe('no-cache');
    }
  });

  describe('POST /api/v1/login/refresh', () => {
    it('rotates: a new pair, the new access token works, the old refresh token is spent', async () => {
      const first = ok(await ctx.login(USER.email, USER.password));
      const second = ok(await refresh(first.refresh_token));
      expect(second).toMatchObject({ token_type: 'bearer', expires_in: 1800 });
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      expect(ok(await ctx.request('GET', '/api/v1/users/me', { token: second.access_token })).id).toBe(
        USER.id,
      );
    });

    it('detects re-use: the spent token is REFRESH_TOKEN_REVOKED and every session ends with it', async () => {
      // A user of its own: re-use detection ends all of the user's sessions, ctx.userToken's too.
      const { email, password } = await insertUser(ctx);
      const first = ok(await ctx.login(email, password));
      const second = ok(await refresh(first.refresh_token));
      const other = ok(await ctx.login(email, password));
      const reuse = await refresh(first.refresh_token);
      expectEnvelope(reuse, 401, 'REFRESH_TOKEN_REVOKED');
      expect(reuse.headers.get('www-authenticate')).toBe('Bearer');
      expectEnvelope(await refresh(second.refresh_token), 401, 'REFRESH_TOKEN_REVOKED');
      // Every session of the user ends, including one started separately, access tokens included.
      expectEnvelope(await refresh(other.refresh_token), 401, 'REFRESH_TOKEN_REVOKED');
      for (const token of [second.access_token, other.access_token]) {
        expectEnvelope(await ctx.request('GET', '/api/v1/users/me', { token }), 401, 'UNAUTHORIZED');
      }
      // A new login starts over.
      const fresh = ok(await ctx.login(email, password));
      ok(await ctx.request('GET', '/api/v1/users/me', { token: fresh.access_token }));
      ok(await refresh(fresh.refresh_token));
    });

    it('rotates a token once even when two refreshes race', async () => {
      const pair = ok(await ctx.login(ADMIN.email, ADMIN.password));
      const [a, b] = await Promise.all([refresh(pair.refresh_token), refresh(pair.refresh_token)]);
      expect([a.status, b.status].sort()).toEqual([200, 401]);
    });

    it('refuses an unknown token with REFRESH_TOKEN_INVALID and a malformed body with 422', async () => {
      expectEnvelope(await refresh('not-a-token-we-issued'), 401, 'REFRESH_TOKEN_INVALID');
      expectEnvelope(await refresh('x'.repeat(513)), 422, 'VALIDATION_ERROR');
      expectEnvelope(
        await ctx.request('POST', '/api/v1/login/refresh', { body: {} }),
        422,
        'VALIDATION_ERROR',
      );
      expectEnvelope(
        await ctx.request('POST', '/api/v1/login/refresh', { body: { refresh_token: 'a', extra: 1 } }),
        422,
        'VALIDATION_ERROR',
      );
      // An access token is not a refresh token.
      expectEnvelope(await refresh(ctx.userToken), 401, 'REFRESH_TOKEN_INVALID');
    });
  });

  describe('refresh-token lifetime', () => {
    it('gives technical users long-lived refresh tokens (365 days) and regular users 14 days', async () => {
      const days = async (userType: 'regular' | 'technical') => {
        const { id, email, password } = await insertUser(ctx, { user_type: userType });
        ok(await ctx.login(email, password));
        const rows: { days: number }[] = await ctx.dataSource.query(
          `SELECT round(extract(epoch FROM expires_at - now()) / 86400)::int AS days
           FROM refresh_tokens WHERE user_id = $1`,
          [id],
        );
        return rows.map((r) => r.days);
      };
      expect(await days('technical')).toEqual([365]);
      expect(await days('regular')).toEqual([14]);
    });
  });

  describe('POST /api/v1/login/logout', () => {
    it('revokes the refresh token (204); the token can no longer refresh', async () => {
      const pair = ok(await ctx.login(USER.email, USER.password));
      const r = await logout(pair.refresh_token);
      expect(r.status).toBe(204);
      expect(r.body).toBe('');
      expectEnvelope(await refresh(pair.refresh_token), 401, 'REFRESH_TOKEN_REVOKED');
    });

    it('answers 204 for an unknown token (no oracle) and 422 for a malformed body', async () => {
      expect((await logout('never-issued')).status).toBe(204);
      expectEnvelope(
        await ctx.request('POST', '/api/v1/login/logout', { body: { token: 'x' } }),
        422,
        'VALIDATION_ERROR',
      );
    });
  });

  describe('POST /api/v1/login/logout-all', () => {
    it('needs a token', async () => {
      const r = await ctx.request('POST', '/api/v1/login/logout-all');
      expectEnvelope(r, 401, 'UNAUTHORIZED');
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('revokes every refresh token and every access token issued so far', async () => {
      const { email, password } = await insertUser(ctx);
      const a = ok(await ctx.login(email, password));
      const b = ok(await ctx.login(email, password));
      const r = await ctx.request('POST', '/api/v1/login/logout-all', { token: a.access_token });
      expect(r.status).toBe(204);
      for (const token of [a.access_token, b.access_token]) {
        expectEnvelope(await ctx.request('GET', '/api/v1/users/me', { token }), 401, 'UNAUTHORIZED');
      }
      for (const token of [a.refresh_token, b.refresh_token])
        expectEnvelope(await refresh(token), 401, 'REFRESH_TOKEN_REVOKED');
      const fresh = ok(await ctx.login(email, password));
      expect(ok(await ctx.request('GET', '/api/v1/users/me', { token: fresh.access_token })).email).toBe(
        email,
      );
      // Other users are untouched.
      ok(await ctx.request('GET', '/api/v1/users/me', { token: ctx.userToken }));
    });
  });
});

describe('login throttling per IP', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // The harness itself logs in twice (ADMIN, USER) from this IP.
    ctx = await createTestContext({ AIDE_LOGIN_MAX_PER_IP: '5' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('answers the 6th login in the window with 429 TOO_MANY_REQUESTS and Retry-After, right password or not', async () => {
    expect((await ctx.login(USER.email, 'wrong-password')).status).toBe(401); // 3rd
    expect((await ctx.login(`${unique('x')}@example.com`, 'whatever')).status).toBe(401); // 4th
    expect((await ctx.login(USER.email, USER.password)).status).toBe(200); // 5th
    const sixth = await ctx.login(ADMIN.email, ADMIN.password);
    const body = expectEnvelope(sixth, 429, 'TOO_MANY_REQUESTS');
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body.details).toEqual({ retry_after: retryAfter });
    // Refreshing counts against the same budget.
    expectEnvelope(
      await ctx.request('POST', '/api/v1/login/refresh', { body: { refresh_token: 'x' } }),
      429,
      'TOO_MANY_REQUESTS',
    );
    // Authenticated routes are not login attempts.
    ok(await ctx.request('GET', '/api/v1/users/me', { token: ctx.userToken }));
  });
});

/** A failed login as a client behind the proxies named by `forwardedFor` (an X-Forwarded-For value). */
function loginVia(ctx: TestContext, forwardedFor: string) {
  return ctx.request('POST', '/api/v1/login', {
    rawBody: new URLSearchParams({ username: `${unique('x')}@example.com`, password: 'whatever' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
  });
}

describe('login throttling behind a load balancer (AIDE_TRUSTED_PROXIES)', () => {
  // The test client connects from 127.0.0.1: the load balancer when it is trusted.
  describe('from a trusted proxy', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext({
        AIDE_LOGIN_MAX_PER_IP: '2',
        AIDE_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1',
      });
    });
    afterAll(async () => {
      await ctx.close();
    });

    it('throttles each client of X-Forwarded-For on its own, not everyone behind the proxy together', async () => {
      // The harness's two logins were counted for 127.0.0.1 itself (no header): clients start afresh.
      expectEnvelope(await loginVia(ctx, '203.0.113.7'), 401, 'INVALID_CREDENTIALS');
      expectEnvelope(await loginVia(ctx, '203.0.113.7'), 401, 'INVALID_CREDENTIALS');
      expectEnvelope(await loginVia(ctx, '203.0.113.7'), 429, 'TOO_MANY_REQUESTS');
      // Another client behind the same proxy is not locked out.
      expectEnvelope(await loginVia(ctx, '203.0.113.8'), 401, 'INVALID_CREDENTIALS');
    });

    it('walks X-Forwarded-For right to left past trusted hops only: a forged left-most entry does not help', async () => {
      // Client 203.0.113.7 (throttled above) prepends a fake address; its real address is appended by
      // the proxy chain (10.1.2.3 is an inner, trusted hop).
      expectEnvelope(await loginVia(ctx, '198.51.100.1, 203.0.113.7, 10.1.2.3'), 429, 'TOO_MANY_REQUESTS');
      expectEnvelope(await loginVia(ctx, '203.0.113.7, 198.51.100.9, 10.1.2.3'), 401, 'INVALID_CREDENTIALS');
    });
  });

  describe('from an untrusted peer', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      // Only 10.0.0.0/8 is trusted; the test client (127.0.0.1) is not.
      ctx = await createTestContext({ AIDE_LOGIN_MAX_PER_IP: '4', AIDE_TRUSTED_PROXIES: '10.0.0.0/8' });
    });
    afterAll(async () => {
      await ctx.close();
    });

    it('ignores X-Forwarded-For: every request counts for the peer address', async () => {
      // The harness logged in twice from 127.0.0.1: two attempts are left for that address.
      expectEnvelope(await loginVia(ctx, '203.0.113.1'), 401, 'INVALID_CREDENTIALS');
      expectEnvelope(await loginVia(ctx, '203.0.113.2'), 401, 'INVALID_CREDENTIALS');
      expectEnvelope(await loginVia(ctx, '203.0.113.3'), 429, 'TOO_MANY_REQUESTS');
    });
  });
});

describe('login throttling per account', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ AIDE_LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('locks the account after 3 failures, even for the right password, and only that account', async () => {
    for (let i = 0; i < 3; i++)
      expectEnvelope(await ctx.login(USER.email, `wrong-${i}`), 401, 'INVALID_CREDENTIALS');
    const locked = await ctx.login(USER.email, USER.password);
    expectEnvelope(locked, 429, 'TOO_MANY_REQUESTS');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The account key ignores case and spaces, so they do not get around the lock.
    expectEnvelope(await ctx.login(` ${USER.email.toUpperCase()}`, USER.password), 429, 'TOO_MANY_REQUESTS');
    ok(await ctx.login(ADMIN.email, ADMIN.password));
    // Sessions already open are not affected.
    ok(await ctx.request('GET', '/api/v1/users/me', { token: ctx.userToken }));
  });

  it('clears the failure count after a successful login', async () => {
    expectEnvelope(await ctx.login(ADMIN.email, 'wrong-1'), 401, 'INVALID_CREDENTIALS');
    expectEnvelope(await ctx.login(ADMIN.email, 'wrong-2'), 401, 'INVALID_CREDENTIALS');
    ok(await ctx.login(ADMIN.email, ADMIN.password));
    expectEnvelope(await ctx.login(ADMIN.email, 'wrong-3'), 401, 'INVALID_CREDENTIALS');
    expectEnvelope(await ctx.login(ADMIN.email, 'wrong-4'), 401, 'INVALID_CREDENTIALS');
    ok(await ctx.login(ADMIN.email, ADMIN.password));
  });
});
