import { contract, contractRoutes, routeKey, type RouteDef } from '@aide/schemas';
import { describe, expect, it } from '@jest/globals';
import { AideClient } from '../src/index.js';

// PUT on a collection item is the same partial update as PATCH, kept on the server for clients of the
// original API; the SDK's `update` sends PATCH. (A PUT without a PATCH twin, a watermark write, is called.)
const patched = new Set(
  contractRoutes()
    .filter((route) => route.method === 'PATCH')
    .map((route) => route.path),
);
const NOT_CALLED_BY_THE_SDK = new Set(
  contractRoutes()
    .filter((route) => route.method === 'PUT' && patched.has(route.path))
    .map(routeKey),
);

/** Every contract route the client's resources call (their `operations`), plus `client.search`. */
function sdkOperations(client: AideClient): Set<string> {
  const routes: RouteDef[] = [contract.search.search];
  for (const value of Object.values(client)) {
    const operations = (value as { operations?: readonly RouteDef[] } | null)?.operations;
    if (operations) routes.push(...operations);
  }
  return new Set(routes.map(routeKey));
}

describe('the SDK and the route contract', () => {
  const client = new AideClient({ baseUrl: 'http://127.0.0.1:9', token: 'not-used' });

  it('calls every route of the contract (PUT aliases aside) and no other', async () => {
    const expected = contractRoutes()
      .map(routeKey)
      .filter((key) => !NOT_CALLED_BY_THE_SDK.has(key));
    expect([...sdkOperations(client)].sort()).toEqual([...new Set(expected)].sort());
    await client.close();
  });

  it('takes the paths of its calls from the contract', () => {
    // Each collection's standard routes come from crudRoutes(def): a renamed route moves with it.
    const systems = client.systems as unknown as { operations: readonly RouteDef[] };
    expect(systems.operations.map(routeKey)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/systems',
        'GET /api/v1/systems/:id',
        'PATCH /api/v1/systems/:id',
        'POST /api/v1/systems/:id/restore',
        'POST /api/v1/systems/batch',
        'GET /api/v1/systems/:id/snapshot',
        'GET /api/v1/systems/dataset-counts',
      ]),
    );
  });
});
