// BaseMetadataProvider through the §7.0 StubProvider: the whole conformance suite (with the stub's
// raw-list and hint-group variants, so the scope is exactly what the test gives), then the cases whose
// reference wording depends on the default stub's own behaviour (inline connections merged into the
// listing, hints fetched per source table by the default `_bulkFetchSchemaHints`).
import { describe, expect, it } from '@jest/globals';
import { AsyncReentrantLock, ProviderStateError } from '../src/index.js';
import { describeProviderConformance, HTTP_ONLY_CASES, type ConformanceScope } from './conformance.js';
import { conn, flow, hint, StubProvider } from './fixtures.js';

function applyScope(stub: StubProvider, scope: ConformanceScope): void {
  stub.connections = scope.connections ?? [];
  stub.dataflows = scope.dataflows ?? [];
  stub.hintGroups = scope.schemaHints ?? [];
}

describeProviderConformance(
  'BaseMetadataProvider (StubProvider)',
  (scope, options) => {
    const provider = new StubProvider(options, { rawConnections: true });
    applyScope(provider, scope);
    return { provider, setScope: (next) => applyScope(provider, next) };
  },
  {
    notApplicable: {
      ...HTTP_ONLY_CASES,
    },
  },
);

describe('StubProvider as written in reference §7.0', () => {
  const hinted = () => conn('conn_a', 'c-1', { configure: { use_schema_hint: true } });

  it('cases 5 and 7: one bulk load is one fetch of connections and of dataflows', async () => {
    const stub = new StubProvider();
    stub.connections = [conn()];
    await stub.getConnections();
    await stub.initialize();
    await stub.getConnections();
    expect(stub.fetchCounts).toEqual({ connections: 1, dataflows: 1 });
  });

  it('case 22: connections fetched once for both activity filters', async () => {
    const stub = new StubProvider();
    stub.connections = [conn('a', 'c-1'), conn('b', 'c-2', { is_active: false }), conn('c', 'c-3')];
    expect((await stub.getConnections()).map((c) => c.connection_id)).toEqual(['c-1', 'c-3']);
    expect(await stub.getConnections({ activeOnly: false })).toHaveLength(3);
    expect(stub.fetchCounts['connections']).toBe(1);
  });

  it('case 28: with caching off the live hook is called after the bulk load', async () => {
    const stub = new StubProvider({ enableCache: false });
    stub.connections = [conn()];
    await stub.getConnections();
    await stub.getConnectionById('c-1');
    expect(stub.fetchCounts).toEqual({ connections: 2, dataflows: 1, connection_by_id: 1 });
  });

  it('case 49: a connection without hints is never asked for them', async () => {
    const stub = new StubProvider();
    stub.dataflows = [flow({ connection: conn('conn_a', 'c-1', { configure: { use_schema_hint: false } }) })];
    stub.hintsByTable = { src: [hint('col')] };
    expect((await stub.getDataflows())[0]?.transform.schema_hints).toEqual([]);
    expect(stub.fetchCounts['schema_hints']).toBeUndefined();
  });

  it('case 51: initialization preloads the hints of each source table once', async () => {
    const stub = new StubProvider();
    stub.dataflows = [
      flow({ connection: hinted() }),
      flow({ id: 'df-2', name: 'second', connection: hinted() }),
    ];
    stub.hintsByTable = { src: [hint('col')] };
    expect((await stub.getDataflows({ attachSchemaHints: false }))[0]?.transform.schema_hints).toEqual([]);
    expect(stub.fetchCounts['schema_hints']).toBe(1);
    expect((await stub.getDataflows())[1]?.transform.schema_hints).toEqual([hint('col')]);
    expect(stub.fetchCounts['schema_hints']).toBe(1);
  });

  it('case 52: a query source is never looked up', async () => {
    const stub = new StubProvider();
    stub.dataflows = [flow({ connection: hinted(), source: { table: null, query: 'select 1' } })];
    stub.hintsByTable = { src: [hint('col')] };
    expect((await stub.getDataflows())[0]?.transform.schema_hints).toEqual([]);
    expect(stub.fetchCounts['schema_hints']).toBeUndefined();
  });

  it('case 64: the stub lists inline connections, so both ids are published', async () => {
    const stub = new StubProvider();
    stub.connections = [conn('shared', 'c-1')];
    stub.dataflows = [flow({ connection: conn('shared', 'c-2') })];
    expect((await stub.getConnections()).map((c) => c.connection_id)).toEqual(['c-1', 'c-2']);
  });

  it('case 67: with the raw-list variant an inline connection is not published', async () => {
    const stub = new StubProvider({}, { rawConnections: true });
    stub.dataflows = [flow({ connection: conn('x', 'c-inline') })];
    await stub.initialize();
    expect(await stub.getConnectionById('c-inline')).toBeNull();
  });
});

describe('AsyncReentrantLock', () => {
  it('serializes other contexts in arrival order and lets the holder re-enter', async () => {
    const lock = new AsyncReentrantLock();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = lock.run(async () => {
      order.push('first:start');
      await lock.run(() => order.push('first:nested'));
      await gate;
      order.push('first:end');
    });
    const second = lock.run(() => order.push('second'));
    const third = lock.run(() => order.push('third'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['first:start', 'first:nested']);
    release();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first:start', 'first:nested', 'first:end', 'second', 'third']);
  });

  it('releases after a failure', async () => {
    const lock = new AsyncReentrantLock();
    await expect(lock.run(() => Promise.reject(new ProviderStateError('boom')))).rejects.toThrow('boom');
    await expect(lock.run(() => 'next')).resolves.toBe('next');
    expect(lock.heldByCurrentContext).toBe(false);
  });
});
