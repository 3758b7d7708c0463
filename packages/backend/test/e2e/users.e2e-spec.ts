// /api/v1/users (superusers) and /api/v1/users/me (everyone).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { insertUser, ok, unique, UNKNOWN_ID } from '../helpers/factories.js';
import { ADMIN, createTestContext, expectEnvelope, type TestContext, USER } from '../helpers/test-app.js';

// 37 two-byte characters: 37 characters (passes a character count) but 74 bytes (over bcrypt's 72).
const LONG_PASSWORD = 'é'.repeat(37);

describe('/api/v1/users', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** A user of its own (inserted, see insertUser), logged in. */
  const newUser = async () => {
    const { id, email, password } = await insertUser(ctx);
    const login = ok(await ctx.login(email, password));
    return {
      user: { id },
      email,
      password,
      token: login.access_token as string,
      refresh: login.refresh_token as string,
    };
  };

  describe('superuser routes', () => {
    it('lists users in the envelope, never exposing password hashes or token versions', async () => {
      const list = ok(await ctx.request('GET', '/api/v1/users', { token: ctx.adminToken }));
      expect(list).toMatchObject({ page: 1, size: 50, pages: 1 });
      expect(list.total).toBeGreaterThanOrEqual(2);
      const emails = list.items.map((u: { email: string }) => u.email);
      expect(emails).toEqual(expect.arrayContaining([ADMIN.email, USER.email]));
      for (const u of list.items) {
        expect(u).not.toHaveProperty('hashed_password');
        expect(u).not.toHaveProperty('password');
        expect(u).not.toHaveProperty('token_version');
      }
      const slashed = ok(await ctx.request('GET', '/api/v1/users/', { token: ctx.adminToken }));
      expect(slashed.total).toBe(list.total);
    });

    it('filters and sorts users', async () => {
      const get = async (q: string) =>
        ok(await ctx.request('GET', `/api/v1/users?${q}`, { token: ctx.adminToken })).items.map(
          (u: { email: string }) => u.email,
        );
      expect(await get(`email=${ADMIN.email}`)).toEqual([ADMIN.email]);
      expect(await get('email__like=user%40test')).toEqual([USER.email]);
      expect(await get('is_superuser=true&email__like=test.local')).toEqual([ADMIN.email]);
      expect(await get('user_type__in=regular,technical&email__like=test.local&sort=-email')).toEqual([
        USER.email,
        ADMIN.email,
      ]);
      for (const q of [
        'user_type=robot',
        'include_deleted=true',
        'sort=hashed_password',
        'size=101',
        'token_version=1',
      ]) {
        expectEnvelope(
          await ctx.request('GET', `/api/v1/users?${q}`, { token: ctx.adminToken }),
          422,
          'VALIDATION_ERROR',
        );
      }
    });

    it('gets a user by id; unknown id is 404 USER_NOT_FOUND; bad id is 422', async () => {
      const got = await ctx.request('GET', `/api/v1/users/${USER.id}`, { token: ctx.adminToken });
      expect(ok(got)).toMatchObject({
        id: USER.id,
        email: USER.email,
        is_superuser: false,
        is_active: true,
        user_type: 'regular',
      });
      expect(got.headers.get('etag')).toMatch(/^"\d+"$/);
      expectEnvelope(
        await ctx.request('GET', `/api/v1/users/${UNKNOWN_ID}`, { token: ctx.adminToken }),
        404,
        'USER_NOT_FOUND',
      );
      expectEnvelope(
        await ctx.request('GET', '/api/v1/users/123', { token: ctx.adminToken }),
        422,
        'VALIDATION_ERROR',
      );
    });

    it('creates a user (201, lower-cased email, no password in the answer) and refuses a duplicate email case-insensitively', async () => {
      const email = `${unique('Mixed')}@Example.COM`;
      const created = ok(
        await ctx.request('POST', '/api/v1/users', {
          token: ctx.adminToken,
          body: { email, password: 'a-good-password', user_type: 'technical' },
        }),
        201,
      );
      expect(created).toMatchObject({
        email: email.toLowerCase(),
        is_active: true,
        is_superuser: false,
        user_type: 'technical',
        full_name: null,
        row_version: 1,
        created_by: ADMIN.id,
      });
      expect(created).not.toHaveProperty('password');
      expect(created).not.toHaveProperty('hashed_password');
      const dup = await ctx.request('POST', '/api/v1/users', {
        token: ctx.adminToken,
        body: { email: email.toUpperCase(), password: 'another-password' },
      });
      expectEnvelope(dup, 409, 'USER_ALREADY_EXISTS');
    });

    it.each([
      ['a password over 72 bytes', { password: LONG_PASSWORD }],
      ['a password under 8 characters', { password: 'short' }],
      ['a bad email', { email: 'not-an-email' }],
      ['an unknown field', { hashed_password: 'x' }],
      ['a wrong type', { is_superuser: 'yes' }],
      ['an unknown user type', { user_type: 'robot' }],
    ])('refuses %s on create with 422', async (_what, patch) => {
      const body = { email: `${unique('v')}@example.com`, password: 'a-good-password', ...patch };
      expectEnvelope(
        await ctx.request('POST', '/api/v1/users', { token: ctx.adminToken, body }),
        422,
        'VALIDATION_ERROR',
      );
    });

    it('accepts a password of exactly 72 bytes', async () => {
      const body = { email: `${unique('w')}@example.com`, password: 'é'.repeat(36) };
      ok(await ctx.request('POST', '/api/v1/users', { token: ctx.adminToken, body }), 201);
    });

    it.each([
      ['GET', '/api/v1/users', undefined],
      ['POST', '/api/v1/users', { email: 'x@example.com', password: 'a-good-password' }],
      ['GET', `/api/v1/users/${ADMIN.id}`, undefined],
      ['PUT', `/api/v1/users/${USER.id}`, { is_superuser: true, row_version: 1 }],
      ['PATCH', `/api/v1/users/${USER.id}`, { is_superuser: true, row_version: 1 }],
    ])('refuses %s %s to a regular user with 403', async (method, path, body) => {
      expectEnvelope(await ctx.request(method, path, { token: ctx.userToken, body }), 403, 'FORBIDDEN');
    });

    it('has no delete: DELETE /users/{id} is 405 with Allow', async () => {
      const r = await ctx.request('DELETE', `/api/v1/users/${USER.id}`, { token: ctx.adminToken });
      expectEnvelope(r, 405, 'METHOD_NOT_ALLOWED');
      expect(r.headers.get('allow')).toEqual(expect.stringContaining('PATCH'));
      expect(r.headers.get('allow')).not.toContain('DELETE');
    });

    it.each(['PUT', 'PATCH'])(
      '%s updates with row_version or If-Match; stale is 409; neither is 428',
      async (method) => {
        const { id, email } = await insertUser(ctx);
        const path = `/api/v1/users/${id}`;
        const updated = ok(
          await ctx.request(method, path, {
            token: ctx.adminToken,
            body: { full_name: 'Renamed', row_version: 1 },
          }),
        );
        expect(updated).toMatchObject({ full_name: 'Renamed', email, row_version: 2, updated_by: ADMIN.id });
        expectEnvelope(
          await ctx.request(method, path, {
            token: ctx.adminToken,
            body: { full_name: 'x', row_version: 1 },
          }),
          409,
          'VERSION_CONFLICT',
        );
        expectEnvelope(
          await ctx.request(method, path, { token: ctx.adminToken, body: { full_name: 'x' } }),
          428,
          'PRECONDITION_REQUIRED',
        );
        const viaHeader = await ctx.request(method, path, {
          token: ctx.adminToken,
          body: { user_type: 'technical' },
          headers: { 'if-match': '"2"' },
        });
        expect(ok(viaHeader)).toMatchObject({ user_type: 'technical', row_version: 3 });
        expect(viaHeader.headers.get('etag')).toBe('"3"');
        expectEnvelope(
          await ctx.request(method, path, {
            token: ctx.adminToken,
            body: { password: LONG_PASSWORD, row_version: 3 },
          }),
          422,
          'VALIDATION_ERROR',
        );
        expectEnvelope(
          await ctx.request(method, `/api/v1/users/${UNKNOWN_ID}`, {
            token: ctx.adminToken,
            body: { full_name: 'x', row_version: 1 },
          }),
          404,
          'USER_NOT_FOUND',
        );
      },
    );

    it('refuses an update to an email already taken with 409', async () => {
      const u = await insertUser(ctx);
      const r = await ctx.request('PATCH', `/api/v1/users/${u.id}`, {
        token: ctx.adminToken,
        body: { email: USER.email.toUpperCase(), row_version: 1 },
      });
      expectEnvelope(r, 409, 'USER_ALREADY_EXISTS');
    });

    it('deactivating a user ends their sessions and blocks login; reactivating lets them back', async () => {
      const { user, email, password, token, refresh } = await newUser();
      ok(await ctx.request('GET', '/api/v1/users/me', { token }));
      const off = ok(
        await ctx.request('PATCH', `/api/v1/users/${user.id}`, {
          token: ctx.adminToken,
          body: { is_active: false, row_version: 1 },
        }),
      );
      expect(off.is_active).toBe(false);
      const denied = await ctx.request('GET', '/api/v1/users/me', { token });
      expectEnvelope(denied, 401, 'UNAUTHORIZED');
      expect(denied.headers.get('www-authenticate')).toBe('Bearer');
      expectEnvelope(await ctx.login(email, password), 401, 'INVALID_CREDENTIALS');
      const refreshed = await ctx.request('POST', '/api/v1/login/refresh', {
        body: { refresh_token: refresh },
      });
      expect(refreshed.status).toBe(401);

      ok(
        await ctx.request('PATCH', `/api/v1/users/${user.id}`, {
          token: ctx.adminToken,
          body: { is_active: true, row_version: 2 },
        }),
      );
      const back = ok(await ctx.login(email, password));
      expect(ok(await ctx.request('GET', '/api/v1/users/me', { token: back.access_token })).email).toBe(
        email,
      );
    });

    it('a password reset by a superuser ends the sessions; only the new password works', async () => {
      const { user, email, password, token } = await newUser();
      ok(
        await ctx.request('PUT', `/api/v1/users/${user.id}`, {
          token: ctx.adminToken,
          body: { password: 'reset-password-2', row_version: 1 },
        }),
      );
      expectEnvelope(await ctx.request('GET', '/api/v1/users/me', { token }), 401, 'UNAUTHORIZED');
      expectEnvelope(await ctx.login(email, password), 401, 'INVALID_CREDENTIALS');
      ok(await ctx.login(email, 'reset-password-2'));
    });
  });

  describe('/api/v1/users/me', () => {
    it('returns the caller (any user) with an ETag', async () => {
      const me = await ctx.request('GET', '/api/v1/users/me', { token: ctx.userToken });
      expect(ok(me)).toMatchObject({ id: USER.id, email: USER.email, is_superuser: false });
      expect(me.body).not.toHaveProperty('hashed_password');
      expect(me.headers.get('etag')).toBe(`"${me.body.row_version}"`);
      expectEnvelope(
        await ctx.request('GET', '/api/v1/users/me?x=1', { token: ctx.userToken }),
        422,
        'VALIDATION_ERROR',
      );
    });

    it.each(['PUT', 'PATCH'])('%s changes the full name; a stale row_version is 409', async (method) => {
      const me = ok(await ctx.request('GET', '/api/v1/users/me', { token: ctx.userToken }));
      const name = unique('Name');
      const updated = ok(
        await ctx.request(method, '/api/v1/users/me', {
          token: ctx.userToken,
          body: { full_name: name, row_version: me.row_version },
        }),
      );
      expect(updated).toMatchObject({
        id: USER.id,
        full_name: name,
        row_version: me.row_version + 1,
        updated_by: USER.id,
      });
      const stale = await ctx.request(method, '/api/v1/users/me', {
        token: ctx.userToken,
        body: { full_name: 'stale', row_version: me.row_version },
      });
      expectEnvelope(stale, 409, 'VERSION_CONFLICT');
      const viaHeader = await ctx.request(method, '/api/v1/users/me', {
        token: ctx.userToken,
        body: { full_name: 'stale' },
        headers: { 'if-match': `"${me.row_version}"` },
      });
      expectEnvelope(viaHeader, 409, 'VERSION_CONFLICT');
    });

    it.each([
      ['promote itself', { is_superuser: true }],
      ['activate itself', { is_active: true }],
      ['change its email', { email: 'other@example.com' }],
      ['change its type', { user_type: 'technical' }],
      ['set an unknown field', { role: 'admin' }],
    ])('refuses a user trying to %s (422)', async (_what, body) => {
      const r = await ctx.request('PATCH', '/api/v1/users/me', { token: ctx.userToken, body });
      expectEnvelope(r, 422, 'VALIDATION_ERROR');
      expect(ok(await ctx.request('GET', '/api/v1/users/me', { token: ctx.userToken })).is_superuser).toBe(
        false,
      );
    });

    it('changing the own password needs the current one, refuses over 72 bytes and ends the old sessions', async () => {
      const { email, password, token } = await newUser();
      const me = (body: Record<string, unknown>, t = token) =>
        ctx.request('PATCH', '/api/v1/users/me', { token: t, body });

      expectEnvelope(await me({ password: 'new-password-22' }), 422, 'VALIDATION_ERROR');
      expectEnvelope(
        await me({ password: 'new-password-22', current_password: 'wrong-password' }),
        422,
        'INVALID_CURRENT_PASSWORD',
      );
      expectEnvelope(
        await me({ password: LONG_PASSWORD, current_password: password }),
        422,
        'VALIDATION_ERROR',
      );
      // None of the refused attempts changed anything.
      ok(await ctx.request('GET', '/api/v1/users/me', { token }));

      ok(await me({ password: 'new-password-22', current_password: password }));
      expectEnvelope(await ctx.request('GET', '/api/v1/users/me', { token }), 401, 'UNAUTHORIZED');
      expectEnvelope(await ctx.login(email, password), 401, 'INVALID_CREDENTIALS');
      const fresh = ok(await ctx.login(email, 'new-password-22'));
      expect(ok(await ctx.request('GET', '/api/v1/users/me', { token: fresh.access_token })).email).toBe(
        email,
      );
    });
  });
});
