// `BaseMetadataProvider` (reference §2–§5): a template-method class. The public methods own the
// lifecycle, the lock, the snapshot cache, filtering, deep copies and schema-hint attachment;
// subclasses implement the protected I/O hooks and the two watermark methods.
import { debuglog } from 'node:util';
import {
  ensureList,
  isUsableIdentifier,
  LAKEHOUSE_FORMATS,
  ConfigurationError,
  MetadataError,
  ProviderStateError,
  usesSchemaHint,
  type Connection,
  type DataFlow,
  type SchemaHint,
} from '@aide/schemas/datacoolie';
import { MetadataCache } from './cache.js';
import { AsyncReentrantLock } from './lock.js';
import {
  normalizeSchemaHintKey,
  schemaHintKeyId,
  selectSchemaHints,
  type SchemaHintGroup,
  type SchemaHintGroups,
} from './schema-hints.js';
import {
  normalizeSqlRoots,
  publicSqlBasePath,
  sameSqlRoots,
  type SqlBasePath,
  type SqlRoot,
} from './sql-roots.js';
import { MetadataProviderStartupContext, type StartupContextInit } from './startup-context.js';
import { validateInitializedScope } from './validation.js';

const debug = debuglog('aide-provider');

/** Hooks may answer synchronously (in-memory backends) or asynchronously (I/O). */
export type Awaitable<T> = T | Promise<T>;

export interface BaseMetadataProviderOptions {
  /** Serve reads from the validated snapshot (default true); false calls the live hooks on every read. */
  enableCache?: boolean;
  /** SQL root(s) the provider declares; `artifact:/…` roots may wait for a startup context. */
  sqlBasePath?: string | readonly string[] | null;
}

export interface GetConnectionsOptions {
  activeOnly?: boolean;
}

/** A stage filter: one stage, a comma-separated or JSON-array string, or a list. */
export type StageFilter = string | readonly string[] | null;

export interface GetDataflowsOptions {
  stage?: StageFilter;
  activeOnly?: boolean;
  attachSchemaHints?: boolean;
}

export interface GetMaintenanceDataflowsOptions {
  /** Destination connection ids or names: one, a comma-separated or JSON-array string, or a list. */
  connection?: string | readonly string[] | null;
  activeOnly?: boolean;
  attachSchemaHints?: boolean;
}

export interface GetDataflowByIdOptions {
  attachSchemaHints?: boolean;
}

/** Provenance of a watermark write; never part of the stored text. */
export interface UpdateWatermarkOptions {
  jobId?: string | null;
  dataflowRunId?: string | null;
}

export interface FetchConnectionsOptions {
  activeOnly: boolean;
}

export interface FetchDataflowsOptions {
  /** Already normalized: null means no stage filter. */
  stages: string[] | null;
  activeOnly: boolean;
}

/** The complete scope, active and inactive, as one bulk load returns it. */
export interface BulkLoadResult {
  connections: Connection[];
  dataflows: DataFlow[];
  schemaHints: SchemaHintGroup[];
}

const OPTION_KEYS = new Set(['enableCache', 'sqlBasePath']);
/** What a concrete provider must implement. */
export const REQUIRED_PROVIDER_METHODS = [
  '_fetchConnections',
  '_fetchConnectionById',
  '_fetchConnectionByName',
  '_fetchDataflows',
  '_fetchDataflowById',
  '_fetchSchemaHints',
  'getWatermark',
  'updateWatermark',
] as const;

export const RECURSIVE_INITIALIZATION_MESSAGE =
  'Recursive metadata initialization; provider startup hooks must use private fetch methods';

/** `_normalise_stages`: null, and anything that normalizes to no stage, means "no filter". */
export function normaliseStages(stage: StageFilter | undefined): string[] | null {
  if (stage === null || stage === undefined) return null;
  const stages = ensureList(stage) as string[];
  return stages.length === 0 ? null : stages;
}

function schemaHintSource(
  dataflow: DataFlow,
): { connectionId: string; table: string; schema: string | null } | null {
  const { source } = dataflow;
  if (!usesSchemaHint(source.connection) || source.table === null) return null;
  if (!isUsableIdentifier(source.connection.connection_id)) return null;
  return { connectionId: source.connection.connection_id, table: source.table, schema: source.schema_name };
}

export abstract class BaseMetadataProvider implements AsyncDisposable {
  /** The snapshot, or null when caching is disabled. */
  protected readonly _cache: MetadataCache | null;
  private readonly lock = new AsyncReentrantLock();
  private readonly sqlRoots: SqlRoot[] | null;
  private initialized = false;
  private closed = false;
  private inInitialization = false;
  private runtimeOperationDepth = 0;

  constructor(options: BaseMetadataProviderOptions = {}) {
    if (new.target === (BaseMetadataProvider as unknown)) {
      throw new TypeError("Can't instantiate abstract class BaseMetadataProvider");
    }
    for (const hook of REQUIRED_PROVIDER_METHODS) {
      if (typeof (this as unknown as Record<string, unknown>)[hook] !== 'function') {
        throw new TypeError(
          `Can't instantiate abstract class ${new.target.name} without an implementation for '${hook}'`,
        );
      }
    }
    for (const key of Object.keys(options)) {
      // Construction only records configuration; legacy prefetch options no longer exist.
      if (!OPTION_KEYS.has(key)) throw new TypeError(`${new.target.name} got an unexpected option '${key}'`);
    }
    const enableCache = options.enableCache ?? true;
    if (typeof enableCache !== 'boolean') throw new TypeError('enableCache must be a boolean');
    this._cache = enableCache ? new MetadataCache() : null;
    this.sqlRoots = normalizeSqlRoots(options.sqlBasePath ?? null, { allowDeferred: true });
  }

  // ---- state --------------------------------------------------------------------------------------

  get isInitialized(): boolean {
    return this.initialized && !this.closed;
  }

  get isReady(): boolean {
    return this.isInitialized;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The provider-declared SQL roots: null, one path, or several. Readable after close. */
  get sqlBasePath(): SqlBasePath {
    return publicSqlBasePath(this.sqlRoots);
  }

  private get className(): string {
    return this.constructor.name;
  }

  private assertOpen(): void {
    if (this.closed) throw new ProviderStateError(`${this.className} is closed`);
  }

  // ---- lifecycle ----------------------------------------------------------------------------------

  /** The startup boundary: one bulk load, validated, then published. Idempotent and retryable. */
  async initialize(): Promise<void> {
    const started = performance.now();
    const counts = await this.lock.run(() => this.initializeLocked());
    if (counts !== null) {
      debug('METADATA_INITIALIZED %o', { elapsed_ms: performance.now() - started, ...counts });
    }
  }

  private async initializeLocked(): Promise<Record<string, number> | null> {
    this.assertOpen();
    if (this.inInitialization) throw new ProviderStateError(RECURSIVE_INITIALIZATION_MESSAGE);
    if (this.initialized) return null;
    this.inInitialization = true;
    try {
      await this._initializeMetadata();
      const { connections, dataflows, schemaHints } = await this._bulkLoad();
      const groups = this._validateInitializedScope(connections, dataflows, schemaHints);
      // One copy of the whole scope: the hook's objects stay the hook's, shared objects stay shared.
      // A provider whose bulk load builds new objects on each call holds them alone: no copy needed.
      const scope = this._bulkLoadIsPrivate()
        ? { connections, dataflows, groups }
        : structuredClone({ connections, dataflows, groups });
      this._cache?.publishSnapshot(scope.connections, scope.dataflows, scope.groups);
      this.initialized = true;
      return {
        connections: connections.length,
        dataflows: dataflows.length,
        schema_hint_groups: groups.size,
      };
    } catch (error) {
      this.initialized = false;
      this._cache?.clear();
      try {
        await this._cleanupFailedInitialization();
      } catch (cleanupError) {
        debug('failed-initialization cleanup raised %o', cleanupError);
      }
      throw error;
    } finally {
      this.inInitialization = false;
    }
  }

  /** Drops the snapshot; the next read re-runs the whole initialization. No-op when caching is off. */
  async clearCache(): Promise<void> {
    await this.lock.run(() => {
      this.assertOpen();
      if (this._cache === null) return;
      if (this.inInitialization) {
        throw new ProviderStateError('Cannot clear metadata cache during initialization');
      }
      this._cache.clear();
      this.initialized = false;
    });
  }

  /** Releases what the provider owns. Idempotent; waits for operations of other callers. */
  async close(): Promise<void> {
    await this.lock.run(async () => {
      if (this.closed) return;
      if (this.inInitialization) {
        throw new ProviderStateError('Cannot close metadata provider during initialization');
      }
      if (this.runtimeOperationDepth > 0) {
        throw new ProviderStateError('Cannot close metadata provider during a runtime operation');
      }
      this.closed = true;
      this.initialized = false;
      this._cache?.clear();
      await this._closeResources();
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Offers the runtime owner's startup context; SQL roots are checked before the hook sees it. */
  async configureContext(context: MetadataProviderStartupContext | StartupContextInit): Promise<void> {
    const startup = MetadataProviderStartupContext.from(context);
    await this.lock.run(async () => {
      this.assertOpen();
      if (this.inInitialization) {
        throw new ProviderStateError('Cannot configure metadata provider during initialization');
      }
      this.effectiveSqlRoots(startup);
      await this._configureContext(startup);
    });
  }

  /** The effective SQL roots for a context: the provider's when declared, else the Driver's. */
  async resolveSqlBasePath(
    context: MetadataProviderStartupContext | StartupContextInit,
  ): Promise<SqlBasePath> {
    const startup = MetadataProviderStartupContext.from(context);
    return this.lock.run(() => {
      this.assertOpen();
      return publicSqlBasePath(this.effectiveSqlRoots(startup));
    });
  }

  private effectiveSqlRoots(context: MetadataProviderStartupContext): SqlRoot[] | null {
    const artifactBasePath = context.artifactBasePath;
    const driverRoots = normalizeSqlRoots(context.sqlBasePath, { artifactBasePath });
    if (this.sqlRoots === null) return driverRoots;
    const providerRoots = normalizeSqlRoots(
      this.sqlRoots.map((root) => root.path),
      { artifactBasePath },
    )!;
    if (driverRoots !== null && !sameSqlRoots(providerRoots, driverRoots)) {
      throw new ConfigurationError(`${this.className} sql_base_path conflicts with Driver sql_base_path`);
    }
    return providerRoots;
  }

  /** Readiness of watermark storage, without I/O. Override to add local configuration checks. */
  async validateWatermarkStorage(): Promise<void> {
    await this.lock.run(() => this.assertOpen());
  }

  // ---- metadata reads -----------------------------------------------------------------------------

  /** Every public read: lock → initialize → read. */
  private read<T>(reader: (cache: MetadataCache | null) => Promise<T> | T): Promise<T> {
    return this.lock.run(async () => {
      await this.initialize();
      this._ensureOpen();
      return reader(this._cache);
    });
  }

  async getConnections({ activeOnly = true }: GetConnectionsOptions = {}): Promise<Connection[]> {
    return this.read(async (cache) => {
      if (cache === null) return structuredClone(await this._fetchConnections({ activeOnly }));
      return structuredClone(cache.connections.filter((connection) => !activeOnly || connection.is_active));
    });
  }

  async getConnectionById(connectionId: string): Promise<Connection | null> {
    return this.read(async (cache) => {
      const connection =
        cache === null ? await this._fetchConnectionById(connectionId) : cache.connectionById(connectionId);
      return connection ? structuredClone(connection) : null;
    });
  }

  async getConnectionByName(name: string): Promise<Connection | null> {
    return this.read(async (cache) => {
      if (cache === null) {
        const connection = await this._fetchConnectionByName(name);
        return connection ? structuredClone(connection) : null;
      }
      const named = cache.connectionsNamed(name);
      if (named.length > 1)
        throw new MetadataError(`Connection name is ambiguous: ${name}; use connection_id`);
      return named.length === 1 ? structuredClone(named[0]!) : null;
    });
  }

  async getDataflows({
    stage = null,
    activeOnly = true,
    attachSchemaHints = true,
  }: GetDataflowsOptions = {}): Promise<DataFlow[]> {
    const stages = this._normaliseStages(stage);
    return this.read(async (cache) => {
      if (cache === null) {
        const dataflows = structuredClone(await this._fetchDataflows({ stages, activeOnly }));
        if (attachSchemaHints) await this.attachSchemaHintsByLookup(dataflows);
        return dataflows;
      }
      const dataflows = structuredClone(
        cache.dataflows.filter(
          (dataflow) =>
            (!activeOnly || dataflow.is_active) &&
            (stages === null || stages.includes(dataflow.stage as string)),
        ),
      );
      if (attachSchemaHints) this.attachSchemaHintsFromSnapshot(dataflows, cache.schemaHints);
      return dataflows;
    });
  }

  async getMaintenanceDataflows({
    connection = null,
    activeOnly = true,
    attachSchemaHints = false,
  }: GetMaintenanceDataflowsOptions = {}): Promise<DataFlow[]> {
    const wanted = new Set(
      ensureList(connection)
        .map((value) => String(value).trim())
        .filter((value) => value !== ''),
    );
    const keep = (dataflow: DataFlow): boolean => {
      const destination = dataflow.destination.connection;
      if (!LAKEHOUSE_FORMATS.includes(destination.format)) return false;
      return wanted.size === 0 || wanted.has(destination.connection_id) || wanted.has(destination.name);
    };
    return this.read(async (cache) => {
      if (cache === null) {
        const dataflows = structuredClone(await this._fetchDataflows({ stages: null, activeOnly })).filter(
          keep,
        );
        if (attachSchemaHints) await this.attachSchemaHintsByLookup(dataflows);
        return dataflows;
      }
      const dataflows = structuredClone(
        cache.dataflows.filter((dataflow) => (!activeOnly || dataflow.is_active) && keep(dataflow)),
      );
      if (attachSchemaHints) this.attachSchemaHintsFromSnapshot(dataflows, cache.schemaHints);
      return dataflows;
    });
  }

  async getDataflowById(
    dataflowId: string,
    { attachSchemaHints = true }: GetDataflowByIdOptions = {},
  ): Promise<DataFlow | null> {
    return this.read(async (cache) => {
      const found =
        cache === null ? await this._fetchDataflowById(dataflowId) : cache.dataflowById(dataflowId);
      if (!found) return null;
      const dataflow = structuredClone(found);
      if (attachSchemaHints) await this.attachSchemaHintsByLookup([dataflow]);
      return dataflow;
    });
  }

  /** Hints of one source table (note the order: connection, table, schema). Unknown → []. */
  async getSchemaHints(
    connectionId: string,
    tableName: string,
    schemaName: string | null = null,
  ): Promise<SchemaHint[]> {
    return this.read(async (cache) => {
      if (cache === null)
        return structuredClone(await this._fetchSchemaHints(connectionId, tableName, schemaName));
      return structuredClone(selectSchemaHints(cache.schemaHints, connectionId, tableName, schemaName) ?? []);
    });
  }

  /** Batch path: one look at the snapshot's hint map per dataflow. */
  private attachSchemaHintsFromSnapshot(dataflows: DataFlow[], groups: SchemaHintGroups): void {
    for (const dataflow of dataflows) {
      const source = this.hintSourceOf(dataflow);
      if (source === null) continue;
      const hints = selectSchemaHints(groups, source.connectionId, source.table, source.schema);
      if (hints && hints.length > 0) dataflow.transform.schema_hints = structuredClone(hints);
    }
  }

  /** Per-dataflow path: the public `getSchemaHints` (snapshot, or the live hook with caching off). */
  private async attachSchemaHintsByLookup(dataflows: DataFlow[]): Promise<void> {
    for (const dataflow of dataflows) {
      const source = this.hintSourceOf(dataflow);
      if (source === null) continue;
      const hints = await this.getSchemaHints(source.connectionId, source.table, source.schema);
      if (hints.length > 0) dataflow.transform.schema_hints = structuredClone(hints);
    }
  }

  /** Where a dataflow's hints come from; null when authored hints win or the source gets none. */
  private hintSourceOf(dataflow: DataFlow) {
    if (dataflow.transform.schema_hints.length > 0) return null;
    return schemaHintSource(dataflow);
  }

  // ---- helpers for subclasses ---------------------------------------------------------------------

  /**
   * Runs a watermark (or other runtime) operation under the lifecycle lock, rejecting a closed
   * provider. It does not initialize metadata. Not for use by workers inside hooks.
   */
  protected async _runtimeOperation<T>(operation: () => Promise<T> | T): Promise<T> {
    return this.lock.run(async () => {
      this.assertOpen();
      this.runtimeOperationDepth += 1;
      try {
        return await operation();
      } finally {
        this.runtimeOperationDepth -= 1;
      }
    });
  }

  /** The closed check without the lock, for code running inside hooks (and their workers). */
  protected _ensureOpen(): void {
    this.assertOpen();
  }

  protected _normaliseStages(stage: StageFilter | undefined): string[] | null {
    return normaliseStages(stage);
  }

  /** The §3 invariants; returns the normalized hint groups to publish. */
  protected _validateInitializedScope(
    connections: readonly Connection[],
    dataflows: readonly DataFlow[],
    schemaHints: Iterable<SchemaHintGroup>,
  ): Map<string, SchemaHintGroup> {
    return validateInitializedScope(connections, dataflows, schemaHints);
  }

  // ---- hooks --------------------------------------------------------------------------------------

  /** All connections in scope, filtered by activity. */
  protected abstract _fetchConnections(options: FetchConnectionsOptions): Awaitable<Connection[]>;
  protected abstract _fetchConnectionById(connectionId: string): Awaitable<Connection | null>;
  protected abstract _fetchConnectionByName(name: string): Awaitable<Connection | null>;
  /** Dataflows with the stage and activity filters applied and both connections resolved. */
  protected abstract _fetchDataflows(options: FetchDataflowsOptions): Awaitable<DataFlow[]>;
  protected abstract _fetchDataflowById(dataflowId: string): Awaitable<DataFlow | null>;
  /** Hints of one source table; [] when the backend has none. */
  protected abstract _fetchSchemaHints(
    connectionId: string,
    tableName: string,
    schemaName: string | null,
  ): Awaitable<SchemaHint[]>;

  /** The raw stored watermark text, or null. Implementations wrap the I/O in `_runtimeOperation`. */
  abstract getWatermark(dataflowId: string): Promise<string | null>;
  /** Stores the text verbatim (last writer wins). Implementations wrap the I/O in `_runtimeOperation`. */
  abstract updateWatermark(
    dataflowId: string,
    watermarkValue: string,
    options?: UpdateWatermarkOptions,
  ): Promise<void>;

  /**
   * The complete scope, active and inactive. Override when the backend returns it more cheaply
   * (one snapshot request); must not call public methods.
   */
  protected _bulkLoad(): Awaitable<BulkLoadResult> {
    return this.loadThroughFetchHooks();
  }

  /**
   * Hints for every distinct source table read by a dataflow whose connection uses hints. Override
   * when the backend returns all hint groups at once.
   */
  protected _bulkFetchSchemaHints(scope: {
    connections: readonly Connection[];
    dataflows: readonly DataFlow[];
  }): Awaitable<SchemaHintGroup[]> {
    return this.fetchSchemaHintsPerSourceTable(scope.dataflows);
  }

  private async loadThroughFetchHooks(): Promise<BulkLoadResult> {
    const connections = await this._fetchConnections({ activeOnly: false });
    const dataflows = await this._fetchDataflows({ stages: null, activeOnly: false });
    const schemaHints = await this._bulkFetchSchemaHints({ connections, dataflows });
    return { connections, dataflows, schemaHints };
  }

  private async fetchSchemaHintsPerSourceTable(dataflows: readonly DataFlow[]): Promise<SchemaHintGroup[]> {
    const groups: SchemaHintGroup[] = [];
    const seen = new Set<string>();
    for (const dataflow of dataflows) {
      const source = schemaHintSource(dataflow);
      if (source === null) continue;
      const key = normalizeSchemaHintKey(source.connectionId, source.table, source.schema);
      const id = schemaHintKeyId(key);
      if (seen.has(id)) continue;
      seen.add(id);
      const hints = await this._fetchSchemaHints(key.connection_id, key.table_name, key.schema_name);
      if (hints.length > 0) groups.push({ ...key, hints });
    }
    return groups;
  }

  /**
   * Whether `_bulkLoad` returns objects built for this load that nothing else holds (parsed from a
   * response, say): the snapshot then keeps them as they are instead of publishing a copy. The
   * default (false) suits backends that keep their own models, like an in-memory document.
   */
  protected _bulkLoadIsPrivate(): boolean {
    return false;
  }

  /** Prepare clients, engines or deferred locations. Must not publish readiness or call public getters. */
  protected _initializeMetadata(): Awaitable<void> {}

  /** Release what a failed start created. Its errors are swallowed (debug-logged). */
  protected _cleanupFailedInitialization(): Awaitable<void> {}

  /** Consume the startup context; the default rejects `metadata_base_path` and ignores the rest. */
  protected _configureContext(context: MetadataProviderStartupContext): Awaitable<void> {
    if (context.metadataBasePath !== null) {
      throw new ConfigurationError(`${this.className} does not support metadata_base_path`);
    }
  }

  /** Release only the resources the provider created (never injected ones). */
  protected _closeResources(): Awaitable<void> {}
}
