// The provider conformance suite of reference §7, as a reusable function: any BaseMetadataProvider
// subclass runs it through a factory that builds a provider over a given scope. Cases are numbered as
// in the reference; a provider lists the cases that cannot apply to it, with the reason, and the
// suite checks that every case of §7.1–§7.12 is either run or listed.
//
// Counting is generic: the suite wraps the provider instance's hooks, so "one bulk load" is one
// `_bulkLoad` call whatever the backend (three fetches for the base default, one request for a
// snapshot-backed provider).
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  BaseMetadataProvider,
  ConfigurationError,
  MetadataError,
  MetadataProviderStartupContext,
  ProviderStateError,
  REQUIRED_PROVIDER_METHODS,
  WatermarkDateTime,
  WatermarkError,
  WatermarkManager,
  type BaseMetadataProviderOptions,
  type Connection,
  type DataFlow,
  type MetadataCache,
  type SchemaHintGroup,
} from '../src/index.js';
import { conn, flow, hint, hintGroup, lakehouse } from './fixtures.js';

/** What the backend holds: the complete scope a bulk load returns. */
export interface ConformanceScope {
  connections?: Connection[];
  dataflows?: DataFlow[];
  schemaHints?: SchemaHintGroup[];
}

export interface ConformanceHarness {
  provider: BaseMetadataProvider;
  /** Replaces what the backend holds; the provider sees it at its next initialization. */
  setScope(scope: ConformanceScope): Promise<void> | void;
}

export type ConformanceFactory = (
  scope: ConformanceScope,
  options?: BaseMetadataProviderOptions,
) => ConformanceHarness | Promise<ConformanceHarness>;

export interface ConformanceSuiteOptions {
  /** Case number (reference §7) → why it cannot apply to this provider. */
  notApplicable: Readonly<Record<number, string>>;
}

/**
 * Cases about an HTTP backend (a REST transport, its client, retries, paging, envelopes), which a
 * provider without one cannot meet; the registry-backed provider runs them. Case 99 tests the
 * watermark codec alone (test/watermark.test.ts), whatever the provider.
 */
export const HTTP_ONLY_CASES: Readonly<Record<number, string>> = {
  68: 'REST provider: dataflow items must reference listed connections (no nested object to resolve here)',
  91: 'REST provider: HTTP 401/503/unparsable responses must surface as WatermarkError',
  92: 'REST provider: an object `current_value` in the HTTP envelope',
  93: 'REST provider: a malformed watermark envelope',
  99: 'provider-independent: the serializer is tested in test/watermark.test.ts',
  100: 'REST provider: the HTTP client it creates is closed on close()',
  101: 'REST provider: an injected HTTP client survives close()',
  102: 'REST provider: a failed start closes its HTTP client and the retry creates a new one',
  103: 'the SDK ships no Driver/orchestrator that could own a provider',
  ...Object.fromEntries(
    Array.from({ length: 13 }, (_, index) => [
      104 + index,
      'REST provider: HTTP wire behaviour (reference §7.12)',
    ]),
  ),
};

/** §7.1–§7.12 are cases 1–116. */
export const CONFORMANCE_CASE_COUNT = 116;

const WRAPPED_HOOKS = [
  ...REQUIRED_PROVIDER_METHODS,
  '_bulkLoad',
  '_initializeMetadata',
  '_bulkFetchSchemaHints',
  '_cleanupFailedInitialization',
  '_closeResources',
] as const;
type Hook = (typeof WRAPPED_HOOKS)[number];
type AnyFunction = (...args: unknown[]) => Promise<unknown>;

interface Internals {
  _cache: MetadataCache | null;
  _runtimeOperation<T>(operation: () => Promise<T> | T): Promise<T>;
}

/** A provider under test with counted, patchable hooks. */
class Subject {
  readonly counts = Object.fromEntries(WRAPPED_HOOKS.map((hook) => [hook, 0])) as Record<Hook, number>;
  readonly calls = Object.fromEntries(WRAPPED_HOOKS.map((hook) => [hook, []])) as unknown as Record<
    Hook,
    unknown[][]
  >;
  private readonly impl = {} as Record<Hook, AnyFunction>;

  constructor(readonly harness: ConformanceHarness) {
    const target = harness.provider as unknown as Record<Hook, AnyFunction>;
    for (const hook of WRAPPED_HOOKS) {
      this.impl[hook] = target[hook].bind(harness.provider);
      target[hook] = (...args: unknown[]) => {
        this.counts[hook] += 1;
        this.calls[hook].push(args);
        return this.impl[hook](...args);
      };
    }
  }

  get provider(): BaseMetadataProvider {
    return this.harness.provider;
  }

  get internals(): Internals {
    return this.harness.provider as unknown as Internals;
  }

  get cacheIsEmpty(): boolean {
    const cache = this.internals._cache;
    return cache === null || cache.isEmpty;
  }

  /** Replaces a hook's implementation; `original` is the provider's own. */
  patch(hook: Hook, make: (original: AnyFunction) => AnyFunction): void {
    const original = this.impl[hook];
    this.impl[hook] = make(original);
  }

  setScope(scope: ConformanceScope): Promise<void> | void {
    return this.harness.setScope(scope);
  }
}

function ids(items: ReadonlyArray<{ connection_id?: string; dataflow_id?: string | null }>): unknown[] {
  return items.map((item) => item.connection_id ?? item.dataflow_id);
}

function columns(dataflow: DataFlow | null | undefined): string[] {
  return (dataflow?.transform.schema_hints ?? []).map((item) => item.column_name);
}

/** Asserts the promise rejects with exactly this error class and message. */
async function rejectsWith(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => Error,
  message: string,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(type);
  expect((error as Error).message).toBe(message);
}

/** Lets every queued task run: a promise still pending afterwards is blocked, not slow. */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

export function describeProviderConformance(
  name: string,
  factory: ConformanceFactory,
  { notApplicable }: ConformanceSuiteOptions,
): void {
  const implemented = new Set<number>();
  const subjects: Subject[] = [];

  const make = async (scope: ConformanceScope = {}, options: BaseMetadataProviderOptions = {}) => {
    const subject = new Subject(await factory(scope, options));
    subjects.push(subject);
    return subject;
  };

  const test = (number: number, title: string, body: () => Promise<void> | void) => {
    implemented.add(number);
    if (notApplicable[number] !== undefined) return;
    it(`case ${number}: ${title}`, body);
  };

  describe(`${name} — provider conformance (reference §7)`, () => {
    afterEach(async () => {
      for (const subject of subjects.splice(0)) {
        await subject.provider.close().catch(() => undefined);
      }
    });

    describe('§7.1 construction and lifecycle', () => {
      test(1, 'the base class is abstract', () => {
        const Base = BaseMetadataProvider as unknown as new () => unknown;
        expect(() => new Base()).toThrow(TypeError);
        // A subclass missing a required hook cannot be built either.
        const Partial = class extends (BaseMetadataProvider as unknown as new () => object) {};
        expect(() => new Partial()).toThrow(/without an implementation for '_fetchConnections'/);
      });

      test(2, 'construction is inert', async () => {
        const subject = await make({ connections: [conn()] });
        expect(subject.provider.isInitialized).toBe(false);
        expect(subject.provider.isClosed).toBe(false);
        expect(Object.values(subject.counts).every((count) => count === 0)).toBe(true);
      });

      test(3, 'legacy options are rejected', async () => {
        await expect(make({}, { eagerPrefetch: true } as BaseMetadataProviderOptions)).rejects.toThrow(
          TypeError,
        );
        await expect(make({}, { autoPrefetch: true } as BaseMetadataProviderOptions)).rejects.toThrow(
          /unexpected option 'autoPrefetch'/,
        );
      });

      test(4, 'initialize marks the provider ready', async () => {
        const { provider } = await make({ connections: [conn()] });
        await provider.initialize();
        expect(provider.isInitialized).toBe(true);
        expect(provider.isReady).toBe(true);
      });

      test(5, 'initialize is idempotent', async () => {
        const subject = await make({ connections: [conn()] });
        await subject.provider.initialize();
        await subject.provider.initialize();
        expect(subject.counts._bulkLoad).toBe(1);
        expect(subject.counts._initializeMetadata).toBe(1);
      });

      test(6, 'concurrent initialize calls perform one bulk load', async () => {
        const subject = await make({ connections: [conn()], dataflows: [flow()] });
        await Promise.all(Array.from({ length: 8 }, () => subject.provider.initialize()));
        expect(subject.counts._bulkLoad).toBe(1);
        expect(subject.provider.isInitialized).toBe(true);
      });

      test(7, 'the first public read initializes', async () => {
        const subject = await make({ connections: [conn()] });
        expect(ids(await subject.provider.getConnections())).toEqual(['c-1']);
        expect(subject.provider.isInitialized).toBe(true);
        expect(subject.counts._bulkLoad).toBe(1);
        await subject.provider.getConnections();
        expect(subject.counts._bulkLoad).toBe(1);
        expect(subject.counts._fetchConnections).toBeLessThanOrEqual(1);
      });

      test(8, 'recursive initialization is rejected, not deadlocked', async () => {
        for (const reenter of [
          (p: BaseMetadataProvider) => p.initialize(),
          (p: BaseMetadataProvider) => p.getConnections(),
          (p: BaseMetadataProvider) => p.getDataflowById('df-1'),
        ]) {
          const subject = await make({ connections: [conn()] });
          subject.patch('_initializeMetadata', () => () => reenter(subject.provider));
          await expect(subject.provider.initialize()).rejects.toThrow(ProviderStateError);
          await expect(subject.provider.initialize()).rejects.toThrow('Recursive metadata initialization');
          expect(subject.provider.isInitialized).toBe(false);
        }
      });

      test(9, 'a failed start is retryable', async () => {
        const subject = await make({ connections: [conn()] });
        const failure = new Error('temporary metadata failure');
        subject.patch('_bulkLoad', (original) => {
          let calls = 0;
          return () => (++calls === 1 ? Promise.reject(failure) : original());
        });
        await expect(subject.provider.initialize()).rejects.toBe(failure);
        expect(subject.provider.isInitialized).toBe(false);
        await subject.provider.initialize();
        expect(subject.provider.isInitialized).toBe(true);
        expect(ids(await subject.provider.getConnections())).toEqual(['c-1']);
      });

      test(10, 'failure cleanup runs once and its own error is swallowed', async () => {
        const subject = await make({ connections: [conn()] });
        const e1 = new Error('E1');
        subject.patch('_bulkLoad', () => () => Promise.reject(e1));
        subject.patch('_cleanupFailedInitialization', () => () => Promise.reject(new Error('E2')));
        await expect(subject.provider.initialize()).rejects.toBe(e1);
        expect(subject.counts._cleanupFailedInitialization).toBe(1);
        expect(subject.cacheIsEmpty).toBe(true);
        expect(subject.provider.isInitialized).toBe(false);
      });

      test(11, 'a validation failure publishes nothing', async () => {
        const subject = await make({ connections: [conn()] });
        expect(ids(await subject.provider.getConnections())).toEqual(['c-1']);
        await subject.provider.clearCache();
        await subject.setScope({ connections: [conn(), conn('other', 'c-1')] });
        await rejectsWith(
          subject.provider.getConnections(),
          MetadataError,
          'Duplicate connection_id in metadata: c-1',
        );
        expect(subject.cacheIsEmpty).toBe(true);
        expect(subject.provider.isInitialized).toBe(false);
        await subject.setScope({ connections: [conn(), conn('other', 'c-2')] });
        expect(ids(await subject.provider.getConnections())).toEqual(['c-1', 'c-2']);
      });

      test(12, 'close clears state once', async () => {
        const subject = await make({ connections: [conn()] });
        await subject.provider.initialize();
        await subject.provider.close();
        await subject.provider.close();
        expect(subject.counts._closeResources).toBe(1);
        expect(subject.provider.isClosed).toBe(true);
        expect(subject.provider.isInitialized).toBe(false);
        expect(subject.cacheIsEmpty).toBe(true);
      });

      test(13, 'every operation after close is rejected', async () => {
        const { provider } = await make(
          { connections: [conn()], dataflows: [flow()] },
          { sqlBasePath: 'release/sql' },
        );
        await provider.initialize();
        await provider.close();
        const className = provider.constructor.name;
        const operations: Array<() => Promise<unknown>> = [
          () => provider.getConnections(),
          () => provider.getConnectionById('c-1'),
          () => provider.getConnectionByName('conn_a'),
          () => provider.getDataflows(),
          () => provider.getMaintenanceDataflows(),
          () => provider.getDataflowById('df-1'),
          () => provider.getSchemaHints('c-1', 'src'),
          () => provider.initialize(),
          () => provider.configureContext({}),
          () => provider.clearCache(),
          () => provider.resolveSqlBasePath({}),
          () => provider.validateWatermarkStorage(),
          () => provider.getWatermark('df-1'),
          () => provider.updateWatermark('df-1', '{}'),
        ];
        for (const operation of operations) {
          await rejectsWith(operation(), ProviderStateError, `${className} is closed`);
        }
        expect(provider.sqlBasePath).toBe('release/sql');
      });

      test(14, 'disposal closes the provider', async () => {
        const subject = await make({ connections: [conn()] });
        try {
          expect(await subject.provider.getConnectionById('c-1')).not.toBeNull();
        } finally {
          await subject.provider[Symbol.asyncDispose]();
        }
        expect(subject.provider.isClosed).toBe(true);
        expect(subject.internals._cache?.connectionById('c-1')).toBeUndefined();
      });

      test(15, 'clearCache forces a full re-initialization', async () => {
        const subject = await make({ connections: [conn()] });
        await subject.provider.getConnections();
        await subject.provider.clearCache();
        expect(subject.cacheIsEmpty).toBe(true);
        expect(subject.provider.isInitialized).toBe(false);
        await subject.provider.getConnections();
        expect(subject.counts._bulkLoad).toBe(2);
        expect(subject.counts._initializeMetadata).toBe(2);
      });

      test(16, 'clearCache with caching disabled is a no-op', async () => {
        const { provider } = await make({ connections: [conn()] }, { enableCache: false });
        await provider.initialize();
        await provider.clearCache();
        expect(provider.isInitialized).toBe(true);
      });

      test(17, 'clear, close and configure are rejected during initialization', async () => {
        const cases: Array<[(p: BaseMetadataProvider) => Promise<void>, string]> = [
          [(p) => p.clearCache(), 'Cannot clear metadata cache during initialization'],
          [(p) => p.close(), 'Cannot close metadata provider during initialization'],
          [(p) => p.configureContext({}), 'Cannot configure metadata provider during initialization'],
        ];
        for (const [call, message] of cases) {
          const subject = await make({ connections: [conn()] });
          subject.patch('_initializeMetadata', () => () => call(subject.provider));
          await rejectsWith(subject.provider.initialize(), ProviderStateError, message);
          expect(subject.provider.isInitialized).toBe(false);
          expect(subject.provider.isClosed).toBe(false);
        }
      });

      test(18, 'close inside its own runtime operation is rejected', async () => {
        const subject = await make({ connections: [conn()] });
        const { provider } = subject;
        await expect(subject.internals._runtimeOperation(() => provider.close())).rejects.toThrow(
          'Cannot close metadata provider during a runtime operation',
        );
        expect(provider.isClosed).toBe(false);
        await provider.close();
        expect(provider.isClosed).toBe(true);
      });

      test(19, 'close from another caller waits for an in-flight operation', async () => {
        const subject = await make({ connections: [conn()] });
        await subject.provider.updateWatermark('df-1', 'value');
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let started!: () => void;
        const running = new Promise<void>((resolve) => (started = resolve));
        // Blocks inside the watermark read's runtime operation, i.e. while it holds the lock.
        subject.patch(
          'getWatermark',
          (original) =>
            (...args) =>
              subject.internals._runtimeOperation(async () => {
                started();
                await gate;
                return original(...args);
              }),
        );
        const read = subject.provider.getWatermark('df-1');
        await running;
        let closed = false;
        const closing = subject.provider.close().then(() => (closed = true));
        await settle();
        expect(closed).toBe(false);
        release();
        await expect(read).resolves.toBe('value');
        await closing;
        expect(closed).toBe(true);
        expect(subject.counts._closeResources).toBe(1);
      });
    });

    describe('§7.2 connections', () => {
      test(20, 'zero connections', async () => {
        const { provider } = await make();
        expect(await provider.getConnections()).toEqual([]);
      });

      test(21, 'one connection', async () => {
        const { provider } = await make({ connections: [conn()] });
        expect(await provider.getConnections()).toEqual([conn()]);
      });

      test(22, 'many connections including an inactive one', async () => {
        const subject = await make({
          connections: [conn('a', 'c-1'), conn('b', 'c-2', { is_active: false }), conn('c', 'c-3')],
        });
        expect(ids(await subject.provider.getConnections())).toEqual(['c-1', 'c-3']);
        expect(ids(await subject.provider.getConnections({ activeOnly: false }))).toEqual([
          'c-1',
          'c-2',
          'c-3',
        ]);
        expect(subject.counts._bulkLoad).toBe(1);
        expect(subject.counts._fetchConnections).toBeLessThanOrEqual(1);
      });

      test(23, 'lookup by id is served from the snapshot', async () => {
        for (const listFirst of [true, false]) {
          const subject = await make({ connections: [conn('conn_a', 'c-99')] });
          if (listFirst) await subject.provider.getConnections();
          expect((await subject.provider.getConnectionById('c-99'))?.name).toBe('conn_a');
          expect(subject.counts._fetchConnectionById).toBe(0);
        }
      });

      test(24, 'unknown id is null without a live lookup', async () => {
        const subject = await make({ connections: [conn()] });
        expect(await subject.provider.getConnectionById('nope')).toBeNull();
        expect(subject.counts._fetchConnectionById).toBe(0);
      });

      test(25, 'lookup by name, hit and unknown', async () => {
        const subject = await make({ connections: [conn('my_conn', 'c-1')] });
        expect((await subject.provider.getConnectionByName('my_conn'))?.connection_id).toBe('c-1');
        expect(await subject.provider.getConnectionByName('nope')).toBeNull();
        expect(subject.counts._fetchConnectionByName).toBe(0);
      });

      test(26, 'an inactive connection is found by id', async () => {
        const { provider } = await make({ connections: [conn('b', 'c-2', { is_active: false })] });
        expect((await provider.getConnectionById('c-2'))?.is_active).toBe(false);
      });

      test(27, 'an ambiguous name fails the name lookup only', async () => {
        const { provider } = await make({ connections: [conn('shared', 'c-1'), conn('shared', 'c-2')] });
        expect(await provider.getConnections()).toHaveLength(2);
        await rejectsWith(
          provider.getConnectionByName('shared'),
          MetadataError,
          'Connection name is ambiguous: shared; use connection_id',
        );
      });

      test(28, 'with caching disabled lookups go to the hooks', async () => {
        const subject = await make({ connections: [conn()] }, { enableCache: false });
        expect(ids(await subject.provider.getConnections())).toEqual(['c-1']);
        expect((await subject.provider.getConnectionById('c-1'))?.name).toBe('conn_a');
        expect(subject.counts._fetchConnectionById).toBe(1);
        expect((await subject.provider.getConnectionByName('conn_a'))?.connection_id).toBe('c-1');
        expect(subject.counts._fetchConnectionByName).toBe(1);
      });
    });

    describe('§7.3 dataflows and stage filtering', () => {
      const staged = (stages: Array<string | null>, extra: Record<string, unknown> = {}) =>
        stages.map((stage, index) =>
          flow({ id: `df-${index + 1}`, name: `flow_${index + 1}`, extra: { stage, ...extra } }),
        );
      const stageIds = async (
        provider: BaseMetadataProvider,
        stage: Parameters<BaseMetadataProvider['getDataflows']>[0],
      ) => ids(await provider.getDataflows({ attachSchemaHints: false, ...stage })).sort();

      test(29, 'list', async () => {
        const { provider } = await make({ dataflows: [flow()] });
        expect(await provider.getDataflows({ attachSchemaHints: false })).toEqual([flow()]);
      });

      test(30, 'by id after a list comes from the snapshot', async () => {
        const subject = await make({ dataflows: [flow()] });
        await subject.provider.getDataflows({ attachSchemaHints: false });
        expect((await subject.provider.getDataflowById('df-1', { attachSchemaHints: false }))?.name).toBe(
          'my_df',
        );
        expect(subject.counts._fetchDataflowById).toBe(0);
      });

      test(31, 'unknown id is null', async () => {
        const subject = await make({ dataflows: [flow()] });
        expect(await subject.provider.getDataflowById('nope')).toBeNull();
        expect(subject.counts._fetchDataflowById).toBe(0);
      });

      test(32, 'single stage', async () => {
        const { provider } = await make({ dataflows: staged(['bronze2silver', 'silver2gold']) });
        expect(await stageIds(provider, { stage: 'bronze2silver' })).toEqual(['df-1']);
        expect(await stageIds(provider, { stage: 'gold' })).toEqual([]);
      });

      test(33, 'comma-separated stages', async () => {
        const { provider } = await make({ dataflows: staged(['bronze', 'silver', 'gold']) });
        expect(await stageIds(provider, { stage: 'bronze, gold' })).toEqual(['df-1', 'df-3']);
      });

      test(34, 'a list of stages', async () => {
        const { provider } = await make({ dataflows: staged(['bronze', 'silver', 'gold']) });
        expect(await stageIds(provider, { stage: ['bronze', 'gold'] })).toEqual(['df-1', 'df-3']);
      });

      test(35, 'a JSON-array string', async () => {
        const { provider } = await make({ dataflows: staged(['bronze', 'silver', 'gold']) });
        expect(await stageIds(provider, { stage: '["silver"]' })).toEqual(['df-2']);
      });

      test(36, 'null, blank and empty filters do not filter', async () => {
        const { provider } = await make({ dataflows: staged(['bronze', 'silver', 'gold']) });
        for (const stage of [null, '', '  ', ',', []]) {
          expect(await stageIds(provider, { stage })).toEqual(['df-1', 'df-2', 'df-3']);
        }
      });

      test(37, 'stages match exactly', async () => {
        const { provider } = await make({ dataflows: staged(['bronze', null, 'Bronze']) });
        expect(await stageIds(provider, { stage: 'bronze' })).toEqual(['df-1']);
      });

      test(38, 'activeOnly', async () => {
        const { provider } = await make({
          dataflows: [
            flow({ id: 'df-a', name: 'a' }),
            flow({ id: 'df-i', name: 'i', extra: { is_active: false } }),
          ],
        });
        expect(await stageIds(provider, {})).toEqual(['df-a']);
        expect(await stageIds(provider, { activeOnly: false })).toEqual(['df-a', 'df-i']);
      });

      test(39, 'the hook receives normalized stages', async () => {
        const subject = await make({ dataflows: staged(['a', 'b']) }, { enableCache: false });
        await subject.provider.getDataflows({ stage: 'a, b', activeOnly: false, attachSchemaHints: false });
        expect(subject.calls._fetchDataflows.at(-1)).toEqual([{ stages: ['a', 'b'], activeOnly: false }]);
        await subject.provider.getDataflows({ stage: '', attachSchemaHints: false });
        expect(subject.calls._fetchDataflows.at(-1)).toEqual([{ stages: null, activeOnly: true }]);
      });

      test(40, 'an inactive dataflow is found by id', async () => {
        const { provider } = await make({ dataflows: [flow({ id: 'df-i', extra: { is_active: false } })] });
        expect((await provider.getDataflowById('df-i'))?.is_active).toBe(false);
      });
    });

    describe('§7.4 maintenance dataflows', () => {
      const toDestination = (id: string, destination: Connection) =>
        flow({ id, name: `flow_${id}`, destination });

      test(41, 'only lakehouse destinations', async () => {
        const { provider } = await make({
          dataflows: [
            toDestination('df-1', lakehouse('lh', 'c-2')),
            toDestination('df-2', conn('flat', 'c-3', { format: 'csv' })),
          ],
        });
        expect(ids(await provider.getMaintenanceDataflows())).toEqual(['df-1']);
      });

      const twoLakehouses = () => ({
        dataflows: [
          toDestination('df-1', lakehouse('lakehouse_a', 'conn-id-1')),
          toDestination('df-2', lakehouse('lakehouse_b', 'conn-id-2')),
        ],
      });

      test(42, 'filter by destination connection name', async () => {
        const { provider } = await make(twoLakehouses());
        expect(ids(await provider.getMaintenanceDataflows({ connection: 'lakehouse_a' }))).toEqual(['df-1']);
      });

      test(43, 'filter by destination connection id', async () => {
        const { provider } = await make(twoLakehouses());
        expect(ids(await provider.getMaintenanceDataflows({ connection: 'conn-id-1' }))).toEqual(['df-1']);
      });

      test(44, 'a comma-separated connection list', async () => {
        const { provider } = await make({
          dataflows: [
            toDestination('df-1', lakehouse('lh_a', 'c-a')),
            toDestination('df-2', lakehouse('lh_b', 'c-b', 'iceberg')),
            toDestination('df-3', lakehouse('lh_c', 'c-c')),
          ],
        });
        expect(ids(await provider.getMaintenanceDataflows({ connection: 'lh_a,lh_b' })).sort()).toEqual([
          'df-1',
          'df-2',
        ]);
        expect(ids(await provider.getMaintenanceDataflows({ connection: ['lh_c'] }))).toEqual(['df-3']);
      });

      test(45, 'the format rule wins over a connection match', async () => {
        const { provider } = await make({
          dataflows: [
            toDestination('df-1', lakehouse('lh', 'c-2')),
            toDestination('df-2', conn('flat', 'c-3', { format: 'csv' })),
          ],
        });
        expect(ids(await provider.getMaintenanceDataflows({ connection: 'lh,flat' }))).toEqual(['df-1']);
      });

      test(46, 'schema hints only on request', async () => {
        const delta = lakehouse('lh', 'c-1', 'delta', { configure: { use_schema_hint: true } });
        const { provider } = await make({
          dataflows: [flow({ connection: delta })],
          schemaHints: [hintGroup('c-1', null, 'src', [hint('col')])],
        });
        expect(columns((await provider.getMaintenanceDataflows())[0])).toEqual([]);
        expect(columns((await provider.getMaintenanceDataflows({ attachSchemaHints: true }))[0])).toEqual([
          'col',
        ]);
      });

      test(47, 'works with caching disabled', async () => {
        const subject = await make(
          { dataflows: [toDestination('df-1', lakehouse('lh', 'c-2'))] },
          { enableCache: false },
        );
        expect(ids(await subject.provider.getMaintenanceDataflows({ attachSchemaHints: false }))).toEqual([
          'df-1',
        ]);
        expect(subject.calls._fetchDataflows.at(-1)).toEqual([{ stages: null, activeOnly: true }]);
      });
    });

    describe('§7.5 schema hints', () => {
      const hinted = (configure: Record<string, unknown> = { use_schema_hint: true }) =>
        conn('conn_a', 'c-1', { configure });

      test(48, 'hints attach for the source table', async () => {
        const { provider } = await make({
          dataflows: [flow({ connection: hinted() })],
          schemaHints: [hintGroup('c-1', null, 'src', [hint('col')])],
        });
        const [dataflow] = await provider.getDataflows();
        expect(dataflow?.transform.schema_hints).toEqual([hint('col')]);
      });

      test(49, 'a connection can disable hints', async () => {
        const subject = await make({
          dataflows: [flow({ connection: hinted({ use_schema_hint: false }) })],
          schemaHints: [hintGroup('c-1', null, 'src', [hint('col')])],
        });
        expect(columns((await subject.provider.getDataflows())[0])).toEqual([]);
        expect(subject.counts._fetchSchemaHints).toBe(0);
      });

      test(50, 'authored hints win', async () => {
        const { provider } = await make({
          dataflows: [
            flow({ connection: hinted(), transform: { schema_hints: [hint('existing', 'STRING')] } }),
          ],
          schemaHints: [hintGroup('c-1', null, 'src', [hint('new')])],
        });
        expect(columns((await provider.getDataflows())[0])).toEqual(['existing']);
      });

      test(51, 'attachSchemaHints=false attaches nothing; initialization preloaded the hints', async () => {
        const subject = await make({
          dataflows: [flow({ connection: hinted() })],
          schemaHints: [hintGroup('c-1', null, 'src', [hint('col')])],
        });
        await subject.provider.initialize();
        const preloaded = subject.counts._fetchSchemaHints;
        expect(columns((await subject.provider.getDataflows({ attachSchemaHints: false }))[0])).toEqual([]);
        expect(await subject.provider.getSchemaHints('c-1', 'src')).toEqual([hint('col')]);
        expect(subject.counts._fetchSchemaHints).toBe(preloaded);
      });

      test(52, 'a query source gets no hints', async () => {
        const subject = await make({
          dataflows: [flow({ connection: hinted(), source: { table: null, query: 'select 1' } })],
          schemaHints: [hintGroup('c-1', null, 'src', [hint('col')])],
        });
        expect(columns((await subject.provider.getDataflows())[0])).toEqual([]);
        expect(columns(await subject.provider.getDataflowById('df-1'))).toEqual([]);
        expect(subject.calls._fetchSchemaHints.every(([, table]) => table !== null)).toBe(true);
      });

      test(53, 'hints come from the source, never the destination', async () => {
        const destination = conn('target', 'c-2', { configure: { use_schema_hint: true } });
        const { provider } = await make({
          connections: [hinted(), destination],
          dataflows: [flow({ connection: hinted(), destination })],
          schemaHints: [hintGroup('c-2', null, 'dest', [hint('col')])],
        });
        expect(columns((await provider.getDataflows())[0])).toEqual([]);
      });

      test(54, 'attachment by id follows the toggle', async () => {
        const { provider } = await make({
          dataflows: [flow({ connection: hinted() })],
          schemaHints: [hintGroup('c-1', null, 'src', [hint('col')])],
        });
        expect(columns(await provider.getDataflowById('df-1', { attachSchemaHints: false }))).toEqual([]);
        expect(columns(await provider.getDataflowById('df-1', { attachSchemaHints: true }))).toEqual(['col']);
        const { provider: bare } = await make({ dataflows: [flow({ connection: hinted() })] });
        expect(columns(await bare.getDataflowById('df-1'))).toEqual([]);
      });

      test(55, 'unknown tables hit the negative cache', async () => {
        const subject = await make({ connections: [conn()], dataflows: [flow()] });
        await subject.provider.initialize();
        const before = subject.counts._fetchSchemaHints;
        expect(await subject.provider.getSchemaHints('c-1', 'absent_table')).toEqual([]);
        expect(subject.counts._fetchSchemaHints).toBe(before);
      });

      test(56, 'selection rules', async () => {
        const z = hint('z', 'INT', 2);
        const a = hint('a', 'INT', 1);
        const sales = hintGroup('c-1', 'Sales', 'Orders', [z, a]);
        const { provider } = await make({ connections: [conn()], schemaHints: [sales] });
        expect(await provider.getSchemaHints('c-1', 'orders')).toEqual([a, z]);
        expect(await provider.getSchemaHints('c-1', 'ORDERS', 'sales')).toEqual([a, z]);
        expect(await provider.getSchemaHints('c-1', 'orders', 'missing')).toEqual([]);
        const { provider: two } = await make({
          connections: [conn()],
          schemaHints: [sales, hintGroup('c-1', 'archive', 'orders', [hint('old')])],
        });
        await rejectsWith(
          two.getSchemaHints('c-1', 'orders'),
          MetadataError,
          'Schema hint lookup is ambiguous for c-1.orders; candidates: Sales, archive',
        );
        expect(await two.getSchemaHints('c-1', 'orders', 'ARCHIVE')).toEqual([hint('old')]);
        expect(await two.getSchemaHints('c-1', 'orders', 'sales')).toEqual([a, z]);
      });

      test(57, 'ordering by ordinal_position, nulls last, stable', async () => {
        const hints = [
          hint('ten', 'INT', 10),
          hint('none', 'INT', null),
          hint('one', 'INT', 1),
          hint('one_b', 'INT', 1),
        ];
        const { provider } = await make({
          connections: [conn()],
          schemaHints: [hintGroup('c-1', null, 't', hints)],
        });
        expect((await provider.getSchemaHints('c-1', 't')).map((item) => item.column_name)).toEqual([
          'one',
          'one_b',
          'ten',
          'none',
        ]);
      });

      test(58, 'duplicate columns across case-different groups are rejected', async () => {
        const { provider } = await make({
          connections: [conn()],
          schemaHints: [
            hintGroup('c-1', null, 'orders', [hint('id')]),
            hintGroup('c-1', '', 'ORDERS', [hint('ID')]),
          ],
        });
        await rejectsWith(
          provider.initialize(),
          MetadataError,
          "Duplicate schema hint column in metadata: ('c-1', None, 'orders', 'ID')",
        );
      });

      test(59, 'blank and padded key parts normalize', async () => {
        const subject = await make({
          connections: [conn()],
          schemaHints: [
            hintGroup('c-1', ' dbo ', ' Orders ', [hint('a')]),
            hintGroup('c-1', '  ', 'plain', [hint('b')]),
          ],
        });
        expect(await subject.provider.getSchemaHints('c-1', 'orders', 'dbo')).toEqual([hint('a')]);
        expect(await subject.provider.getSchemaHints('c-1', 'plain')).toEqual([hint('b')]);
        const stored = [...(subject.internals._cache?.schemaHints.values() ?? [])].map((group) => [
          group.schema_name,
          group.table_name,
        ]);
        expect(stored).toEqual([
          ['dbo', 'Orders'],
          [null, 'plain'],
        ]);
      });
    });

    describe('§7.6 initialization validation', () => {
      test(60, 'duplicate connection ids', async () => {
        const { provider } = await make({ connections: [conn(), conn()] });
        await rejectsWith(provider.initialize(), MetadataError, 'Duplicate connection_id in metadata: c-1');
        expect(provider.isInitialized).toBe(false);
      });

      test(61, 'a dataflow needs an id or a name', async () => {
        const nameless = { ...flow(), dataflow_id: null, name: '   ' };
        const { provider } = await make({ dataflows: [nameless] });
        await rejectsWith(
          provider.getDataflows({ attachSchemaHints: false }),
          MetadataError,
          "Dataflow '   ' must define a non-empty dataflow_id or name",
        );
      });

      test(62, 'duplicate dataflow ids', async () => {
        const { provider } = await make({ dataflows: [flow(), flow({ name: 'other' })] });
        await rejectsWith(provider.initialize(), MetadataError, 'Duplicate dataflow_id in metadata: df-1');
      });

      test(63, 'an inline copy with a conflicting name', async () => {
        const { provider } = await make({
          connections: [conn('source', 'c-1')],
          dataflows: [flow({ connection: conn('renamed', 'c-1') })],
        });
        await rejectsWith(
          provider.getConnections(),
          MetadataError,
          "Dataflow df-1 source connection c-1 has conflicting name 'renamed'; expected 'source'",
        );
      });

      test(64, 'a distinct inline id may reuse a listed name', async () => {
        const { provider } = await make({
          connections: [conn('shared', 'c-1')],
          dataflows: [flow({ connection: conn('shared', 'c-2') })],
        });
        expect(ids(await provider.getConnections())).toContain('c-1');
        expect((await provider.getDataflowById('df-1'))?.source.connection.connection_id).toBe('c-2');
      });

      test(65, 'an inline connection without identity', async () => {
        const broken = flow();
        broken.source.connection = { ...broken.source.connection, connection_id: '' };
        const { provider } = await make({ dataflows: [broken] });
        await rejectsWith(
          provider.initialize(),
          MetadataError,
          'Dataflow df-1 source connection must have a non-empty connection_id',
        );
        const nameless = flow();
        nameless.destination.connection = {
          ...nameless.destination.connection,
          connection_id: 'c-9',
          name: ' ',
        };
        const { provider: other } = await make({ dataflows: [nameless] });
        await rejectsWith(
          other.initialize(),
          MetadataError,
          'Dataflow df-1 destination connection must have a non-empty name',
        );
      });

      test(66, 'a hint group for an unknown connection', async () => {
        const { provider } = await make({
          connections: [conn()],
          schemaHints: [hintGroup('c-x', null, 't', [hint('a')])],
        });
        await rejectsWith(
          provider.initialize(),
          MetadataError,
          'Schema hint references unknown connection: c-x',
        );
      });

      test(67, 'a hint group for an inline connection', async () => {
        const { provider } = await make({
          connections: [conn()],
          dataflows: [flow({ connection: conn('x', 'c-inline', { configure: { use_schema_hint: true } }) })],
          schemaHints: [hintGroup('c-inline', null, 'src', [hint('col')])],
        });
        await provider.initialize();
        expect(await provider.getConnectionById('c-inline')).toBeNull();
        expect(columns((await provider.getDataflows())[0])).toEqual(['col']);
      });
    });

    describe('§7.7 deep copies', () => {
      test(69, 'connections', async () => {
        const { provider } = await make({ connections: [conn()] });
        (await provider.getConnections())[0]!.configure['x'] = 1;
        expect((await provider.getConnections())[0]!.configure).toEqual({});
        (await provider.getConnectionById('c-1'))!.configure['y'] = 1;
        expect((await provider.getConnectionById('c-1'))!.configure).toEqual({});
      });

      test(70, 'dataflows', async () => {
        const { provider } = await make({ dataflows: [flow()] });
        for (const clear of [true, false]) {
          const [mutated] = await provider.getDataflows();
          mutated!.name = 'changed';
          mutated!.source.connection.configure['mutated'] = true;
          if (clear) await provider.clearCache();
          expect(await provider.getDataflows()).toEqual([flow()]);
        }
      });

      test(71, 'hints', async () => {
        const { provider } = await make({
          dataflows: [flow({ connection: conn('conn_a', 'c-1', { configure: { use_schema_hint: true } }) })],
          schemaHints: [hintGroup('c-1', null, 'src', [hint('col')])],
        });
        const [dataflow] = await provider.getDataflows();
        dataflow!.transform.schema_hints[0]!.data_type = 'CHANGED';
        (await provider.getSchemaHints('c-1', 'src'))[0]!.data_type = 'CHANGED';
        expect(await provider.getSchemaHints('c-1', 'src')).toEqual([hint('col')]);
      });

      test(72, 'objects shared in the snapshot stay shared within one result', async () => {
        const shared = conn();
        const { provider } = await make({
          connections: [shared],
          dataflows: [flow({ connection: shared }), flow({ id: 'df-2', name: 'second', connection: shared })],
        });
        const [first, second] = await provider.getDataflows({ attachSchemaHints: false });
        expect(first!.source.connection).toBe(second!.source.connection);
        expect(first!.source.connection).toBe(first!.destination.connection);
      });
    });

    describe('§7.8 startup context and SQL roots', () => {
      test(73, 'a non-sequence context root is a TypeError', async () => {
        expect(() => new MetadataProviderStartupContext({ sqlBasePath: { root: 'sql' } as never })).toThrow(
          new TypeError('sql_base_path must be a path string or a sequence of path strings'),
        );
        const { provider } = await make();
        await expect(provider.configureContext({ sqlBasePath: { root: 'sql' } as never })).rejects.toThrow(
          TypeError,
        );
      });

      test(74, 'roots are detached from the caller', async () => {
        const declared = ['release/sql1', 'release/sql2'];
        const { provider } = await make({}, { sqlBasePath: declared });
        const context = new MetadataProviderStartupContext({ sqlBasePath: [...declared] });
        declared[0] = 'mutated/sql1';
        expect(provider.sqlBasePath).toEqual(['release/sql1', 'release/sql2']);
        expect(await provider.resolveSqlBasePath(context)).toEqual(['release/sql1', 'release/sql2']);
      });

      test(75, 'provider and Driver roots that disagree', async () => {
        const { provider } = await make({}, { sqlBasePath: 'release/provider-sql' });
        await rejectsWith(
          provider.configureContext({ sqlBasePath: 'release/driver-sql' }),
          ConfigurationError,
          `${provider.constructor.name} sql_base_path conflicts with Driver sql_base_path`,
        );
        expect(provider.isInitialized).toBe(false);
      });

      test(76, 'the Driver roots are the fallback', async () => {
        const { provider } = await make();
        expect(await provider.resolveSqlBasePath({ sqlBasePath: 'release/sql' })).toBe('release/sql');
        expect(provider.sqlBasePath).toBeNull();
      });

      test(77, 'a deferred artifact root', async () => {
        const { provider } = await make({}, { sqlBasePath: 'artifact:/sql' });
        expect(provider.sqlBasePath).toBe('artifact:/sql');
        expect(await provider.resolveSqlBasePath({ artifactBasePath: 'release' })).toBe('release/sql');
        await rejectsWith(
          provider.resolveSqlBasePath({}),
          ConfigurationError,
          "component root 'artifact:/sql' requires artifact_base_path",
        );
      });

      test(78, 'agreement is order-independent', async () => {
        const { provider } = await make({}, { sqlBasePath: ['a/sql1', 'b/sql2'] });
        await provider.configureContext({ sqlBasePath: ['b/sql2', 'a/sql1'] });
        expect(await provider.resolveSqlBasePath({ sqlBasePath: ['b/sql2', 'a/sql1'] })).toEqual([
          'a/sql1',
          'b/sql2',
        ]);
      });

      test(79, 'roots need distinct folder prefixes', async () => {
        await rejectsWith(
          make({}, { sqlBasePath: ['x/sql', 'y/sql'] }),
          ConfigurationError,
          "sql_base_path roots have duplicate folder prefix 'sql': 'x/sql' and 'y/sql'",
        );
      });

      test(80, 'empty and blank roots', async () => {
        await rejectsWith(
          make({}, { sqlBasePath: [] }),
          ConfigurationError,
          'sql_base_path must contain at least one path',
        );
        await rejectsWith(
          make({}, { sqlBasePath: ['ok', ' '] }),
          ConfigurationError,
          'sql_base_path[1] must be a non-empty path',
        );
      });

      test(81, 'path normalization', async () => {
        expect((await make({}, { sqlBasePath: 'release\\sql\\' })).provider.sqlBasePath).toBe('release/sql');
        expect((await make({}, { sqlBasePath: 's3://bucket//sql/' })).provider.sqlBasePath).toBe(
          's3://bucket/sql',
        );
      });

      test(82, 'metadata_base_path is rejected; other context paths are accepted', async () => {
        const subject = await make({ connections: [conn()] });
        await rejectsWith(
          subject.provider.configureContext({ metadataBasePath: 'metadata' }),
          ConfigurationError,
          `${subject.provider.constructor.name} does not support metadata_base_path`,
        );
        expect(subject.provider.isInitialized).toBe(false);
        await subject.provider.configureContext({
          platform: {},
          stateBasePath: 'state',
          logBasePath: 'logs',
          artifactBasePath: 'release',
        });
        expect(subject.counts._bulkLoad).toBe(0);
      });

      test(83, 'declared roots are exposed', async () => {
        expect(
          (await make({}, { sqlBasePath: ['shared/sql1', 'project/sql2'] })).provider.sqlBasePath,
        ).toEqual(['shared/sql1', 'project/sql2']);
        expect((await make({}, { sqlBasePath: 'project/sql' })).provider.sqlBasePath).toBe('project/sql');
      });
    });

    describe('§7.9 provider watermarks', () => {
      test(84, 'never written', async () => {
        const { provider } = await make();
        expect(await provider.getWatermark('df-1')).toBeNull();
      });

      test(85, 'round trip', async () => {
        const { provider } = await make();
        await provider.updateWatermark('df-1', '{"col": "2024-01-01"}');
        expect(await provider.getWatermark('df-1')).toBe('{"col": "2024-01-01"}');
      });

      test(86, 'raw "null" is returned verbatim', async () => {
        const { provider } = await make();
        await provider.updateWatermark('df-1', 'null');
        expect(await provider.getWatermark('df-1')).toBe('null');
        expect(await new WatermarkManager(provider).getWatermark('df-1')).toBeNull();
      });

      test(87, 'overwrite', async () => {
        const { provider } = await make();
        await provider.updateWatermark('df-1', '{"v": 1}');
        await provider.updateWatermark('df-1', '{"v": 2}');
        expect(await provider.getWatermark('df-1')).toBe('{"v": 2}');
      });

      test(88, 'invalid text passes through the provider', async () => {
        const { provider } = await make();
        await provider.updateWatermark('df-1', 'not-json{');
        expect(await provider.getWatermark('df-1')).toBe('not-json{');
        await rejectsWith(
          new WatermarkManager(provider).getWatermark('df-1'),
          WatermarkError,
          'Invalid stored watermark for dataflow df-1',
        );
      });

      test(89, 'empty and whitespace text read as null', async () => {
        const { provider } = await make();
        await provider.updateWatermark('df-1', '');
        expect(await provider.getWatermark('df-1')).toBeNull();
        await provider.updateWatermark('df-1', ' \n ');
        expect(await provider.getWatermark('df-1')).toBeNull();
      });

      test(90, 'provenance does not change the stored text', async () => {
        const { provider } = await make();
        await provider.updateWatermark('df-1', '{"v": 1}', { jobId: 'j-1', dataflowRunId: 'r-1' });
        expect(await provider.getWatermark('df-1')).toBe('{"v": 1}');
      });

      test(94, 'concurrent saves and reads', async () => {
        const subject = await make();
        const manager = new WatermarkManager(subject.provider);
        await Promise.all(
          Array.from({ length: 8 }, async (_, worker) => {
            for (let index = 0; index < 50; index += 1) {
              await manager.saveWatermark('df-1', { max_offset: worker * 50 + index, worker });
            }
          }),
        );
        expect(subject.counts.updateWatermark).toBe(400);
        expect(typeof (await manager.getWatermark('df-1'))?.['max_offset']).toBe('number');
        await Promise.all(
          Array.from({ length: 8 }, (_, worker) =>
            manager.saveWatermark(`df-${worker}`, { dataflow_id: `df-${worker}` }),
          ),
        );
        for (let worker = 0; worker < 8; worker += 1) {
          expect(await manager.getWatermark(`df-${worker}`)).toEqual({ dataflow_id: `df-${worker}` });
        }
        const writers = Array.from({ length: 2 }, async (_, worker) => {
          for (let index = 0; index < 100; index += 1)
            await manager.saveWatermark('df-mixed', { offset: index, worker });
        });
        const readers = Array.from({ length: 5 }, async () => {
          for (let index = 0; index < 100; index += 1) await manager.getWatermark('df-mixed');
        });
        await Promise.all([...writers, ...readers]);
        expect((await manager.getWatermark('df-mixed'))?.['offset']).toBe(99);
      });

      test(95, 'watermark calls do not initialize metadata', async () => {
        const subject = await make({ connections: [conn()], dataflows: [flow()] });
        expect(await subject.provider.getWatermark('df-1')).toBeNull();
        await subject.provider.updateWatermark('df-1', '{}');
        expect(subject.provider.isInitialized).toBe(false);
        expect(subject.counts._bulkLoad).toBe(0);
      });

      test(96, 'validateWatermarkStorage', async () => {
        const subject = await make({ connections: [conn()] });
        await subject.provider.validateWatermarkStorage();
        expect(subject.counts._bulkLoad).toBe(0);
        await subject.provider.close();
        await expect(subject.provider.validateWatermarkStorage()).rejects.toThrow('is closed');
      });
    });

    describe('§7.10 WatermarkManager over the provider', () => {
      test(97, 'manager reads', async () => {
        const subject = await make();
        const manager = new WatermarkManager(subject.provider);
        expect(await manager.getWatermark('df-1')).toBeNull();
        await subject.provider.updateWatermark('df-1', '{"offset": 42}');
        expect(await manager.getWatermark('df-1')).toEqual({ offset: 42 });
        await subject.provider.updateWatermark('df-1', '{}');
        expect(await manager.getWatermark('df-1')).toBeNull();
        await subject.provider.updateWatermark('df-1', 'not json');
        await expect(manager.getWatermark('df-1')).rejects.toThrow(
          'Invalid stored watermark for dataflow df-1',
        );
        subject.patch('getWatermark', () => () => Promise.reject(new Error('backend down')));
        await rejectsWith(
          manager.getWatermark('df-1'),
          WatermarkError,
          'Failed to load watermark for dataflow df-1',
        );
        const original = new WatermarkError('orig');
        subject.patch('getWatermark', () => () => Promise.reject(original));
        await expect(manager.getWatermark('df-1')).rejects.toBe(original);
      });

      test(98, 'manager saves', async () => {
        const subject = await make();
        const manager = new WatermarkManager(subject.provider);
        await manager.saveWatermark('df-1', { offset: 42 });
        expect(JSON.parse((await subject.provider.getWatermark('df-1'))!)).toEqual({ offset: 42 });
        await manager.saveWatermark(
          'df-1',
          { at: new WatermarkDateTime('2025-06-15T10:30:00+00:00') },
          {
            jobId: 'j-1',
            dataflowRunId: 'r-1',
          },
        );
        expect(await subject.provider.getWatermark('df-1')).toBe(
          '{"at": {"__datetime__": "2025-06-15T10:30:00+00:00"}}',
        );
        expect(subject.calls.updateWatermark.at(-1)?.[2]).toEqual({ jobId: 'j-1', dataflowRunId: 'r-1' });
        const reads = subject.counts.getWatermark;
        await manager.saveWatermark('df-1', { offset: 43 });
        expect(subject.counts.getWatermark).toBe(reads);
        subject.patch('updateWatermark', () => () => Promise.reject(new Error('disk full')));
        await rejectsWith(
          manager.saveWatermark('df-1', { offset: 44 }),
          WatermarkError,
          'Failed to save watermark for dataflow df-1',
        );
      });
    });

    it('lists every §7.1–§7.12 case as run or not applicable', () => {
      const missing = Array.from({ length: CONFORMANCE_CASE_COUNT }, (_, index) => index + 1).filter(
        (number) => !implemented.has(number) && notApplicable[number] === undefined,
      );
      expect(missing).toEqual([]);
      for (const reason of Object.values(notApplicable)) expect(reason.trim()).not.toBe('');
    });
  });
}
