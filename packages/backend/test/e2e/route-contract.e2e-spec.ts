import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument } from '@aide/schemas/openapi';
import { contract, contractRoutes, type RouteDef, routeKey } from '@aide/schemas';
import { registeredRoutes } from '../../src/app.factory.js';
import { API } from '../helpers/catalogue.js';
import { ok } from '../helpers/factories.js';
import { createWorkspace } from '../helpers/provider.js';
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
  'GET /ui', // the web UI's files (src/web-ui.ts)
  'GET /ui/*',
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

  // ADR 0020, amendment of issue 22: keys are refused unless a route's declaration admits them.
  const KEY_POLICIES = ['none', 'workspace', 'catalogue:read', 'catalogue:write'];
  const writes = (route: RouteDef) => route.method !== 'GET' && !route.safe;
  const routesOf = (...areas: (keyof typeof contract)[]) =>
    contractRoutes(Object.fromEntries(areas.map((area) => [area, contract[area]])));

  it('declares on every route whether and how an API key may call it', () => {
    for (const route of contractRoutes()) {
      expect([routeKey(route), KEY_POLICIES.includes(route.keys)]).toEqual([routeKey(route), true]);
      // Deletes and restores of shared rows are a person's; a key deletes only in its workspaces.
      if (route.method === 'DELETE' || route.path.endsWith('/restore')) {
        expect([routeKey(route), ['none', 'workspace'].includes(route.keys)]).toEqual([
          routeKey(route),
          true,
        ]);
      }
      if (route.keys === 'catalogue:read')
        expect([routeKey(route), writes(route)]).toEqual([routeKey(route), false]);
    }
    // Never a key's: user administration, key management, the caller's own account and tokens.
    for (const route of routesOf('auth', 'users', 'apiKeys')) {
      expect([routeKey(route), route.keys]).toEqual([routeKey(route), 'none']);
    }
    // Reference data is read with `catalogue:read`, administered by no key.
    const reference = routesOf(
      'systemKinds',
      'systemFlavors',
      'dataTypes',
      'castRules',
      'engines',
      'techFieldTemplates',
    );
    for (const route of reference.filter(writes)) {
      if (route === contract.techFieldTemplates.apply) continue; // writes a dataset, not reference data
      expect([routeKey(route), route.keys]).toEqual([routeKey(route), 'none']);
    }
    // Workspace-owned rows: every route admits keys, kept to their workspaces by the services.
    for (const route of routesOf('workspaces', 'connectionProfiles', 'dataflows', 'datacoolie')) {
      expect([routeKey(route), route.keys]).toEqual([routeKey(route), 'workspace']);
    }
  });

  it('refuses an API key on every route that does not admit it, with API_KEY_FORBIDDEN', async () => {
    const ws = await createWorkspace(ctx);
    const keyWith = async (scopes: string[]) =>
      ok(
        await ctx.request('POST', `${API}/api-keys`, {
          token: ctx.adminToken,
          body: { name: 'contract', workspace_ids: [ws.id], scopes },
        }),
        201,
      ).key as string;
    // A superuser's key: `auth` never stands in the way, only the key policy does.
    const bare = await keyWith([]);
    const full = await keyWith(['catalogue:read', 'catalogue:write']);
    for (const route of contractRoutes()) {
      if (route.auth === 'anonymous') continue;
      const path = route.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const call = async (key: string) => {
        const response = await ctx.request(route.method, path, {
          token: null,
          headers: { 'x-api-key': key },
          body,
        });
        return response.status === 403 && response.body.error_code === 'API_KEY_FORBIDDEN';
      };
      const admitsBare = route.keys === 'workspace';
      const admitsFull = route.keys !== 'none';
      expect([routeKey(route), !(await call(bare))]).toEqual([routeKey(route), admitsBare]);
      expect([routeKey(route), !(await call(full))]).toEqual([routeKey(route), admitsFull]);
    }
  });
});
