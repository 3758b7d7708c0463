// Access-token verification: HS256 pinned, exp/iat/sub required, token_version checked against the live
// user row. Every refusal is 401 UNAUTHORIZED with the envelope and `WWW-Authenticate: Bearer`.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPair, SignJWT } from 'jose';
import { insertUser, ok, UNKNOWN_ID } from '../helpers/factories.js';
import {
  ADMIN,
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
  USER,
} from '../helpers/test-app.js';
import { b64url, forgeToken, payloadOf, SECRET_KEY, withHeader } from '../helpers/tokens.js';

const now = () => Math.floor(Date.now() / 1000);

function expect401(r: TestResponse) {
  expectEnvelope(r, 401, 'UNAUTHORIZED');
  expect(r.headers.get('www-authenticate')).toBe('Bearer');
}

describe('access tokens', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const me = (token: string) => ctx.request('GET', '/api/v1/users/me', { token });
  const meWithHeader = (authorization: string) =>
    ctx.request('GET', '/api/v1/users/me', { headers: { authorization } });

  /** A user of its own, logged in: its sessions can be ended without disturbing other tests. */
  const newSession = async () => {
    const user = await insertUser(ctx);
    const pair = ok(await ctx.login(user.email, user.password));
    return { ...user, token: pair.access_token as string };
  };

  it('accepts a token forged exactly like the server signs them (so the refusals below are meaningful)', async () => {
    expect(ok(await me(await forgeToken(USER.id))).id).toBe(USER.id);
    expect(payloadOf(ctx.userToken)['tv']).toBe(1);
  });

  it('refuses a request without a token or with a garbage token', async () => {
    expect401(await ctx.request('GET', '/api/v1/users/me'));
    expect401(await me('garbage'));
    expect401(await me('a.b.c'));
    expect401(await meWithHeader('Bearer'));
    expect401(
      await meWithHeader(`Basic ${Buffer.from(`${USER.email}:${USER.password}`).toString('base64')}`),
    );
    expect401(await meWithHeader(`Token ${ctx.userToken}`));
  });

  it('refuses an alg:none token', async () => {
    const header = b64url({ alg: 'none', typ: 'JWT' });
    const payload = b64url({
      sub: ADMIN.id,
      user_id: ADMIN.id,
      tv: 1,
      typ: 'access',
      iat: now(),
      exp: now() + 600,
    });
    expect401(await me(`${header}.${payload}.`));
    expect401(await me(`${header}.${payload}`));
    // The same with a valid signature kept from a real token.
    expect401(await me(withHeader(ctx.adminToken, { alg: 'none', typ: 'JWT' })));
  });

  it('refuses an HS384 token signed with the right secret', async () => {
    expect401(await me(await forgeToken(USER.id, { alg: 'HS384' })));
    expect401(await me(await forgeToken(USER.id, { alg: 'HS512' })));
  });

  it('refuses RS256: a real RSA-signed token, and an HMAC token relabelled RS256', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    expect401(await me(await forgeToken(USER.id, { alg: 'RS256', key: privateKey })));
    expect401(await me(withHeader(ctx.userToken, { alg: 'RS256', typ: 'JWT' })));
  });

  it('refuses a tampered signature and a tampered payload', async () => {
    const [h, p, s] = ctx.userToken.split('.') as [string, string, string];
    const flipped = `${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
    expect401(await me(`${h}.${p}.${flipped}`));
    expect401(await me(`${h}.${p}.`));
    // USER's signature on a payload claiming to be ADMIN: no privilege escalation.
    const claims = payloadOf(ctx.userToken);
    const escalated = b64url({ ...claims, sub: ADMIN.id, user_id: ADMIN.id });
    expect401(await ctx.request('GET', '/api/v1/users', { token: `${h}.${escalated}.${s}` }));
  });

  it('refuses a token signed with another secret', async () => {
    const other = new TextEncoder().encode('another-secret-that-is-long-enough-for-hs256-xx');
    expect401(await me(await forgeToken(USER.id, { key: other })));
  });

  it('refuses an expired token', async () => {
    expect401(await me(await forgeToken(USER.id, { iat: now() - 7200, exp: now() - 3600 })));
    expect401(await me(await forgeToken(USER.id, { iat: now() - 120, exp: now() - 5 })));
  });

  it('refuses a token without exp, without iat or without sub', async () => {
    expect401(await me(await forgeToken(USER.id, { exp: null })));
    expect401(await me(await forgeToken(USER.id, { iat: null })));
    const noSub = await new SignJWT({ user_id: USER.id, tv: 1, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(SECRET_KEY);
    expect401(await me(noSub));
  });

  it('refuses a token of another type, a stale token_version, and an unknown or malformed subject', async () => {
    expect401(await me(await forgeToken(USER.id, { typ: 'refresh' })));
    expect401(await me(await forgeToken(USER.id, { tv: 2 })));
    expect401(await me(await forgeToken(USER.id, { tv: 0 })));
    expect401(await me(await forgeToken(UNKNOWN_ID)));
    expect401(await me(await forgeToken('not-a-uuid')));
    expect401(await me(await forgeToken("00000000-0000-4000-8000-000000000002' OR '1'='1")));
  });

  it('refuses a token issued before logout-all', async () => {
    const s = await newSession();
    const other = ok(await ctx.login(s.email, s.password)).access_token as string;
    expect((await ctx.request('POST', '/api/v1/login/logout-all', { token: other })).status).toBe(204);
    expect401(await me(s.token));
    expect401(await me(other));
    // Even a forged token with the old token_version is refused.
    expect401(await me(await forgeToken(s.id, { tv: 1 })));
    expect(ok(await me(await forgeToken(s.id, { tv: 2 }))).id).toBe(s.id);
  });

  it('refuses a token issued before a password change', async () => {
    const s = await newSession();
    ok(
      await ctx.request('PATCH', '/api/v1/users/me', {
        token: s.token,
        body: { password: 'changed-password-2', current_password: s.password },
      }),
    );
    expect401(await me(s.token));
    ok(await me(ok(await ctx.login(s.email, 'changed-password-2')).access_token));
  });

  it('refuses the token of a deactivated user', async () => {
    const s = await newSession();
    ok(await me(s.token));
    ok(
      await ctx.request('PATCH', `/api/v1/users/${s.id}`, {
        token: ctx.adminToken,
        body: { is_active: false, row_version: 1 },
      }),
    );
    expect401(await me(s.token));
    // A freshly forged token with the current token_version is refused too: the guard reads is_active.
    const tv = (await ctx.dataSource.query('SELECT token_version FROM users WHERE id = $1', [s.id]))[0]
      .token_version;
    expect401(await me(await forgeToken(s.id, { tv })));
  });

  it('takes a demotion into account at once (the role is read from the user row, not the token)', async () => {
    const s = await newSession();
    ok(
      await ctx.request('PATCH', `/api/v1/users/${s.id}`, {
        token: ctx.adminToken,
        body: { is_superuser: true, row_version: 1 },
      }),
    );
    ok(await ctx.request('GET', '/api/v1/users', { token: s.token }));
    ok(
      await ctx.request('PATCH', `/api/v1/users/${s.id}`, {
        token: ctx.adminToken,
        body: { is_superuser: false, row_version: 2 },
      }),
    );
    expectEnvelope(await ctx.request('GET', '/api/v1/users', { token: s.token }), 403, 'FORBIDDEN');
  });
});
