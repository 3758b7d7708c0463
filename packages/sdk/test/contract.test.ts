import { contract, contractRoutes, routeKey, type RouteDef } from '@aide/schemas';
import { describe, expect, it } from '@jest/globals';
import type { Dispatcher } from 'undici';
import { AideApiError, AideBatchError, type AideClient, CollectionResource } from '../src/index.js';
import { adminClient, clientFor, createUser, recordingDispatcher } from './helpers/backend.js';

// Which contract routes the SDK reaches, read from the requests it really sends to the real backend:
// every method of the client is called once below, and each request is matched to the contract route
// it names. An argument the server rejects (an unknown id, an empty body) still names the route: this
// file is about where the SDK sends requests; what the routes do is tested elsewhere.

/** PUT on a collection item is the same update as PATCH, kept for the original's clients; `update` sends PATCH. */
const patched = new Set(
  contractRoutes()
    .filter((route) => route.method === 'PATCH')
    .map((route) => route.path),
);
const isPutAlias = (route: RouteDef) => route.method === 'PUT' && patched.has(route.path);
/**
 * The DataCoolie metadata-provider routes (the contract's `datacoolie` group) are the provider client's
 * to call, not the registry client's: allowed here, not required.
 */
const providerRoutes = new Set([
  ...Object.values(contract.datacoolie).map(routeKey),
  // The OpenLineage transport's default endpoint: the integrations' path to the intake the SDK reaches
  // at `/lineage/openlineage` (ADR 0051).
  routeKey(contract.lineage.openLineageDefaultEndpoint),
]);

const pathPatterns = contractRoutes().map((route) => ({
  key: routeKey(route),
  method: route.method,
  params: (route.path.match(/:/g) ?? []).length,
  // Collections answer with and without a trailing slash.
  pattern: new RegExp(`^${route.path.replace(/:[a-z_]+/g, '[^/]+')}/?$`),
}));

/**
 * The contract route a request (`METHOD /path?query`) names, or undefined. Where several match
 * (`/users/me` and `/users/:id`), the one with the fewest parameters, as the server's router chooses.
 */
function contractRouteOf(request: string): string | undefined {
  const [method, target = ''] = request.split(' ');
  const path = target.split('?')[0] ?? '';
  const matches = pathPatterns
    .filter((route) => route.method === method && route.pattern.test(path))
    .sort((a, b) => a.params - b.params);
  return matches[0]?.key;
}

const MISSING = '00000000-0000-4000-8000-000000000000';

/** Awaits an SDK call; an answer of the server, success or error, is what is wanted. */
async function reach(call: () => PromiseLike<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof AideApiError || error instanceof AideBatchError)) throw error;
  }
}

/** The standard routes of every collection client (list, get, create, update, delete, restore, batch). */
async function callEveryCollection(client: AideClient): Promise<void> {
  const collections = Object.values(client).filter(
    (value): value is CollectionResource<unknown, unknown> => value instanceof CollectionResource,
  );
  for (const collection of collections) {
    const resource = collection as unknown as Record<string, (...args: unknown[]) => PromiseLike<unknown>>;
    const call = (name: string, ...args: unknown[]) =>
      typeof resource[name] === 'function'
        ? reach(() => resource[name]!.call(collection, ...args))
        : undefined;
    await call('list', { size: 1 });
    await call('get', MISSING);
    await call('create', {});
    await call('update', MISSING, { row_version: 1 });
    await call('delete', MISSING);
    await call('restore', MISSING);
    await call('createMany', [{}]);
  }
}

/** The routes of each client's own methods. */
async function callEveryOwnMethod(client: AideClient): Promise<void> {
  const { datasets, datasetLinks, dataflows, systems, typeInstances } = client;
  const version = { columns: [{ name: 'id', type: { data_type: 'integer' } }] };
  const calls: (() => PromiseLike<unknown>)[] = [
    () => client.search({ q: 'contract' }),
    () => client.apiKeys.revoke(MISSING),
    () => client.castRules.resolve({ data_type_id: MISSING, target_flavor: 'postgres14' }),
    () => systems.datasetCounts([MISSING]),
    () => systems.snapshotPage(MISSING),
    () => systems.fingerprintsPage(MISSING),
    () => systems.snapshotVersions(MISSING, [MISSING]),
    () => typeInstances.tree(MISSING),
    () => typeInstances.render(MISSING),
    () => typeInstances.renderSpec({ flavor: 'postgres14', type: { data_type: 'integer' } } as never),
    () => datasets.lakeSync(MISSING, {} as never),
    () => datasets.publishSchemaVersion(MISSING, version),
    () => datasets.previewSchemaVersionImpact(MISSING, version),
    () => datasets.schemaVersions(MISSING),
    () => datasets.schemaVersion(MISSING, 1),
    () => datasets.diffSchemaVersions(MISSING, 1, 2),
    () => datasets.translateSchemaVersion(MISSING, 1, { flavor: 'mysql8' }),
    () => datasets.bulkCreate([{}] as never),
    () => datasets.bulkPublish([{}] as never),
    () => client.fields.tree(MISSING),
    () => client.fields.children(MISSING),
    () => client.fieldClassifications.current(MISSING),
    () => client.fieldClassifications.currentOfDataset(MISSING),
    () => client.fieldClassifications.tags(),
    () => datasetLinks.renderSql(MISSING),
    () => datasetLinks.fieldLinks(MISSING),
    () => datasetLinks.addFieldLink(MISSING, { source_field_id: MISSING, target_field_id: MISSING }),
    () => datasetLinks.addFieldLinks(MISSING, [{ source_field_id: MISSING, target_field_id: MISSING }]),
    () => datasetLinks.compat(MISSING),
    () => datasetLinks.compatSummaries(),
    () => client.techFieldTemplates.apply(MISSING, {} as never),
    () => client.lineage.sendOpenLineageEvent({} as never),
    () => client.lineage.datasetGraph(MISSING),
    () => client.lineage.fieldGraph(MISSING),
    () => client.lineage.jobs.list(),
    () => client.lineage.jobs.get(MISSING),
    () => client.lineage.jobs.graph(`job:${MISSING}`),
    () => client.lineage.jobs.versions(MISSING),
    () => client.lineage.jobs.runs(MISSING),
    () => client.lineage.runs.get(MISSING),
    () => client.lineage.runs.events(MISSING),
    () => client.lineage.runs.ofDataset(MISSING),
    () => client.lineageObservations.unknownDatasets(),
    () => client.lineageObservations.unknownDataset(MISSING),
    () => client.lineageObservations.registerUnknownDataset(MISSING),
    () => client.lineageObservations.replay({ unknown_dataset_id: MISSING }),
    () => client.lineageObservations.observedSchemas(MISSING),
    () => client.compatibility.getRegistryCompatibility(),
    () => client.compatibility.setRegistryCompatibility('NONE'),
    () => client.compatibility.getSystemCompatibility(MISSING),
    () => client.compatibility.setSystemCompatibility(MISSING, null),
    () => client.compatibility.getDatasetCompatibility(MISSING),
    () => client.compatibility.setDatasetCompatibility(MISSING, null),
    () => client.compatibility.checkSchemaVersion(MISSING, { columns: [] }),
    () => client.compatibility.checkSchemaVersions([{ dataset_id: MISSING, columns: [] }]),
    () => dataflows.watermark(MISSING),
    () => dataflows.putWatermark(MISSING, {} as never),
    () => dataflows.watermarkHistory(MISSING),
  ];
  for (const call of calls) await reach(call);
}

/** Login, refresh, logout and the user's own profile, as a user of its own: logout-all ends its sessions. */
async function callAuthAsAnotherUser(client: AideClient, dispatcher: Dispatcher): Promise<void> {
  const user = await createUser(client);
  const own = clientFor(user, { dispatcher });
  try {
    await reach(() => own.users.me());
    await reach(() => own.users.updateMe({ full_name: 'Contract test user' }));
    await reach(() => own.auth.refresh());
    await reach(() => own.auth.logout());
    await reach(() => own.auth.login());
    await reach(() => own.auth.logoutAll());
  } finally {
    await own.close();
  }
}

describe('the SDK and the route contract', () => {
  it('calls every route of the contract (PUT aliases and provider routes aside) and no other', async () => {
    const recorder = recordingDispatcher();
    const client = adminClient({ dispatcher: recorder.dispatcher });
    try {
      await callEveryCollection(client);
      await callEveryOwnMethod(client);
      await callAuthAsAnotherUser(client, recorder.dispatcher);
    } finally {
      await client.close();
      await recorder.close();
    }

    const outside = recorder.requests.filter((request) => contractRouteOf(request) === undefined);
    expect(outside).toEqual([]);
    const called = new Set(recorder.requests.map(contractRouteOf));
    const notCalled = contractRoutes()
      .filter((route) => !isPutAlias(route) && !providerRoutes.has(routeKey(route)))
      .map(routeKey)
      .filter((key) => !called.has(key));
    expect(notCalled).toEqual([]);
  });

  it('matches a request to the route the server serves it with', () => {
    expect(contractRouteOf(`GET /api/v1/users/me`)).toBe('GET /api/v1/users/me');
    expect(contractRouteOf(`GET /api/v1/users/${MISSING}`)).toBe('GET /api/v1/users/:id');
    expect(contractRouteOf('GET /api/v1/systems/?page=1&size=1')).toBe('GET /api/v1/systems');
    expect(contractRouteOf(`DELETE /api/v1/systems/${MISSING}/snapshot`)).toBeUndefined();
    expect(contractRouteOf('GET /api/v1/no-such-collection')).toBeUndefined();
  });
});
