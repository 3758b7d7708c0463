// Hostile input is answered 4xx with the envelope, never 500, and changes nothing it should not.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFlavor, createKind, createSystem, ok, unique } from '../helpers/factories.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
  USER,
} from '../helpers/test-app.js';

/** A client error with the envelope (any 4xx code): the server neither crashed nor leaked a stack. */
function expectClientError(r: TestResponse, status?: number) {
  if (status !== undefined) expect(r.status).toBe(status);
  expect(r.status).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof r.body.error_code).toBe('string');
  expect(typeof r.body.detail).toBe('string');
  expect(r.body.request_id).toBe(r.headers.get('x-request-id'));
  expect(JSON.stringify(r.body)).not.toMatch(/\bat .*\.(js|ts):\d+/);
}

const NUL = 'a\u0000b';
const LONG = 'x'.repeat(3000);

describe('hostile input', () => {
  let ctx: TestContext;
  let flavorId: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    flavorId = (await createFlavor(ctx)).id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const post = (path: string, body: unknown, token = ctx.adminToken) =>
    ctx.request('POST', `/api/v1/${path}`, { token, body });
  const raw = (
    method: string,
    path: string,
    rawBody: string | Buffer,
    contentType: string,
    token: string | null = ctx.adminToken,
  ) => ctx.request(method, path, { token, rawBody, headers: { 'content-type': contentType } });

  describe('NUL bytes', () => {
    it.each([
      ['system-kinds', () => ({ code: NUL, name: 'x' })],
      ['system-kinds', () => ({ code: unique('k'), name: NUL })],
      ['system-kinds', () => ({ code: unique('k'), name: 'x', note: NUL })],
      ['credential-refs', () => ({ provider: 'vault', path: NUL })],
      ['systems', () => ({ code: unique('s'), name: 'x', flavor_id: flavorId, tags: [NUL] })],
      [
        'systems',
        () => ({ code: unique('s'), name: 'x', flavor_id: flavorId, extra: { deep: { key: NUL } } }),
      ],
      ['systems', () => ({ code: unique('s'), name: 'x', flavor_id: flavorId, extra: { [NUL]: 1 } })],
      ['users', () => ({ email: `a\u0000b@example.com`, password: 'a-good-password' })],
      ['users', () => ({ email: `${unique('n')}@example.com`, password: 'a-good-\u0000password' })],
    ])('in a %s body is 422', async (path, body) => {
      expectEnvelope(await post(path, body()), 422, 'VALIDATION_ERROR');
    });

    it('in an update, /users/me, a filter and a login is 4xx', async () => {
      const kind = await createKind(ctx);
      expectEnvelope(
        await ctx.request('PATCH', `/api/v1/system-kinds/${kind.id}`, {
          token: ctx.adminToken,
          body: { name: NUL, row_version: 1 },
        }),
        422,
        'VALIDATION_ERROR',
      );
      expectEnvelope(
        await ctx.request('PATCH', '/api/v1/users/me', { token: ctx.userToken, body: { full_name: NUL } }),
        422,
        'VALIDATION_ERROR',
      );
      for (const q of ['code=a%00b', 'code__like=%00', 'code__in=a,%00', 'name=%00']) {
        expectEnvelope(
          await ctx.request('GET', `/api/v1/system-kinds?${q}`, { token: ctx.userToken }),
          422,
          'VALIDATION_ERROR',
        );
      }
      expectClientError(await ctx.login(`a\u0000b@example.com`, 'whatever-password'));
      expectClientError(await ctx.login(USER.email, 'user-\u0000password'));
      expectClientError(await ctx.request('POST', '/api/v1/login/refresh', { body: { refresh_token: NUL } }));
    });
  });

  describe('oversized values', () => {
    it.each([
      ['a 3,000-character code', 'system-kinds', () => ({ code: LONG, name: 'x' })],
      ['a 3,000-character name', 'system-kinds', () => ({ code: unique('k'), name: LONG })],
      [
        'a 3,000-character flavor code',
        'system-flavors',
        () => ({ code: LONG, name: 'x', kind_id: flavorId }),
      ],
      ['a 3,000-character provider', 'credential-refs', () => ({ provider: LONG, path: 'p' })],
      ['a 3,000-character path', 'credential-refs', () => ({ provider: 'vault', path: LONG })],
      [
        'a 3,000-character tag',
        'systems',
        () => ({ code: unique('s'), name: 'x', flavor_id: flavorId, tags: [LONG] }),
      ],
      [
        'a 10,001-character note',
        'system-kinds',
        () => ({ code: unique('k'), name: 'x', note: 'n'.repeat(10_001) }),
      ],
      [
        'a 3,000-character email',
        'users',
        () => ({ email: `${LONG}@example.com`, password: 'a-good-password' }),
      ],
    ])('%s is 422', async (_what, path, body) => {
      expectEnvelope(await post(path, body()), 422, 'VALIDATION_ERROR');
    });

    it.each([
      ['version 2^31', 2 ** 31],
      ['version 2^53', 2 ** 53],
      ['version 1e308', 1e308],
      ['a negative version', -5],
      ['a fractional version', 2.5],
    ])('a credential ref with %s is 422', async (_what, version) => {
      expectEnvelope(
        await post('credential-refs', { provider: unique('v'), path: 'p', version }),
        422,
        'VALIDATION_ERROR',
      );
    });

    it('a row_version or If-Match over 2^31, a huge page or a long filter is 422', async () => {
      const kind = await createKind(ctx);
      const path = `/api/v1/system-kinds/${kind.id}`;
      expectEnvelope(
        await ctx.request('PATCH', path, {
          token: ctx.adminToken,
          body: { name: 'y', row_version: 2 ** 31 },
        }),
        422,
        'VALIDATION_ERROR',
      );
      expectEnvelope(
        await ctx.request('PATCH', path, {
          token: ctx.adminToken,
          body: { name: 'y' },
          headers: { 'if-match': '"99999999999"' },
        }),
        422,
        'VALIDATION_ERROR',
      );
      for (const q of [
        'page=99999999999',
        'page=1.5',
        'size=1e9',
        `code=${LONG}`,
        `code__like=${LONG}`,
        `code__in=${'abc,'.repeat(1500)}`,
        `sort=${'code,'.repeat(200)}`,
        'code=a&code=b',
        'created_at__gte=yesterday',
        'created_at__gte=2020-02-30',
        'created_at__gte=0000-01-01',
      ]) {
        const r = await ctx.request('GET', `/api/v1/system-kinds?${q}`, { token: ctx.userToken });
        expect({ q: q.slice(0, 40), status: r.status }).toEqual({ q: q.slice(0, 40), status: 422 });
        expectClientError(r);
      }
    });

    it.each([
      ['a 300-character id', `/api/v1/systems/${'a'.repeat(300)}`],
      ['a 3,000-character id', `/api/v1/systems/${LONG}`],
      ['a 3,000-character id before /restore', `/api/v1/systems/${LONG}/restore`],
      ['a malformed percent-encoding', '/api/v1/systems/%zz'],
      ['a percent-encoded NUL', '/api/v1/systems/%00'],
    ])('%s in the path is 422 with the envelope', async (_what, path) => {
      const r = await ctx.request('GET', path, { token: ctx.userToken });
      expectEnvelope(r, 422, 'VALIDATION_ERROR');
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.body.detail.length).toBeLessThan(200);
    });

    it('an extra object nested 50 levels deep is stored as sent', async () => {
      const extra = JSON.parse(`${'{"a":'.repeat(50)}[1]${'}'.repeat(50)}`);
      const created = ok(
        await post('systems', { code: unique('d50'), name: 'x', flavor_id: flavorId, extra }, ctx.userToken),
        201,
      );
      expect(
        ok(await ctx.request('GET', `/api/v1/systems/${created.id}`, { token: ctx.userToken })).extra,
      ).toEqual(extra);
    });

    it.each([500, 3_000, 20_000])(
      'an extra nested %i levels deep is 422, not a stack overflow',
      async (depth) => {
        const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        const arrays = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
        for (const extra of [objects, arrays]) {
          const code = unique('deep');
          const body = `{"code":"${code}","name":"x","flavor_id":"${flavorId}","extra":${extra}}`;
          expectEnvelope(
            await raw('POST', '/api/v1/systems', body, 'application/json', ctx.userToken),
            422,
            'VALIDATION_ERROR',
          );
          const batch = `{"items":[{"code":"${code}","name":"x","flavor_id":"${flavorId}","extra":${extra}}]}`;
          expectEnvelope(
            await raw('POST', '/api/v1/systems/batch', batch, 'application/json', ctx.userToken),
            422,
            'VALIDATION_ERROR',
          );
        }
      },
    );

    it('a 2 MiB body is 413 PAYLOAD_TOO_LARGE, on a JSON route and on login', async () => {
      const big = JSON.stringify({ code: unique('big'), name: 'x'.repeat(2 * 1024 * 1024) });
      expectEnvelope(
        await raw('POST', '/api/v1/system-kinds', big, 'application/json'),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      const form = `username=${USER.email}&password=${'p'.repeat(2 * 1024 * 1024)}`;
      expectEnvelope(
        await raw('POST', '/api/v1/login', form, 'application/x-www-form-urlencoded', null),
        413,
        'PAYLOAD_TOO_LARGE',
      );
    });
  });

  describe('SQL metacharacters in filters', () => {
    it('are bound, not interpolated', async () => {
      const system = await createSystem(ctx, flavorId);
      for (const q of [
        `code__like=${encodeURIComponent("%'; DROP TABLE systems;--")}`,
        `code=${encodeURIComponent("' OR '1'='1")}`,
        `code__in=${encodeURIComponent("a','b') OR 1=1 --")}`,
        `name__like=${encodeURIComponent('\\')}`,
      ]) {
        const r = ok(await ctx.request('GET', `/api/v1/systems?${q}`, { token: ctx.userToken }));
        expect({ q, total: r.total }).toEqual({ q, total: 0 });
      }
      expect(ok(await ctx.request('GET', `/api/v1/systems/${system.id}`, { token: ctx.userToken })).id).toBe(
        system.id,
      );
      const sorted = await ctx.request(
        'GET',
        `/api/v1/systems?sort=${encodeURIComponent('code; DROP TABLE systems')}`,
        { token: ctx.userToken },
      );
      expectEnvelope(sorted, 422, 'VALIDATION_ERROR');
      expect(ok(await ctx.request('GET', '/api/v1/systems', { token: ctx.userToken })).total).toBeGreaterThan(
        0,
      );
    });

    it('matches _, % and \\ literally in __like', async () => {
      const p = unique('lit');
      for (const code of [`${p}a_c`, `${p}abc`, `${p}100%`, `${p}1000`, `${p}back\\slash`, `${p}backslash`]) {
        await createKind(ctx, { code });
      }
      const codes = async (like: string) =>
        ok(
          await ctx.request('GET', `/api/v1/system-kinds?code__like=${encodeURIComponent(like)}&sort=code`, {
            token: ctx.userToken,
          }),
        ).items.map((k: { code: string }) => k.code);
      expect(await codes(`${p}a_c`)).toEqual([`${p}a_c`]);
      expect(await codes(`${p}100%`)).toEqual([`${p}100%`]);
      expect(await codes(`${p}back\\s`)).toEqual([`${p}back\\slash`]);
      expect(await codes(`${p}`)).toHaveLength(6);
    });
  });

  describe('malformed bodies', () => {
    it.each([
      ['an array', '[{"code":"x","name":"y"}]'],
      ['a string', '"code"'],
      ['a number', '42'],
      ['null', 'null'],
      ['a boolean', 'true'],
      ['invalid JSON', '{"code": "x", '],
      ['a trailing comma', '{"code":"x","name":"y",}'],
      ['single quotes', "{'code':'x'}"],
      ['an empty body', ''],
      ['whitespace only', '   '],
    ])('%s as a JSON body is 422 on create, update, batch and refresh', async (_what, body) => {
      const kind = await createKind(ctx);
      expectEnvelope(
        await raw('POST', '/api/v1/system-kinds', body, 'application/json'),
        422,
        'VALIDATION_ERROR',
      );
      expectEnvelope(
        await raw('PATCH', `/api/v1/system-kinds/${kind.id}`, body, 'application/json'),
        422,
        'VALIDATION_ERROR',
      );
      expectEnvelope(
        await raw('POST', '/api/v1/systems/batch', body, 'application/json', ctx.userToken),
        422,
        'VALIDATION_ERROR',
      );
      expectEnvelope(
        await raw('POST', '/api/v1/login/refresh', body, 'application/json', null),
        422,
        'VALIDATION_ERROR',
      );
    });

    it('a missing body on create is 422', async () => {
      expectEnvelope(
        await ctx.request('POST', '/api/v1/system-kinds', { token: ctx.adminToken }),
        422,
        'VALIDATION_ERROR',
      );
    });

    it('invalid UTF-8 and lone surrogates do not crash the server', async () => {
      const bad = Buffer.concat([
        Buffer.from('{"code":"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('","name":"x"}'),
      ]);
      const r1 = await raw('POST', '/api/v1/system-kinds', bad, 'application/json');
      expect(r1.status === 201 || (r1.status >= 400 && r1.status < 500)).toBe(true);
      const r2 = await raw(
        'POST',
        '/api/v1/system-kinds',
        `{"code":"${unique('s')}\\ud800","name":"x"}`,
        'application/json',
      );
      expect(r2.status === 201 || (r2.status >= 400 && r2.status < 500)).toBe(true);
    });

    it('a JSON content type with parameters or in upper case is accepted', async () => {
      for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
        ok(
          await raw('POST', '/api/v1/system-kinds', JSON.stringify({ code: unique('ct'), name: 'x' }), type),
          201,
        );
      }
    });

    it.each([
      ['a form body', 'code=formkind&name=Form', 'application/x-www-form-urlencoded'],
      ['plain text', 'code=textkind', 'text/plain'],
      ['XML', '<kind><code>xmlkind</code></kind>', 'application/xml'],
      [
        'multipart',
        '--b\r\nContent-Disposition: form-data; name="code"\r\n\r\nmp\r\n--b--\r\n',
        'multipart/form-data; boundary=b',
      ],
    ])('%s to a JSON route is refused (4xx) and writes nothing', async (_what, body, type) => {
      expectClientError(await raw('POST', '/api/v1/system-kinds', body, type), 415);
      const kinds = ok(
        await ctx.request('GET', '/api/v1/system-kinds?code__in=formkind,textkind,xmlkind,mp', {
          token: ctx.adminToken,
        }),
      );
      expect(kinds.total).toBe(0);
    });
  });

  describe('prototype pollution', () => {
    it.each([
      ['__proto__ at the top', '{"__proto__":{"polluted":true},"code":"pp1","name":"x"}'],
      [
        'constructor.prototype at the top',
        '{"constructor":{"prototype":{"polluted":true}},"code":"pp2","name":"x"}',
      ],
      ['a bare constructor key', '{"constructor":"x","code":"pp2b","name":"x"}'],
    ])('%s in a JSON body is a 4xx', async (_what, body) => {
      expectClientError(await raw('POST', '/api/v1/system-kinds', body, 'application/json'));
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('__proto__ nested in extra is a 4xx and pollutes nothing', async () => {
      const body = `{"code":"${unique('pp')}","name":"x","flavor_id":"${flavorId}","extra":{"a":{"__proto__":{"polluted":true}}}}`;
      expectClientError(await raw('POST', '/api/v1/systems', body, 'application/json', ctx.userToken));
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('cannot make a user superuser through __proto__ on /users/me', async () => {
      const r = await raw(
        'PATCH',
        '/api/v1/users/me',
        '{"__proto__":{"is_superuser":true},"full_name":"x"}',
        'application/json',
        ctx.userToken,
      );
      expectClientError(r);
      expect(ok(await ctx.request('GET', '/api/v1/users/me', { token: ctx.userToken })).is_superuser).toBe(
        false,
      );
      expectEnvelope(await ctx.request('GET', '/api/v1/users', { token: ctx.userToken }), 403, 'FORBIDDEN');
    });

    it('__proto__ in a login form or a query string is a 4xx', async () => {
      const form = `username=${encodeURIComponent(USER.email)}&password=x&__proto__[admin]=1&__proto__=1`;
      expectClientError(await raw('POST', '/api/v1/login', form, 'application/x-www-form-urlencoded', null));
      expectClientError(
        await ctx.request('GET', '/api/v1/system-kinds?__proto__[x]=1', { token: ctx.userToken }),
        422,
      );
      expectClientError(
        await ctx.request('GET', '/api/v1/system-kinds?constructor=1', { token: ctx.userToken }),
        422,
      );
      expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
      expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    });
  });

  describe('headers', () => {
    it('an oversized bearer token or If-Match is a 4xx', async () => {
      const r = await ctx.request('GET', '/api/v1/users/me', { token: 'x'.repeat(8000) });
      expectEnvelope(r, 401, 'UNAUTHORIZED');
      const kind = await createKind(ctx);
      const m = await ctx.request('PATCH', `/api/v1/system-kinds/${kind.id}`, {
        token: ctx.adminToken,
        body: { name: 'y' },
        headers: { 'if-match': `"${'9'.repeat(3000)}"` },
      });
      expectEnvelope(m, 422, 'VALIDATION_ERROR');
    });
  });
});
