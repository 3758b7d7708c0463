// Cache-Control (issue 22, item 8; ADR 0036): every response of an authenticated route says `no-store`,
// successes and errors alike; the DataCoolie snapshot, which clients revalidate with If-None-Match, says
// `private, no-cache`; public routes keep their own caching.
import { contractRoutes } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, seedReference } from '../helpers/catalogue.js';
import { ok, UNKNOWN_ID } from '../helpers/factories.js';
import {
  copyBody,
  createDataflowRequest,
  type PipelineFixture,
  pipelineFixture,
} from '../helpers/provider.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
  USER,
} from '../helpers/test-app.js';

/** Every contract route that needs a caller, its path parameters filled with an unknown id. */
const AUTHENTICATED = contractRoutes()
  .filter((r) => r.auth !== 'anonymous')
  .map((r): [string, string] => [r.method, r.path.replace(/:\w+/g, UNKNOWN_ID)]);

describe('Cache-Control', () => {
  let ctx: TestContext;
  let f: PipelineFixture;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    f = await pipelineFixture(ctx);
    key = ok(
      await ctx.request('POST', `${API}/api-keys`, {
        token: ctx.userToken,
        body: { name: 'pipelines', workspace_ids: [f.workspace.id] },
      }),
      201,
    ).key;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const cacheControl = (r: TestResponse) => r.headers.get('cache-control');

  it('covers the whole contract: more than a hundred authenticated routes', () => {
    expect(AUTHENTICATED.length).toBeGreaterThan(100);
  });

  it.each(AUTHENTICATED)('%s %s answers its 401 with no-store', async (method, path) => {
    const r = await ctx.request(method, path, { token: null });
    expectEnvelope(r, 401, 'UNAUTHORIZED');
    expect(cacheControl(r)).toBe('no-store');
  });

  it('says no-store on successes and on every kind of error of an authenticated caller', async () => {
    const answers: [string, TestResponse, number][] = [
      ['read', await ctx.request('GET', `${API}/users/me`, { token: ctx.userToken }), 200],
      ['list', await ctx.request('GET', `${API}/system-kinds`, { token: ctx.userToken }), 200],
      [
        'create',
        await ctx.request('POST', `${API}/workspaces`, {
          token: ctx.userToken,
          body: { code: 'cache_control_ws', name: 'Cache-Control' },
        }),
        201,
      ],
      ['404', await ctx.request('GET', `${API}/datasets/${UNKNOWN_ID}`, { token: ctx.userToken }), 404],
      ['403', await ctx.request('POST', `${API}/system-kinds`, { token: ctx.userToken, body: {} }), 403],
      ['422', await ctx.request('GET', `${API}/datasets?size=1000`, { token: ctx.userToken }), 422],
      [
        '415',
        await ctx.request('POST', `${API}/datasets`, {
          token: ctx.userToken,
          rawBody: 'a=b',
          headers: { 'content-type': 'text/plain' },
        }),
        415,
      ],
      [
        'API key',
        await ctx.request('GET', `${API}/workspaces/${f.workspace.code}/connections`, {
          token: null,
          headers: { 'x-api-key': key },
        }),
        200,
      ],
    ];
    expect(answers.map(([what, r]) => [what, r.status, cacheControl(r)])).toEqual(
      answers.map(([what, , status]) => [what, status, 'no-store']),
    );
  });

  it('says no-store on HEAD, the twin of every GET route', async () => {
    const me = `${API}/users/me`;
    const answers = [
      await ctx.request('HEAD', me, { token: ctx.userToken }),
      await ctx.request('HEAD', me, { token: null }),
    ];
    expect(answers.map((r) => [r.status, cacheControl(r)])).toEqual([
      [200, 'no-store'],
      [401, 'no-store'],
    ]);
  });

  it('keeps no-store on the routes that already sent it (tokens, API keys)', async () => {
    const login = await ctx.login(USER.email, USER.password);
    expect([login.status, cacheControl(login)]).toEqual([200, 'no-store']);
    const created = await ctx.request('POST', `${API}/api-keys`, {
      token: ctx.userToken,
      body: { name: 'another', workspace_ids: [f.workspace.id] },
    });
    expect([created.status, cacheControl(created), created.headers.get('pragma')]).toEqual([
      201,
      'no-store',
      'no-cache',
    ]);
  });

  it('lets the snapshot be revalidated: private, no-cache on 200 and 304; no-store on its errors', async () => {
    ok(await createDataflowRequest(ctx, copyBody(f)), 201);
    const snapshot = (headers: Record<string, string> = {}) =>
      ctx.request('GET', `${API}/workspaces/${f.workspace.code}/datacoolie/snapshot`, {
        token: null,
        headers: { 'x-api-key': key, ...headers },
      });
    const first = await snapshot();
    expect([first.status, cacheControl(first)]).toEqual([200, 'private, no-cache']);
    const again = await snapshot({ 'if-none-match': first.headers.get('etag') as string });
    expect([again.status, cacheControl(again)]).toEqual([304, 'private, no-cache']);
    const refused = await snapshot({ 'x-api-key': 'aidek_not-a-key' });
    expect([refused.status, cacheControl(refused)]).toEqual([401, 'no-store']);
  });

  it.each([
    ['/health/live', null],
    ['/health/ready', null],
    ['/openapi.json', null],
    ['/docs/assets/swagger-ui.css', 'public, max-age=86400'],
  ])('leaves public %s to its own caching (%s)', async (path, expected) => {
    const r = await ctx.request('GET', path, { token: ctx.userToken });
    expect([r.status, cacheControl(r)]).toEqual([200, expected]);
  });
});
