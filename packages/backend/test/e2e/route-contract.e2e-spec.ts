import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument } from '@aide/schemas/openapi';
import { contractRoutes, routeKey } from '@aide/schemas';
import { registeredRoutes } from '../../src/app.factory.js';
import { createTestContext, type TestContext } from '../helpers/test-app.js';

// Routes served outside the contract: operations, not the registry's API (no OpenAPI, no SDK).
const OPERATIONAL = new Set([
  'GET /health/live',
  'GET /health/ready',
  'GET /metrics',
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/init.js',
  'GET /docs/assets/:name',
]);

describe('the route contract is what the server serves', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('has a handler for every route of the contract, and no API route outside it', () => {
    const served = registeredRoutes(ctx.app)
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${r.url.replace(/\/$/, '')}`);
    const api = served.filter((key) => !OPERATIONAL.has(key));
    expect([...new Set(api)].sort()).toEqual(contractRoutes().map(routeKey).sort());
    // and every operational route is really there
    expect(served.filter((key) => OPERATIONAL.has(key)).sort()).toEqual([...OPERATIONAL].sort());
  });

  it('documents exactly the routes of the contract', () => {
    const document = buildOpenApiDocument('0.0.0') as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual(contractRoutes().map(routeKey).sort());
  });

  it('answers the auth a route declares: anonymous, user or superuser', async () => {
    for (const route of contractRoutes()) {
      if (route.auth === 'anonymous') continue;
      const path = route.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const anonymous = await ctx.request(route.method, path, { token: null });
      expect([routeKey(route), anonymous.status]).toEqual([routeKey(route), 401]);
      if (route.auth === 'superuser') {
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
        const regular = await ctx.request(route.method, path, { token: ctx.userToken, body });
        expect([routeKey(route), regular.status]).toEqual([routeKey(route), 403]);
      }
    }
  });
});
