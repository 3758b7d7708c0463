// Every route of the OpenAPI document needs a token, but the public few: walks the document, so a new
// route that forgets its guard fails here.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestContext, expectEnvelope, type TestContext } from '../helpers/test-app.js';

const PUBLIC = new Set(['POST /api/v1/login', 'POST /api/v1/login/refresh', 'POST /api/v1/login/logout']);
const ID = '00000000-0000-4000-8000-00000000beef';

describe('every documented route is guarded', () => {
  let ctx: TestContext;
  let routes: [string, string][];
  beforeAll(async () => {
    ctx = await createTestContext();
    const doc = (await ctx.request('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    routes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method): [string, string] => [method.toUpperCase(), path]),
    );
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('documents the whole API (more than 100 operations)', () => {
    expect(routes.length).toBeGreaterThan(100);
  });

  it('answers 401 without a token on every route but login, refresh and logout', async () => {
    const unguarded: string[] = [];
    for (const [method, template] of routes) {
      if (PUBLIC.has(`${method} ${template}`)) continue;
      const path = template.replace('{num}', '1').replace(/\{[^}]+\}/g, ID);
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const r = await ctx.request(method, path, { body });
      if (r.status !== 401) unguarded.push(`${method} ${template} → ${r.status}`);
      else expectEnvelope(r, 401, 'UNAUTHORIZED');
    }
    expect(unguarded).toEqual([]);
  });
});

describe('GET /metrics', () => {
  const TOKEN = 'metrics-scrape-token-0123456789-abcdef';
  let ctx: TestContext;
  let disabled: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ AIDE_METRICS_TOKEN: TOKEN });
    disabled = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
    await disabled.close();
  });

  it('serves Prometheus metrics to the scrape token only', async () => {
    await ctx.request('GET', '/api/v1/system-kinds', { token: ctx.userToken });
    await ctx.request('GET', '/api/v1/system-kinds', { token: ctx.userToken });
    await ctx.request('GET', '/api/v1/no-such-route', { token: ctx.userToken });
    expectEnvelope(await ctx.request('GET', '/metrics'), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('GET', '/metrics', { token: `${TOKEN}x` }), 401, 'UNAUTHORIZED');
    // A user's JWT is not the scrape token.
    expectEnvelope(await ctx.request('GET', '/metrics', { token: ctx.adminToken }), 401, 'UNAUTHORIZED');
    const r = await ctx.request('GET', '/metrics', { token: TOKEN });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    // By route pattern (each request observed once), and unmatched requests under one label.
    expect(r.body).toContain(
      'aide_http_request_duration_seconds_count{method="GET",route="/api/v1/system-kinds",status="200"} 2',
    );
    expect(r.body).toContain(
      'aide_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1',
    );
    expect(r.body).toContain('aide_process_cpu_seconds_total');
  });

  it('does not exist without AIDE_METRICS_TOKEN', async () => {
    expectEnvelope(await disabled.request('GET', '/metrics', { token: TOKEN }), 404, 'NOT_FOUND');
  });
});
