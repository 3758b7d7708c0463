// Cross-cutting HTTP contract: authentication on every protected route, public routes, 404/405,
// X-Request-ID, health, the OpenAPI document and the docs page.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COLLECTIONS, ok, UNKNOWN_ID } from '../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext, USER } from '../helpers/test-app.js';

const ID = UNKNOWN_ID;

/** Every route of the foundation that needs a token. */
const PROTECTED: [string, string][] = [
  ['POST', '/api/v1/login/logout-all'],
  ['GET', '/api/v1/users'],
  ['GET', '/api/v1/users/'],
  ['POST', '/api/v1/users'],
  ['GET', `/api/v1/users/${ID}`],
  ['PUT', `/api/v1/users/${ID}`],
  ['PATCH', `/api/v1/users/${ID}`],
  ['GET', '/api/v1/users/me'],
  ['PUT', '/api/v1/users/me'],
  ['PATCH', '/api/v1/users/me'],
  ...COLLECTIONS.flatMap(({ path }): [string, string][] => [
    ['GET', `/api/v1/${path}`],
    ['GET', `/api/v1/${path}/`],
    ['POST', `/api/v1/${path}`],
    ['GET', `/api/v1/${path}/${ID}`],
    ['PUT', `/api/v1/${path}/${ID}`],
    ['PATCH', `/api/v1/${path}/${ID}`],
    ['DELETE', `/api/v1/${path}/${ID}`],
    ['POST', `/api/v1/${path}/${ID}/restore`],
  ]),
  ['POST', '/api/v1/systems/batch'],
];

describe('HTTP contract', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  describe('authentication', () => {
    it.each(PROTECTED)(
      '%s %s without a token is 401 with the envelope and WWW-Authenticate',
      async (method, path) => {
        const body = method === 'GET' || method === 'DELETE' ? undefined : { anything: 'at all' };
        const r = await ctx.request(method, path, { body });
        expectEnvelope(r, 401, 'UNAUTHORIZED');
        expect(r.headers.get('www-authenticate')).toBe('Bearer');
      },
    );

    it.each(PROTECTED)('%s %s with a garbage token is 401', async (method, path) => {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const r = await ctx.request(method, path, { token: 'eyJhbGciOiJIUzI1NiJ9.garbage.garbage', body });
      expectEnvelope(r, 401, 'UNAUTHORIZED');
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('writes nothing for an unauthenticated create', async () => {
      const r = await ctx.request('POST', '/api/v1/system-kinds', {
        body: { code: 'anon', name: 'Anonymous' },
      });
      expect(r.status).toBe(401);
      expect(
        ok(await ctx.request('GET', '/api/v1/system-kinds?code=anon', { token: ctx.adminToken })).total,
      ).toBe(0);
    });

    it.each([
      ['GET', '/health/live'],
      ['GET', '/health/ready'],
      ['GET', '/openapi.json'],
      ['GET', '/docs'],
      ['GET', '/docs/init.js'],
      ['GET', '/docs/assets/swagger-ui.css'],
    ])('%s %s is public', async (method, path) => {
      const r = await ctx.request(method, path);
      expect(r.status).toBe(200);
    });

    it('login, refresh and logout are public (answer without a token, never 401 UNAUTHORIZED)', async () => {
      expect((await ctx.login(USER.email, USER.password)).status).toBe(200);
      expectEnvelope(
        await ctx.request('POST', '/api/v1/login/refresh', { body: { refresh_token: 'x' } }),
        401,
        'REFRESH_TOKEN_INVALID',
      );
      expect(
        (await ctx.request('POST', '/api/v1/login/logout', { body: { refresh_token: 'x' } })).status,
      ).toBe(204);
    });
  });

  describe('routing', () => {
    it.each([
      ['GET', '/api/v1/nothing-here'],
      ['GET', '/api/v2/systems'],
      ['POST', '/api/v1/system-kinds/x/y/z'],
      ['GET', '/'],
      ['GET', '/docs/assets/..%2Fpackage.json'],
      ['GET', '/docs/assets/index.html'],
    ])('%s %s is 404 NOT_FOUND with the envelope', async (method, path) => {
      expectEnvelope(await ctx.request(method, path, { token: ctx.adminToken }), 404, 'NOT_FOUND');
      expectEnvelope(await ctx.request(method, path), 404, 'NOT_FOUND');
    });

    it.each([
      ['DELETE', '/api/v1/system-kinds', ['GET', 'POST']],
      ['PUT', '/api/v1/systems/', ['GET', 'POST']],
      ['POST', `/api/v1/system-flavors/${ID}`, ['DELETE', 'GET', 'PATCH', 'PUT']],
      ['GET', `/api/v1/credential-refs/${ID}/restore`, ['POST']],
      ['DELETE', `/api/v1/users/${ID}`, ['GET', 'PATCH', 'PUT']],
      ['DELETE', '/api/v1/users/me', ['GET', 'PATCH', 'PUT']],
      ['GET', '/api/v1/login', ['POST']],
      ['GET', '/api/v1/login/refresh', ['POST']],
      ['POST', '/health/live', ['GET']],
      ['POST', '/openapi.json', ['GET']],
    ])('%s %s is 405 METHOD_NOT_ALLOWED with an Allow header', async (method, path, allowed) => {
      const r = await ctx.request(method, path, { token: ctx.adminToken });
      expectEnvelope(r, 405, 'METHOD_NOT_ALLOWED');
      const allow = (r.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow).toEqual(expect.arrayContaining(allowed));
      expect(allow).not.toContain(method);
    });
  });

  describe('X-Request-ID', () => {
    it('is echoed when sane, on success and on errors (and in the envelope)', async () => {
      const id = 'req-42.abc:DEF_9';
      const okResponse = await ctx.request('GET', '/health/live', { headers: { 'x-request-id': id } });
      expect(okResponse.headers.get('x-request-id')).toBe(id);
      const err = await ctx.request('GET', '/api/v1/users/me', { headers: { 'x-request-id': id } });
      expect(err.headers.get('x-request-id')).toBe(id);
      expect(err.body.request_id).toBe(id);
    });

    it('is generated when absent, unique per request', async () => {
      const a = (await ctx.request('GET', '/health/live')).headers.get('x-request-id');
      const b = (await ctx.request('GET', '/health/live')).headers.get('x-request-id');
      expect(a).toMatch(/^[0-9a-f-]{36}$/);
      expect(b).toMatch(/^[0-9a-f-]{36}$/);
      expect(a).not.toBe(b);
    });

    it.each([
      ['500 characters', 'a'.repeat(500)],
      ['spaces', 'has spaces in it'],
      ['a newline-ish injection', 'abc%0d%0aSet-Cookie:x'],
      ['markup', '<script>alert(1)</script>'],
    ])('is replaced when it has %s', async (_what, value) => {
      const r = await ctx.request('GET', '/api/v1/users/me', { headers: { 'x-request-id': value } });
      const id = r.headers.get('x-request-id');
      expect(id).not.toBe(value);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.body.request_id).toBe(id);
    });

    it('sends X-Content-Type-Options: nosniff', async () => {
      expect((await ctx.request('GET', '/health/live')).headers.get('x-content-type-options')).toBe(
        'nosniff',
      );
    });
  });

  describe('platform routes', () => {
    it('/health/live and /health/ready say ok', async () => {
      expect(ok(await ctx.request('GET', '/health/live'))).toEqual({ status: 'ok' });
      expect(ok(await ctx.request('GET', '/health/ready'))).toEqual({ status: 'ok', database: 'ok' });
    });

    it('/openapi.json is an OpenAPI 3.1 document covering every route of the foundation', async () => {
      const r = await ctx.request('GET', '/openapi.json');
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = ok(r);
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
      expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });

      const expected: Record<string, string[]> = {
        '/api/v1/login': ['post'],
        '/api/v1/login/refresh': ['post'],
        '/api/v1/login/logout': ['post'],
        '/api/v1/login/logout-all': ['post'],
        '/api/v1/users': ['get', 'post'],
        '/api/v1/users/{id}': ['get', 'patch', 'put'],
        '/api/v1/users/me': ['get', 'patch', 'put'],
        '/api/v1/systems/batch': ['post'],
      };
      for (const { path } of COLLECTIONS) {
        expected[`/api/v1/${path}`] = ['get', 'post'];
        expected[`/api/v1/${path}/{id}`] = ['delete', 'get', 'patch', 'put'];
        expected[`/api/v1/${path}/{id}/restore`] = ['post'];
      }
      const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
      for (const [path, ops] of Object.entries(expected)) {
        expect({
          path,
          ops: Object.keys(doc.paths[path] ?? {})
            .filter((k) => methods.has(k))
            .sort(),
        }).toEqual({ path, ops });
      }
      // Structurally valid: every operation has responses keyed by status, every $ref resolves.
      for (const [path, item] of Object.entries(
        doc.paths as Record<string, Record<string, { responses?: object }>>,
      )) {
        expect(path.startsWith('/')).toBe(true);
        for (const [method, operation] of Object.entries(item)) {
          if (!methods.has(method)) continue;
          expect(Object.keys(operation.responses ?? {}).length).toBeGreaterThan(0);
          for (const status of Object.keys(operation.responses ?? {}))
            expect(status).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
        }
      }
      const refs: string[] = [];
      JSON.stringify(doc, (key, value) => {
        if (key === '$ref' && typeof value === 'string') refs.push(value);
        return value;
      });
      for (const ref of new Set(refs)) {
        expect(ref.startsWith('#/')).toBe(true);
        const target = ref
          .slice(2)
          .split('/')
          .reduce<unknown>(
            (node, part) =>
              (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')],
            doc,
          );
        expect({ ref, resolved: target !== undefined }).toEqual({ ref, resolved: true });
      }
      // The error envelope is documented.
      expect(JSON.stringify(doc)).toContain('error_code');
    });

    it('/docs serves an HTML page over /openapi.json, with its assets', async () => {
      const page = await ctx.request('GET', '/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.body).toMatch(/<!doctype html>/i);
      expect(page.body).toContain('swagger-ui');
      const init = await ctx.request('GET', '/docs/init.js');
      expect(init.body).toContain('/openapi.json');
      const css = await ctx.request('GET', '/docs/assets/swagger-ui.css');
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
      expect(String(css.body).length).toBeGreaterThan(1000);
      const bundle = await ctx.request('GET', '/docs/assets/swagger-ui-bundle.js');
      expect(bundle.status).toBe(200);
    });
  });
});
