// The conformance cases of reference §7 against `AideMetadataProvider` on the real backend
// (test/global-setup.mjs), numbered as in the reference. The shared suite (conformance.ts) builds
// arbitrary scopes with ids such as `c-1`; the registry assigns UUIDs and refuses at write time the
// invalid scopes those cases need (§8.7), so here each case runs on a registry workspace written
// through the API, adapted to it, and compared with what the registry holds (DataCoolie's own REST
// listings, the watermark routes). Cases that cannot apply are listed in NOT_APPLICABLE with the
// reason; the last test checks that every case 1–116 is either run or listed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { ConnectionProfile, Dataflow, Dataset } from '@aide/schemas';
import { AideClient } from '@aide/sdk';
import {
  AideMetadataProvider,
  ConfigurationError,
  createConnection,
  createDataflow,
  MetadataError,
  ProviderStateError,
  snapshotModels,
  WatermarkDateTime,
  WatermarkError,
  WatermarkManager,
  type AideMetadataProviderOptions,
  type DataFlow,
} from '../src/index.js';
import { adminClient, backend } from './helpers/backend.js';
import {
  countingDispatcher,
  registryPipeline,
  suffix,
  type RegistryPipeline,
  type SeenRequest,
} from './registry-fixture.js';

const NOT_APPLICABLE: Readonly<Record<number, string>> = {
  1: 'base-class construction guard: no registry involved (base-provider.test.ts)',
  10: 'failure-cleanup ordering with a throwing cleanup hook: base logic (base-provider.test.ts); the owned client is released on failure (case 102)',
  11: 'needs two connections with one id: the registry refuses a second profile with a taken id (409)',
  27: 'profile names are unique per workspace in the registry (409 CONNECTION_PROFILE_ALREADY_EXISTS): no ambiguous name can be loaded',
  58: 'needs two hint groups for one table differing in case: the registry keys hints by one dataset per (connection, schema, table), casefolded (409 DATAFLOW_SOURCE_KEY_CONFLICT)',
  60: 'duplicate connection ids: refused at write time (ids are primary keys)',
  61: 'a dataflow without identity: every registry dataflow has a UUID id and a name',
  62: 'duplicate dataflow ids: refused at write time (ids are primary keys)',
  63: 'inline connections: the snapshot references listed connections by id, so no inline copy can disagree',
  64: 'inline connections: the snapshot references listed connections by id',
  65: 'a connection without identity: every profile has a UUID id and a name',
  66: 'hints are derived from registry datasets read through workspace profiles: none can name an unknown connection',
  67: 'inline connections: the snapshot references listed connections by id',
  73: 'startup-context value object: no provider I/O (base-provider.test.ts, in-memory-provider.test.ts)',
  74: 'SQL-root normalization is base logic with no hook (base and in-memory suites)',
  75: 'SQL-root normalization is base logic with no hook (base and in-memory suites)',
  76: 'SQL-root normalization is base logic with no hook (base and in-memory suites)',
  77: 'SQL-root normalization is base logic with no hook (base and in-memory suites)',
  78: 'SQL-root normalization is base logic with no hook (base and in-memory suites)',
  79: 'SQL-root normalization is base logic with no hook (base and in-memory suites)',
  80: 'SQL-root normalization is base logic with no hook (base and in-memory suites)',
  81: 'SQL-root normalization is base logic with no hook (base and in-memory suites)',
  92: 'the registry answers current_value as text or null (contract schema), never as an object',
  93: 'the registry always answers the watermark envelope of its contract; malformed envelopes cannot be produced',
  99: 'provider-independent: the serializer is tested in test/watermark.test.ts',
  103: 'the SDK ships no Driver/orchestrator that could own a provider',
  107: 'the bulk load is one snapshot request; its cursor paging (all pages of one revision, 410 for an expired cursor) is tested in backend snapshot e2e; the cache-off listings ask for 200 items a page',
  108: 'a page cap needs a server reporting 1,500 pages; the registry reports its real page count',
  109: 'retries are the SDK transport (429/5xx/connection errors, test/transport.test.ts), not the provider',
  110: 'backoff and Retry-After are the SDK transport (test/transport.test.ts)',
  112: 'the registry always answers the {data, pagination} envelope (validated by the contract in backend e2e)',
  115: 'the SDK logs nothing: it has no logger to warn about an http:// base URL',
};

interface Fixture extends RegistryPipeline {
  quiet: ConnectionProfile;
  raw: ConnectionProfile;
  off: ConnectionProfile;
  customers: Dataset;
  customersTable: string;
  customersFlow: Dataflow;
  rawFlow: Dataflow;
  /** Eight query dataflows, for watermark writers on distinct ids. */
  spare: Dataflow[];
}

describe('AideMetadataProvider — provider conformance (reference §7) on the registry', () => {
  const admin = adminClient();
  const implemented = new Set<number>();
  const open: AideMetadataProvider[] = [];
  const agents: { close(): Promise<void> }[] = [];
  let f: Fixture;
  let seen: SeenRequest[];
  let client: AideClient;

  const test = (number: number, title: string, body: () => Promise<void> | void, timeout?: number) => {
    implemented.add(number);
    it(`case ${number}: ${title}`, body, timeout);
  };

  /** A provider over the recording client (or other access), closed after the run. */
  const make = (extra: Partial<AideMetadataProviderOptions> = {}, workspace = f.workspace.code) => {
    // Options naming a baseUrl make the provider create (and own) its client.
    const access = 'baseUrl' in extra ? {} : { client };
    const provider = new AideMetadataProvider({
      ...access,
      workspace,
      ...extra,
    } as AideMetadataProviderOptions);
    open.push(provider);
    return provider;
  };
  const lines = () => seen.map((r) => r.line);
  /** The promise rejects with exactly this class and message. */
  const rejectsWith = async (
    promise: Promise<unknown>,
    type: abstract new (...args: never[]) => Error,
    message: string,
  ) => {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toBe(message);
  };
  const reset = () => (seen.length = 0);
  const base = () => `/api/v1/workspaces/${f.workspace.code}`;
  const flowIds = (flows: DataFlow[]) => flows.map((d) => d.dataflow_id).sort();

  beforeAll(async () => {
    const p = await registryPipeline(admin);
    const id = suffix();
    const pgSystem = p.erp.system_id;
    const lakeSystem = p.bronze.system_id;
    const profile = (body: Record<string, unknown>) =>
      admin.connectionProfiles.create({ workspace_id: p.workspace.id, ...body } as never);
    const quiet = await profile({
      system_id: pgSystem,
      name: `quiet_${id}`,
      connection_type: 'database',
      format: 'sql',
      use_schema_hint: false,
    });
    const raw = await profile({
      system_id: lakeSystem,
      name: `raw_${id}`,
      connection_type: 'file',
      format: 'parquet',
      configure: { base_path: 's3://lake/raw' },
    });
    const off = await profile({
      system_id: lakeSystem,
      name: `off_${id}`,
      connection_type: 'file',
      format: 'csv',
      configure: { base_path: 's3://lake/off' },
      is_active: false,
    });
    const customers = await admin.datasets.create({
      kind: 'rdbms',
      system_id: (await admin.datasets.get(p.orders.id)).system_id,
      object_name: `sales.customers_${id}`,
      schema_name: 'sales',
      table_name: `customers_${id}`,
      layer: 'source',
    });
    await admin.datasets.publishSchemaVersion(customers.id, {
      columns: [
        { name: 'id', nullable: false, type: { data_type: 'bigint' } },
        { name: 'name', type: { data_type: 'text' } },
      ],
    });
    const storage = (path: string, file_format: string) =>
      admin.datasets.create({ kind: 'storage', system_id: lakeSystem, object_name: path, path, file_format });
    const bronzeCustomers = await storage(`s3://lake/bronze/erp/customers_${id}`, 'delta');
    const rawOrders = await storage(`s3://lake/raw/erp/orders_${id}`, 'parquet');
    const flow = (body: Record<string, unknown>) =>
      admin.dataflows.create({ workspace_id: p.workspace.id, ...body } as never);
    const customersFlow = await flow({
      name: `customers_${id}`,
      stage: 'silver2gold',
      source_connection_id: quiet.id,
      source_dataset_id: customers.id,
      destination_connection_id: p.bronze.id,
      destination_dataset_id: bronzeCustomers.id,
    });
    const rawFlow = await flow({
      name: `raw_${id}`,
      stage: 'raw',
      source_connection_id: p.erp.id,
      source_dataset_id: p.orders.id,
      source_filter_expression: "status <> 'DRAFT'",
      source_configure: { backward_days: 2, read_options: { fetchsize: 500 } },
      destination_connection_id: raw.id,
      destination_dataset_id: rawOrders.id,
      transform: { schema_hints: [{ column_name: 'existing', data_type: 'STRING' }] },
    });
    const spare: Dataflow[] = [];
    for (let i = 0; i < 8; i++) {
      spare.push(
        await flow({
          name: `spare_${i}_${id}`,
          is_active: false,
          source_connection_id: p.erp.id,
          source_query: `select ${i}`,
          destination_connection_id: raw.id,
          destination_dataset_id: rawOrders.id,
        }),
      );
    }
    f = {
      ...p,
      quiet,
      raw,
      off,
      customers,
      customersTable: `customers_${id}`,
      customersFlow,
      rawFlow,
      spare,
    };
    const counting = countingDispatcher();
    seen = counting.requests;
    agents.push(counting.agent);
    client = new AideClient({
      baseUrl: backend.baseUrl,
      username: backend.username,
      password: backend.password,
      dispatcher: counting.dispatcher,
    });
    await client.workspaces.get(f.workspace.id); // logs in: the tests count the provider's requests only
  });

  afterAll(async () => {
    for (const provider of open) await provider.close().catch(() => undefined);
    await client.close();
    await admin.close();
    for (const agent of agents) await agent.close();
  });

  describe('§7.1 construction and lifecycle', () => {
    test(2, 'construction is inert: no request, no client', () => {
      reset();
      const provider = make();
      expect(provider.isInitialized).toBe(false);
      const owned = make({ baseUrl: backend.baseUrl, token: 'never-used' });
      expect((owned as unknown as { client: unknown }).client).toBeNull();
      expect(seen).toEqual([]);
    });

    test(3, 'legacy and unknown options are rejected', () => {
      expect(() => make({ eagerPrefetch: true } as never)).toThrow(TypeError);
    });

    test(4, 'initialize marks the provider ready', async () => {
      const provider = make();
      await provider.initialize();
      expect([provider.isInitialized, provider.isReady]).toEqual([true, true]);
    });

    test(5, 'initialize is idempotent: one snapshot request', async () => {
      const provider = make();
      reset();
      await provider.initialize();
      await provider.initialize();
      expect(lines()).toEqual([`GET ${base()}/datacoolie/snapshot`]);
    });

    test(6, 'eight concurrent initialize calls make one request', async () => {
      const provider = make();
      reset();
      await Promise.all(Array.from({ length: 8 }, () => provider.initialize()));
      expect(seen).toHaveLength(1);
    });

    test(7, 'the first public read initializes; the next is served from the snapshot', async () => {
      const provider = make();
      reset();
      expect((await provider.getConnections()).length).toBeGreaterThan(0);
      expect(provider.isInitialized).toBe(true);
      await provider.getConnections();
      expect(seen).toHaveLength(1);
    });

    test(8, 'a hook calling a public getter is rejected, not deadlocked', async () => {
      const provider = make();
      (provider as unknown as { _initializeMetadata: () => unknown })._initializeMetadata = () =>
        provider.getConnections();
      await expect(provider.initialize()).rejects.toThrow('Recursive metadata initialization');
      expect(provider.isInitialized).toBe(false);
    });

    test(9, 'a failed start is retryable', async () => {
      const code = `ws-late-${suffix()}`;
      const provider = make({}, code);
      const error = await provider.initialize().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MetadataError);
      expect((error as MetadataError).details).toMatchObject({ status_code: 404 });
      expect(provider.isInitialized).toBe(false);
      await admin.workspaces.create({ code, name: code });
      await provider.initialize();
      expect(await provider.getConnections()).toEqual([]);
    });

    test(12, 'close clears state once and releases only what it created', async () => {
      const provider = make();
      await provider.initialize();
      await provider.close();
      await provider.close();
      expect([provider.isClosed, provider.isInitialized]).toEqual([true, false]);
    });

    test(13, 'every operation after close is rejected', async () => {
      const provider = make({ sqlBasePath: 'release/sql' });
      await provider.initialize();
      await provider.close();
      const ops: Array<() => Promise<unknown>> = [
        () => provider.getConnections(),
        () => provider.getConnectionById(f.erp.id),
        () => provider.getConnectionByName(f.erp.name),
        () => provider.getDataflows(),
        () => provider.getMaintenanceDataflows(),
        () => provider.getDataflowById(f.copy.id),
        () => provider.getSchemaHints(f.erp.id, f.table),
        () => provider.initialize(),
        () => provider.configureContext({}),
        () => provider.clearCache(),
        () => provider.resolveSqlBasePath({}),
        () => provider.validateWatermarkStorage(),
        () => provider.getWatermark(f.copy.id),
        () => provider.updateWatermark(f.copy.id, '{}'),
      ];
      for (const op of ops) {
        await rejectsWith(op(), ProviderStateError, 'AideMetadataProvider is closed');
      }
      expect(provider.sqlBasePath).toBe('release/sql');
    });

    test(14, 'disposal closes the provider', async () => {
      const provider = make();
      try {
        expect(await provider.getConnectionById(f.erp.id)).not.toBeNull();
      } finally {
        await provider[Symbol.asyncDispose]();
      }
      expect(provider.isClosed).toBe(true);
    });

    test(15, 'clearCache re-initializes: one revalidation request answered 304', async () => {
      const provider = make();
      await provider.getConnections();
      await provider.clearCache();
      expect(provider.isInitialized).toBe(false);
      reset();
      expect((await provider.getConnections()).length).toBeGreaterThan(0);
      expect(lines()).toEqual([`GET ${base()}/datacoolie/snapshot`]);
      expect(seen[0]!.headers['if-none-match']).toMatch(/^".+"$/);
    });

    test(16, 'clearCache with caching disabled is a no-op', async () => {
      const provider = make({ enableCache: false });
      await provider.initialize();
      await provider.clearCache();
      expect(provider.isInitialized).toBe(true);
    });

    test(17, 'clear, close and configure are rejected during initialization', async () => {
      const cases: Array<[(p: AideMetadataProvider) => Promise<void>, string]> = [
        [(p) => p.clearCache(), 'Cannot clear metadata cache during initialization'],
        [(p) => p.close(), 'Cannot close metadata provider during initialization'],
        [(p) => p.configureContext({}), 'Cannot configure metadata provider during initialization'],
      ];
      for (const [call, message] of cases) {
        const provider = make();
        (provider as unknown as { _initializeMetadata: () => unknown })._initializeMetadata = () =>
          call(provider);
        await expect(provider.initialize()).rejects.toThrow(message);
        expect([provider.isInitialized, provider.isClosed]).toEqual([false, false]);
      }
    });

    test(18, 'close inside its own runtime operation is rejected', async () => {
      const provider = make();
      const internals = provider as unknown as { _runtimeOperation<T>(op: () => Promise<T>): Promise<T> };
      await expect(internals._runtimeOperation(() => provider.close())).rejects.toThrow('runtime operation');
      await provider.close();
      expect(provider.isClosed).toBe(true);
    });

    test(19, 'close waits for an in-flight watermark read; the owned client is closed once', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const counting = countingDispatcher();
      agents.push(counting.agent);
      const held = counting.dispatcher.compose((dispatch) => (opts, handler) => {
        if (!String(opts.path).includes('/watermarks/')) return dispatch(opts, handler);
        started();
        void gate.then(() => dispatch(opts, handler));
        return true;
      });
      const closeSpy = jest.spyOn(AideClient.prototype, 'close');
      try {
        const provider = make({
          baseUrl: backend.baseUrl,
          username: backend.username,
          password: backend.password,
          dispatcher: held,
        });
        await admin.datacoolie.putWatermark(f.workspace.code, f.rawFlow.id, { current_value: 'value' });
        const read = provider.getWatermark(f.rawFlow.id);
        await running;
        let closed = false;
        const closing = provider.close().then(() => (closed = true));
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        expect(closed).toBe(false);
        release();
        expect(await read).toBe('value');
        await closing;
        expect(closeSpy.mock.contexts.filter((c) => c !== client && c !== admin)).toHaveLength(1);
      } finally {
        closeSpy.mockRestore();
      }
    });
  });

  describe('§7.2 connections', () => {
    test(20, 'zero connections', async () => {
      const code = `ws-empty-${suffix()}`;
      await admin.workspaces.create({ code, name: code });
      expect(await make({}, code).getConnections()).toEqual([]);
    });

    test(21, "one connection: the snapshot's equals DataCoolie's listing", async () => {
      const provider = make();
      const listed = await admin.datacoolie.connection(f.workspace.code, f.erp.id);
      expect(await provider.getConnectionById(f.erp.id)).toEqual(createConnection(listed));
    });

    test(22, 'many, including an inactive one', async () => {
      const provider = make();
      reset();
      const active = (await provider.getConnections()).map((c) => c.connection_id);
      expect(active).not.toContain(f.off.id);
      expect(active.sort()).toEqual([f.erp.id, f.bronze.id, f.quiet.id, f.raw.id].sort());
      const every = (await provider.getConnections({ activeOnly: false })).map((c) => c.connection_id);
      expect(every).toContain(f.off.id);
      expect(seen).toHaveLength(1);
    });

    test(23, 'lookup by id from the snapshot, no request', async () => {
      const provider = make();
      await provider.initialize();
      reset();
      expect((await provider.getConnectionById(f.bronze.id))?.name).toBe(f.bronze.name);
      expect(seen).toEqual([]);
    });

    test(24, 'unknown id is null without a request', async () => {
      const provider = make();
      await provider.initialize();
      reset();
      expect(await provider.getConnectionById(randomUUID())).toBeNull();
      expect(seen).toEqual([]);
    });

    test(25, 'lookup by name, hit and unknown, no request', async () => {
      const provider = make();
      await provider.initialize();
      reset();
      expect((await provider.getConnectionByName(f.raw.name))?.connection_id).toBe(f.raw.id);
      expect(await provider.getConnectionByName('nope')).toBeNull();
      expect(seen).toEqual([]);
    });

    test(26, 'an inactive connection is found by id', async () => {
      expect((await make().getConnectionById(f.off.id))?.is_active).toBe(false);
    });

    test(28, 'with caching off, lookups are live requests', async () => {
      const provider = make({ enableCache: false });
      await provider.getConnections();
      reset();
      expect((await provider.getConnectionById(f.erp.id))?.name).toBe(f.erp.name);
      expect(lines()).toEqual([`GET ${base()}/connections/${f.erp.id}`]);
    });
  });

  describe('§7.3 dataflows and stages', () => {
    const active = () => [f.copy.id, f.customersFlow.id, f.rawFlow.id].sort();

    test(29, "list: the snapshot's dataflow equals DataCoolie's listing", async () => {
      const flows = await make().getDataflows({ attachSchemaHints: false });
      expect(flowIds(flows)).toEqual(active());
      const listed = await admin.datacoolie.dataflow(f.workspace.code, f.copy.id);
      expect(flows.find((d) => d.dataflow_id === f.copy.id)).toEqual(createDataflow(listed));
    });

    test(30, 'by id after a list, no request', async () => {
      const provider = make();
      await provider.getDataflows();
      reset();
      expect((await provider.getDataflowById(f.copy.id, { attachSchemaHints: false }))?.name).toBe(
        f.copy.name,
      );
      expect(seen).toEqual([]);
    });

    test(31, 'unknown id is null', async () => {
      expect(await make().getDataflowById(randomUUID())).toBeNull();
    });

    test(32, 'single stage', async () => {
      const provider = make();
      expect(flowIds(await provider.getDataflows({ stage: 'source2bronze' }))).toEqual([f.copy.id]);
      expect(await provider.getDataflows({ stage: 'gold' })).toEqual([]);
    });

    test(33, 'comma-separated stages', async () => {
      const flows = await make().getDataflows({ stage: 'source2bronze, silver2gold' });
      expect(flowIds(flows)).toEqual([f.copy.id, f.customersFlow.id].sort());
    });

    test(34, 'a list of stages', async () => {
      const flows = await make().getDataflows({ stage: ['source2bronze', 'raw'] });
      expect(flowIds(flows)).toEqual([f.copy.id, f.rawFlow.id].sort());
    });

    test(35, 'a JSON-array string', async () => {
      expect(flowIds(await make().getDataflows({ stage: '["silver2gold"]' }))).toEqual([f.customersFlow.id]);
    });

    test(36, 'null, blank and empty filters do not filter', async () => {
      const provider = make();
      for (const stage of [null, '', '  ', []]) {
        expect(flowIds(await provider.getDataflows({ stage }))).toEqual(active());
      }
    });

    test(37, 'stages match exactly', async () => {
      expect(await make().getDataflows({ stage: 'Source2bronze' })).toEqual([]);
    });

    test(38, 'activeOnly', async () => {
      const provider = make();
      expect(flowIds(await provider.getDataflows())).not.toContain(f.inactive.id);
      expect(flowIds(await provider.getDataflows({ activeOnly: false }))).toContain(f.inactive.id);
    });

    test(39, 'caching off: the listing receives the normalized stages and activity', async () => {
      const provider = make({ enableCache: false });
      await provider.initialize();
      reset();
      const flows = await provider.getDataflows({ stage: 'raw, silver2gold', activeOnly: false });
      expect(flowIds(flows)).toEqual([f.customersFlow.id, f.rawFlow.id].sort());
      const query = new URLSearchParams(seen[0]!.query);
      expect([seen[0]!.line, query.get('stage'), query.get('active_only')]).toEqual([
        `GET ${base()}/dataflows`,
        'raw,silver2gold',
        null,
      ]);
    });

    test(40, 'an inactive dataflow is found by id', async () => {
      expect((await make().getDataflowById(f.inactive.id))?.is_active).toBe(false);
    });
  });

  describe('§7.4 maintenance dataflows', () => {
    test(41, 'only lakehouse destinations', async () => {
      const flows = await make().getMaintenanceDataflows();
      expect(flowIds(flows)).toEqual([f.copy.id, f.customersFlow.id].sort());
    });

    test(42, 'filter by destination connection name', async () => {
      const flows = await make().getMaintenanceDataflows({ connection: f.bronze.name });
      expect(flowIds(flows)).toEqual([f.copy.id, f.customersFlow.id].sort());
      expect(await make().getMaintenanceDataflows({ connection: f.erp.name })).toEqual([]);
    });

    test(43, 'filter by destination connection id', async () => {
      expect((await make().getMaintenanceDataflows({ connection: f.bronze.id })).length).toBe(2);
    });

    test(44, 'a comma-separated connection list', async () => {
      const flows = await make().getMaintenanceDataflows({ connection: `${f.erp.name},${f.bronze.name}` });
      expect(flowIds(flows)).toEqual([f.copy.id, f.customersFlow.id].sort());
    });

    test(45, 'the format rule wins over a connection match', async () => {
      const flows = await make().getMaintenanceDataflows({ connection: `${f.bronze.name},${f.raw.name}` });
      expect(flowIds(flows)).not.toContain(f.rawFlow.id);
    });

    test(46, 'schema hints only on request', async () => {
      const provider = make();
      const plain = await provider.getMaintenanceDataflows();
      expect(plain.find((d) => d.dataflow_id === f.copy.id)!.transform.schema_hints).toEqual([]);
      const hinted = await provider.getMaintenanceDataflows({ attachSchemaHints: true });
      expect(hinted.find((d) => d.dataflow_id === f.copy.id)!.transform.schema_hints[0]!.column_name).toBe(
        'order_id',
      );
    });

    test(47, 'works with caching off', async () => {
      const flows = await make({ enableCache: false }).getMaintenanceDataflows({ attachSchemaHints: false });
      expect(flowIds(flows)).toEqual([f.copy.id, f.customersFlow.id].sort());
    });
  });

  describe('§7.5 schema hints', () => {
    const hintsOf = async (provider: AideMetadataProvider, id: string, attach = true) =>
      (await provider.getDataflowById(id, { attachSchemaHints: attach }))!.transform.schema_hints.map(
        (h) => h.column_name,
      );

    test(48, "hints attach for the source table (its dataset's current version)", async () => {
      expect(await hintsOf(make(), f.copy.id)).toEqual(['order_id', 'amount', 'updated_at']);
    });

    test(49, 'a profile with use_schema_hint false gets none', async () => {
      expect(await hintsOf(make(), f.customersFlow.id)).toEqual([]);
      expect(await make().getSchemaHints(f.quiet.id, f.customersTable, 'sales')).toEqual([]);
    });

    test(50, 'authored (inline) hints win', async () => {
      expect(await hintsOf(make(), f.rawFlow.id)).toEqual(['existing']);
    });

    test(51, 'attachSchemaHints=false attaches nothing; the hints are preloaded', async () => {
      const provider = make();
      const flows = await provider.getDataflows({ attachSchemaHints: false });
      expect(flows.find((d) => d.dataflow_id === f.copy.id)!.transform.schema_hints).toEqual([]);
      reset();
      expect(await provider.getSchemaHints(f.erp.id, f.table, 'sales')).toHaveLength(3);
      expect(seen).toEqual([]);
    });

    test(52, 'a query source gets no hints', async () => {
      expect(await hintsOf(make(), f.inactive.id)).toEqual([]);
    });

    test(53, 'hints come from the source, never the destination', async () => {
      expect(await make().getSchemaHints(f.bronze.id, f.table, 'erp')).toEqual([]);
    });

    test(54, 'attachment by id follows the toggle', async () => {
      const provider = make();
      expect(await hintsOf(provider, f.copy.id, false)).toEqual([]);
      expect(await hintsOf(provider, f.copy.id, true)).toHaveLength(3);
    });

    test(55, 'unknown tables hit the negative cache', async () => {
      const provider = make();
      await provider.initialize();
      reset();
      expect(await provider.getSchemaHints(f.erp.id, 'absent_table')).toEqual([]);
      expect(seen).toEqual([]);
    });

    test(
      56,
      'selection rules (case-insensitive table and schema; a named schema does not fall back)',
      async () => {
        const provider = make();
        const names = async (table: string, schema?: string) =>
          (await provider.getSchemaHints(f.erp.id, table, schema ?? null)).map((h) => h.column_name);
        expect(await names(f.table.toUpperCase())).toEqual(['order_id', 'amount', 'updated_at']);
        expect(await names(f.table.toUpperCase(), 'SALES')).toHaveLength(3);
        expect(await names(f.table, 'missing')).toEqual([]);
      },
    );

    test(57, 'ordered by ordinal_position', async () => {
      const hints = await make().getSchemaHints(f.erp.id, f.table, 'sales');
      expect(hints.map((h) => h.ordinal_position)).toEqual([1, 2, 3]);
      expect(hints[1]).toMatchObject({ data_type: 'numeric', precision: 18, scale: 2 });
    });

    test(59, 'padded key parts normalize', async () => {
      expect(await make().getSchemaHints(f.erp.id, ` ${f.table} `, ' sales ')).toHaveLength(3);
    });
  });

  describe('§7.6 initialization validation', () => {
    test(68, 'a dataflow naming an unlisted connection is refused (snapshot mapping)', async () => {
      const snapshot = await admin.datacoolie.snapshotPage(f.workspace.code);
      const scope = {
        ...snapshot!,
        connections: snapshot!.connections.filter((c) => c.connection_id !== f.erp.id),
      };
      expect(() => snapshotModels(scope)).toThrow(MetadataError);
      expect(() => snapshotModels(scope)).toThrow(`references unknown source connection: ${f.erp.id}`);
    });
  });

  describe('§7.7 deep copies', () => {
    test(69, 'connections', async () => {
      const provider = make();
      (await provider.getConnections())[0]!.configure['x'] = 1;
      expect((await provider.getConnections())[0]!.configure['x']).toBeUndefined();
    });

    test(70, 'dataflows, with and without clearCache', async () => {
      const provider = make();
      for (const clear of [true, false]) {
        const [first] = await provider.getDataflows();
        first!.name = 'mutated';
        first!.source.connection.configure['mutated'] = true;
        if (clear) await provider.clearCache();
        const [again] = await provider.getDataflows();
        expect(again!.name).not.toBe('mutated');
        expect(again!.source.connection.configure['mutated']).toBeUndefined();
      }
    });

    test(71, 'hints', async () => {
      const provider = make();
      const flow = await provider.getDataflowById(f.copy.id);
      flow!.transform.schema_hints[0]!.data_type = 'mutated';
      expect((await provider.getSchemaHints(f.erp.id, f.table, 'sales'))[0]!.data_type).toBe('bigint');
    });

    test(72, 'a connection shared in the snapshot stays shared within one result', async () => {
      const flows = await make().getDataflows();
      const copy = flows.find((d) => d.dataflow_id === f.copy.id)!;
      const raw = flows.find((d) => d.dataflow_id === f.rawFlow.id)!;
      expect(copy.source.connection).toBe(raw.source.connection);
    });
  });

  describe('§7.8 startup context', () => {
    test(82, 'metadata_base_path is rejected; other context paths are accepted', async () => {
      const provider = make();
      await rejectsWith(
        provider.configureContext({ metadataBasePath: 'metadata' }),
        ConfigurationError,
        'AideMetadataProvider does not support metadata_base_path',
      );
      expect(provider.isInitialized).toBe(false);
      await provider.configureContext({
        stateBasePath: 'state',
        logBasePath: 'logs',
        artifactBasePath: 'release',
      });
    });

    test(83, 'declared roots are exposed', () => {
      expect(make({ sqlBasePath: ['shared/sql1', 'project/sql2'] }).sqlBasePath).toEqual([
        'shared/sql1',
        'project/sql2',
      ]);
      expect(make({ sqlBasePath: 'project/sql' }).sqlBasePath).toBe('project/sql');
    });
  });

  describe('§7.9 watermarks through the registry', () => {
    test(84, 'never written is null; an unknown dataflow (404) is null', async () => {
      const provider = make();
      expect(await provider.getWatermark(f.customersFlow.id)).toBeNull();
      expect(await provider.getWatermark(randomUUID())).toBeNull();
    });

    test(85, 'round trip, byte for byte', async () => {
      const provider = make();
      await provider.updateWatermark(f.copy.id, '{"col":  "2024-01-01"} ');
      expect(await provider.getWatermark(f.copy.id)).toBe('{"col":  "2024-01-01"} ');
    });

    test(86, 'raw "null" is returned verbatim', async () => {
      const provider = make();
      await provider.updateWatermark(f.copy.id, 'null');
      expect(await provider.getWatermark(f.copy.id)).toBe('null');
      expect(await new WatermarkManager(provider).getWatermark(f.copy.id)).toBeNull();
    });

    test(87, 'overwrite', async () => {
      const provider = make();
      await provider.updateWatermark(f.copy.id, '{"v": 1}');
      await provider.updateWatermark(f.copy.id, '{"v": 2}');
      expect(await provider.getWatermark(f.copy.id)).toBe('{"v": 2}');
    });

    test(88, 'invalid text passes through the provider', async () => {
      const provider = make();
      await provider.updateWatermark(f.copy.id, 'not-json{');
      expect(await provider.getWatermark(f.copy.id)).toBe('not-json{');
      await rejectsWith(
        new WatermarkManager(provider).getWatermark(f.copy.id),
        WatermarkError,
        `Invalid stored watermark for dataflow ${f.copy.id}`,
      );
    });

    test(89, 'empty and whitespace text read as null', async () => {
      const provider = make();
      await provider.updateWatermark(f.copy.id, '');
      expect(await provider.getWatermark(f.copy.id)).toBeNull();
      await provider.updateWatermark(f.copy.id, ' \n ');
      expect(await provider.getWatermark(f.copy.id)).toBeNull();
    });

    test(90, 'provenance is recorded beside the text, never in it; absent ids are not sent', async () => {
      const provider = make();
      reset();
      await provider.updateWatermark(f.copy.id, '{"v": 1}', { jobId: 'j-1', dataflowRunId: 'r-1' });
      expect(await provider.getWatermark(f.copy.id)).toBe('{"v": 1}');
      expect(await admin.datacoolie.watermark(f.workspace.code, f.copy.id)).toMatchObject({
        current_value: '{"v": 1}',
        job_id: 'j-1',
        dataflow_run_id: 'r-1',
      });
      await provider.updateWatermark(f.copy.id, '{"v": 2}');
      expect(await admin.datacoolie.watermark(f.workspace.code, f.copy.id)).toMatchObject({
        job_id: null,
        dataflow_run_id: null,
      });
      expect(seen.filter((r) => r.line.startsWith('PUT'))).toHaveLength(2);
    });

    test(91, 'failures are errors, never empties', async () => {
      const code = `ws-other-${suffix()}`;
      const other = await admin.workspaces.create({ code, name: code });
      const key = await admin.apiKeys.create({ name: `elsewhere-${code}`, workspace_ids: [other.id] });
      const provider = make({ baseUrl: backend.baseUrl, apiKey: key.key });
      await rejectsWith(
        provider.getWatermark(f.copy.id),
        WatermarkError,
        `Failed to read watermark for dataflow ${f.copy.id}`,
      );
      await rejectsWith(
        provider.updateWatermark(f.copy.id, '{}'),
        WatermarkError,
        `Failed to update watermark for dataflow ${f.copy.id}`,
      );
      // A bulk load refused (403) is a MetadataError carrying the status.
      const error = await provider.initialize().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MetadataError);
      expect((error as MetadataError).details).toMatchObject({ status_code: 403 });
      await expect(make().updateWatermark(randomUUID(), '{}')).rejects.toThrow('Failed to update watermark');
      await expect(make().updateWatermark(f.copy.id, 5 as unknown as string)).rejects.toThrow(
        'Failed to update watermark',
      );
    });

    test(
      94,
      'concurrent saves and reads: 8 × 50 on one id, 8 ids, readers beside writers',
      async () => {
        const provider = make();
        const manager = new WatermarkManager(provider);
        const id = f.spare[0]!.id;
        await Promise.all(
          Array.from({ length: 8 }, async (_, worker) => {
            for (let i = 0; i < 50; i++)
              await manager.saveWatermark(id, { max_offset: worker * 50 + i, worker });
          }),
        );
        expect(typeof (await manager.getWatermark(id))?.['max_offset']).toBe('number');
        expect((await admin.datacoolie.watermark(f.workspace.code, id)).revision).toBe(400);
        await Promise.all(f.spare.map((d) => manager.saveWatermark(d.id, { dataflow_id: d.id })));
        for (const d of f.spare) expect(await manager.getWatermark(d.id)).toEqual({ dataflow_id: d.id });
        const writers = Array.from({ length: 2 }, async (_, worker) => {
          for (let i = 0; i < 20; i++) await manager.saveWatermark(f.spare[1]!.id, { offset: i, worker });
        });
        const readers = Array.from({ length: 5 }, async () => {
          for (let i = 0; i < 20; i++) await manager.getWatermark(f.spare[1]!.id);
        });
        await Promise.all([...writers, ...readers]);
      },
      120_000,
    );

    test(95, 'watermark calls do not initialize metadata: one request each', async () => {
      const provider = make();
      reset();
      await provider.getWatermark(f.copy.id);
      expect(lines()).toEqual([`GET ${base()}/watermarks/${f.copy.id}`]);
      expect(provider.isInitialized).toBe(false);
    });

    test(96, 'validateWatermarkStorage: no request; closed is rejected', async () => {
      const provider = make();
      reset();
      await provider.validateWatermarkStorage();
      expect(seen).toEqual([]);
      await provider.close();
      await expect(provider.validateWatermarkStorage()).rejects.toThrow('is closed');
    });
  });

  describe('§7.10 WatermarkManager over the registry', () => {
    test(97, 'manager reads', async () => {
      const provider = make();
      const manager = new WatermarkManager(provider);
      const id = f.spare[2]!.id;
      await provider.updateWatermark(id, '{"offset": 42}');
      expect(await manager.getWatermark(id)).toEqual({ offset: 42 });
      await provider.updateWatermark(id, '{}');
      expect(await manager.getWatermark(id)).toBeNull();
    });

    test(98, 'manager saves tagged values the registry keeps verbatim', async () => {
      const provider = make();
      const id = f.spare[3]!.id;
      await new WatermarkManager(provider).saveWatermark(
        id,
        { at: new WatermarkDateTime('2025-06-15T10:30:00+00:00'), offset: 42 },
        { jobId: 'job-9' },
      );
      expect(await provider.getWatermark(id)).toBe(
        '{"at": {"__datetime__": "2025-06-15T10:30:00+00:00"}, "offset": 42}',
      );
      expect((await admin.datacoolie.watermark(f.workspace.code, id)).job_id).toBe('job-9');
    });
  });

  describe('§7.11 resource ownership', () => {
    test(100, 'a client the provider created is closed on close()', async () => {
      const spy = jest.spyOn(AideClient.prototype, 'close');
      try {
        const provider = make({
          baseUrl: backend.baseUrl,
          username: backend.username,
          password: backend.password,
        });
        await provider.initialize();
        await provider.close();
        expect(spy).toHaveBeenCalledTimes(1);
        expect((provider as unknown as { client: unknown }).client).toBeNull();
      } finally {
        spy.mockRestore();
      }
    });

    test(101, 'an injected client survives close()', async () => {
      const provider = make();
      await provider.initialize();
      await provider.close();
      expect((await client.workspaces.get(f.workspace.id)).id).toBe(f.workspace.id);
    });

    test(102, 'a failed start closes the client it created; the retry creates a new one', async () => {
      const code = `ws-later-${suffix()}`;
      const spy = jest.spyOn(AideClient.prototype, 'close');
      try {
        const provider = make(
          {
            baseUrl: backend.baseUrl,
            username: backend.username,
            password: backend.password,
          },
          code,
        );
        await expect(provider.initialize()).rejects.toThrow(MetadataError);
        expect(spy).toHaveBeenCalledTimes(1);
        await admin.workspaces.create({ code, name: code });
        await provider.initialize();
        expect(provider.isInitialized).toBe(true);
        await provider.close();
        expect(spy).toHaveBeenCalledTimes(2);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('§7.12 REST specifics, on the registry', () => {
    test(104, 'URL and credentials: an API key, the workspace path, JSON', async () => {
      const key = await admin.apiKeys.create({
        name: `provider-${suffix()}`,
        workspace_ids: [f.workspace.id],
      });
      const counting = countingDispatcher();
      agents.push(counting.agent);
      const provider = make({
        baseUrl: `${backend.baseUrl}/`,
        apiKey: key.key,
        dispatcher: counting.dispatcher,
      });
      await provider.initialize();
      expect(counting.requests.map((r) => r.line)).toEqual([`GET ${base()}/datacoolie/snapshot`]);
      expect(counting.requests[0]!.headers).toMatchObject({
        authorization: `Bearer ${key.key}`,
        accept: 'application/json',
      });
    });

    test(105, 'active_only: sent as "true" only when filtering (caching off)', async () => {
      const provider = make({ enableCache: false });
      await provider.initialize();
      reset();
      await provider.getConnections({ activeOnly: false });
      await provider.getConnections({ activeOnly: true });
      expect(seen.map((r) => new URLSearchParams(r.query).get('active_only'))).toEqual([null, 'true']);
    });

    test(106, 'stage: comma-joined (caching off)', async () => {
      const provider = make({ enableCache: false });
      await provider.initialize();
      reset();
      expect(flowIds(await provider.getDataflows({ stage: 'silver2gold' }))).toEqual([f.customersFlow.id]);
      await provider.getDataflows({ stage: ['source2bronze', 'raw'] });
      // With caching off each dataflow's hints are a live lookup too (reference §2.10): listings only here.
      const listings = seen.filter((r) => r.line === `GET ${base()}/dataflows`);
      expect(listings.map((r) => new URLSearchParams(r.query).get('stage'))).toEqual([
        'silver2gold',
        'source2bronze,raw',
      ]);
    });

    test(111, 'a 404 is "not found": null (caching off)', async () => {
      const provider = make({ enableCache: false });
      expect(await provider.getConnectionById(randomUUID())).toBeNull();
      expect(await provider.getConnectionById('missing')).toBeNull();
      expect(await provider.getDataflowById(randomUUID())).toBeNull();
    });

    test(113, 'scoped hint rows (caching off): filters sent, rows grouped and selected', async () => {
      const provider = make({ enableCache: false });
      await provider.initialize();
      reset();
      const hints = await provider.getSchemaHints(f.erp.id, f.table.toUpperCase(), 'SALES');
      expect(hints.map((h) => h.column_name)).toEqual(['order_id', 'amount', 'updated_at']);
      const query = new URLSearchParams(seen[0]!.query);
      expect([query.get('connection_id'), query.get('table_name'), query.get('schema_name')]).toEqual([
        f.erp.id,
        f.table.toUpperCase(),
        'SALES',
      ]);
    });

    test(114, 'caching off: the start-up load, then one live listing', async () => {
      const provider = make({ enableCache: false });
      reset();
      await provider.getConnections();
      expect(lines()).toEqual([`GET ${base()}/datacoolie/snapshot`, `GET ${base()}/connections`]);
    });

    test(116, 'bulk mapping keeps source filter_expression and configure verbatim', async () => {
      const flow = await make().getDataflowById(f.rawFlow.id);
      expect(flow!.source).toMatchObject({
        filter_expression: "status <> 'DRAFT'",
        configure: { backward_days: 2, read_options: { fetchsize: 500 } },
      });
      expect(flow!.source.connection.connection_type).toBe('database');
    });
  });

  it('runs or lists every case of §7.1–§7.12', () => {
    const missing = Array.from({ length: 116 }, (_, i) => i + 1).filter(
      (n) => !implemented.has(n) && NOT_APPLICABLE[n] === undefined,
    );
    const both = [...implemented].filter((n) => NOT_APPLICABLE[n] !== undefined);
    expect({ missing, both }).toEqual({ missing: [], both: [] });
  });
});
