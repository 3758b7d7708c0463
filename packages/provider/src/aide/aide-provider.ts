// `AideMetadataProvider`: the metadata-provider contract over the AIDE registry (reference §8.8). The
// bulk load is one snapshot request (a few with cursor pages for very large workspaces), revalidated
// with If-None-Match after `clearCache()`; the fetch hooks (cache off) are DataCoolie's own REST routes;
// watermarks are read and written through the registry, never parsed.
import {
  type DataCoolieConnection,
  type DataCoolieDataflow,
  type DataCoolieSnapshotPage,
  SNAPSHOT_MAX_PAGE_SIZE,
} from '@aide/schemas';
import {
  type Connection,
  createConnection,
  createDataflow,
  createSchemaHint,
  type DataFlow,
  MetadataError,
  type SchemaHint,
  WatermarkError,
} from '@aide/schemas/datacoolie';
import { AideApiError, AideClient, type AideClientBaseOptions, AideError, NotFoundError } from '@aide/sdk';
import {
  BaseMetadataProvider,
  type BaseMetadataProviderOptions,
  type BulkLoadResult,
  type FetchConnectionsOptions,
  type FetchDataflowsOptions,
  type UpdateWatermarkOptions,
} from '../base-provider.js';
import { normalizeSchemaHintGroups, selectSchemaHints } from '../schema-hints.js';
import { snapshotModels } from './snapshot-models.js';

/** How the provider reaches the registry: a client the caller owns, or credentials for its own. */
export type AideRegistryAccess =
  | { client: AideClient }
  | ({ baseUrl: string } & ({ apiKey: string } | { token: string } | { username: string; password: string }) &
      Pick<AideClientBaseOptions, 'timeoutMs' | 'maxRetries' | 'userAgent' | 'dispatcher'>);

export type AideMetadataProviderOptions = BaseMetadataProviderOptions &
  AideRegistryAccess & {
    /** The workspace: its id or its code (DataCoolie's `workspace_id`). */
    workspace: string;
    /** Snapshot items per request, 100..25,000 (default 25,000: one request for most workspaces). */
    snapshotPageSize?: number;
  };

/** DataCoolie's page size for its listings (the Python client asks for 200). */
const PAGE_SIZE = 200;
/** DataCoolie's page cap (reference §6.3). */
const MAX_PAGES = 1000;

const ACCESS_KEYS = [
  'client',
  'baseUrl',
  'apiKey',
  'token',
  'username',
  'password',
  'timeoutMs',
  'maxRetries',
  'userAgent',
  'dispatcher',
  'workspace',
  'snapshotPageSize',
];

/** A registry failure as DataCoolie's APIProvider reports it (reference §6.3): `MetadataError`. */
function metadataError(error: unknown): unknown {
  if (error instanceof AideApiError) {
    return new MetadataError(
      `API request failed: ${error.route ?? 'request'} → ${error.status}`,
      {
        status_code: error.status,
        error_code: error.errorCode,
      },
      { cause: error },
    );
  }
  if (error instanceof AideError) {
    return new MetadataError(`API request error: ${error.message}`, {}, { cause: error });
  }
  return error;
}

/** A workspace's complete DataCoolie scope at one revision, as models. */
export interface WorkspaceSnapshot {
  revision: string;
  models: BulkLoadResult;
  /** Connection id → its description, for connections that have one (DataCoolie's models drop it). */
  descriptions: Map<string, string>;
}

/**
 * Reads a workspace's snapshot: the first page, then its cursor pages (all of one revision), mapped to
 * models. `undefined` when `ifNoneMatch` names the current revision (304). Failures are MetadataErrors.
 */
export async function readWorkspaceSnapshot(
  client: AideClient,
  workspace: string,
  {
    pageSize = SNAPSHOT_MAX_PAGE_SIZE,
    ifNoneMatch,
  }: { pageSize?: number; ifNoneMatch?: string | undefined } = {},
): Promise<WorkspaceSnapshot | undefined> {
  try {
    let page = await client.datacoolie.snapshotPage(workspace, { pageSize, ifNoneMatch });
    if (page === undefined) return undefined;
    const pages: DataCoolieSnapshotPage[] = [page];
    while (page.next_cursor !== null) {
      page = (await client.datacoolie.snapshotPage(workspace, { cursor: page.next_cursor }))!;
      pages.push(page);
    }
    const models = snapshotModels({
      connections: pages.flatMap((p) => p.connections),
      dataflows: pages.flatMap((p) => p.dataflows),
      schema_hints: pages.flatMap((p) => p.schema_hints),
      hint_fields: pages[0]!.hint_fields,
    });
    const descriptions = new Map<string, string>();
    for (const connection of pages.flatMap((p) => p.connections)) {
      if (typeof connection.description === 'string')
        descriptions.set(connection.connection_id, connection.description);
    }
    return { revision: pages[0]!.revision, models, descriptions };
  } catch (error) {
    throw metadataError(error);
  }
}

export class AideMetadataProvider extends BaseMetadataProvider {
  readonly workspace: string;
  private readonly access: AideRegistryAccess;
  private readonly snapshotPageSize: number;
  /** The client in use: the injected one, or one this provider created (and closes). */
  private client: AideClient | null = null;
  private ownsClient = false;
  /** The last bulk load and its revision: a 304 on revalidation reuses it. */
  private last: { revision: string; models: BulkLoadResult } | null = null;

  constructor(options: AideMetadataProviderOptions) {
    const base: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) if (!ACCESS_KEYS.includes(key)) base[key] = value;
    super(base);
    const { workspace, snapshotPageSize = SNAPSHOT_MAX_PAGE_SIZE } = options;
    if (typeof workspace !== 'string' || workspace.trim() === '') {
      throw new TypeError('AideMetadataProvider needs a workspace (its id or code)');
    }
    if (
      !Number.isInteger(snapshotPageSize) ||
      snapshotPageSize < 100 ||
      snapshotPageSize > SNAPSHOT_MAX_PAGE_SIZE
    ) {
      throw new RangeError(`snapshotPageSize must be an integer from 100 to ${SNAPSHOT_MAX_PAGE_SIZE}`);
    }
    if (!('client' in options) && !('baseUrl' in options)) {
      throw new TypeError('AideMetadataProvider needs a client, or a baseUrl with credentials');
    }
    this.workspace = workspace;
    this.snapshotPageSize = snapshotPageSize;
    this.access = options;
    // Construction only records configuration: the client is made on first use.
  }

  /** The client, created on first use when the provider owns it (lock-free: also used by workers). */
  private registry(): AideClient {
    this._ensureOpen();
    if (this.client) return this.client;
    const access = this.access;
    if ('client' in access) {
      this.client = access.client;
      return this.client;
    }
    const { baseUrl, timeoutMs, maxRetries, userAgent, dispatcher } = access;
    const common = { baseUrl, timeoutMs, maxRetries, userAgent, dispatcher, validateResponses: false };
    this.client =
      'username' in access
        ? new AideClient({ ...common, username: access.username, password: access.password })
        : new AideClient({ ...common, token: 'apiKey' in access ? access.apiKey : access.token });
    this.ownsClient = true;
    return this.client;
  }

  private async releaseClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (this.ownsClient && client) await client.close();
    this.ownsClient = false;
  }

  protected override _initializeMetadata(): void {
    this.registry();
  }

  protected override async _cleanupFailedInitialization(): Promise<void> {
    await this.releaseClient();
  }

  protected override async _closeResources(): Promise<void> {
    this.last = null;
    await this.releaseClient();
  }

  /** Models are built from each response and held by nobody else: published without a copy. */
  protected override _bulkLoadIsPrivate(): boolean {
    return true;
  }

  /**
   * One snapshot request (cursor pages past `snapshotPageSize` items, all of one revision); after
   * `clearCache()` the request names the revision held, and a 304 reuses its models.
   */
  protected override async _bulkLoad(): Promise<BulkLoadResult> {
    const read = await readWorkspaceSnapshot(this.registry(), this.workspace, {
      pageSize: this.snapshotPageSize,
      ifNoneMatch: this.last?.revision,
    });
    if (read === undefined) {
      if (this.last === null) throw new MetadataError('Snapshot answered "not modified" to no revision');
      return this.last.models;
    }
    this.last = read;
    return read.models;
  }

  /** Every page of a DataCoolie listing (the first tells how many there are; the rest in parallel). */
  private async allPages<T>(
    fetch: (page: number) => Promise<{ data: T[]; pagination: { total_pages: number } }>,
  ): Promise<T[]> {
    try {
      const first = await fetch(1);
      const last = Math.min(first.pagination.total_pages, MAX_PAGES);
      const rest = await Promise.all(Array.from({ length: Math.max(0, last - 1) }, (_, i) => fetch(i + 2)));
      return [first, ...rest].flatMap((p) => p.data);
    } catch (error) {
      throw metadataError(error);
    }
  }

  /** null for a 404 (the reference's "not found"); other failures are MetadataErrors. */
  private async one<T>(fetch: () => Promise<T>): Promise<T | null> {
    try {
      return await fetch();
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw metadataError(error);
    }
  }

  protected async _fetchConnections({ activeOnly }: FetchConnectionsOptions): Promise<Connection[]> {
    const client = this.registry();
    const items = await this.allPages((page) =>
      client.datacoolie.connections(this.workspace, {
        page: String(page),
        page_size: String(PAGE_SIZE),
        ...(activeOnly ? { active_only: 'true' as const } : {}),
      }),
    );
    return items.map((item: DataCoolieConnection) => createConnection(item));
  }

  protected async _fetchConnectionById(connectionId: string): Promise<Connection | null> {
    const client = this.registry();
    const item = await this.one(() => client.datacoolie.connection(this.workspace, connectionId));
    return item === null ? null : createConnection(item);
  }

  protected async _fetchConnectionByName(name: string): Promise<Connection | null> {
    const client = this.registry();
    const items = await this.allPages((page) =>
      client.datacoolie.connections(this.workspace, {
        page: String(page),
        page_size: String(PAGE_SIZE),
        name,
      }),
    );
    if (items.length > 1) throw new MetadataError(`Connection name is ambiguous: ${name}; use connection_id`);
    return items[0] === undefined ? null : createConnection(items[0]);
  }

  protected async _fetchDataflows({ stages, activeOnly }: FetchDataflowsOptions): Promise<DataFlow[]> {
    const client = this.registry();
    const items = await this.allPages((page) =>
      client.datacoolie.dataflows(this.workspace, {
        page: String(page),
        page_size: String(PAGE_SIZE),
        ...(stages !== null ? { stage: stages.join(',') } : {}),
        ...(activeOnly ? { active_only: 'true' as const } : {}),
      }),
    );
    return items.map((item: DataCoolieDataflow) => createDataflow(item));
  }

  protected async _fetchDataflowById(dataflowId: string): Promise<DataFlow | null> {
    const client = this.registry();
    const item = await this.one(() => client.datacoolie.dataflow(this.workspace, dataflowId));
    return item === null ? null : createDataflow(item);
  }

  protected async _fetchSchemaHints(
    connectionId: string,
    tableName: string,
    schemaName: string | null,
  ): Promise<SchemaHint[]> {
    const client = this.registry();
    const rows = await this.allPages((page) =>
      client.datacoolie.schemaHints(this.workspace, {
        page: String(page),
        page_size: String(PAGE_SIZE),
        connection_id: connectionId,
        table_name: tableName,
        ...(schemaName !== null ? { schema_name: schemaName } : {}),
      }),
    );
    const groups = new Map<
      string,
      { connection_id: string; schema_name: string | null; table_name: string; hints: SchemaHint[] }
    >();
    for (const row of rows) {
      const { connection_id, schema_name, table_name, ...hint } = row;
      const key = JSON.stringify([connection_id, schema_name, table_name]);
      const group = groups.get(key) ?? { connection_id, schema_name, table_name, hints: [] };
      group.hints.push(createSchemaHint(hint));
      groups.set(key, group);
    }
    return (
      selectSchemaHints(
        normalizeSchemaHintGroups([...groups.values()]),
        connectionId,
        tableName,
        schemaName,
      ) ?? []
    );
  }

  /** The stored text, untouched; null when never written (or blank); failures are WatermarkErrors. */
  async getWatermark(dataflowId: string): Promise<string | null> {
    return this._runtimeOperation(async () => {
      const client = this.registry();
      let value: string | null;
      try {
        value = (await client.datacoolie.watermark(this.workspace, dataflowId)).current_value;
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        throw new WatermarkError(`Failed to read watermark for dataflow ${dataflowId}`, {}, { cause: error });
      }
      return value === null || value.trim() === '' ? null : value;
    });
  }

  /** Stores the text verbatim; job and run ids are provenance only. */
  async updateWatermark(
    dataflowId: string,
    watermarkValue: string,
    options: UpdateWatermarkOptions = {},
  ): Promise<void> {
    await this._runtimeOperation(async () => {
      const client = this.registry();
      try {
        if (typeof watermarkValue !== 'string') throw new TypeError('watermark_value must be a string');
        await client.datacoolie.putWatermark(this.workspace, dataflowId, {
          current_value: watermarkValue,
          ...(options.jobId !== null && options.jobId !== undefined ? { job_id: options.jobId } : {}),
          ...(options.dataflowRunId !== null && options.dataflowRunId !== undefined
            ? { dataflow_run_id: options.dataflowRunId }
            : {}),
        });
      } catch (error) {
        throw new WatermarkError(
          `Failed to update watermark for dataflow ${dataflowId}`,
          {},
          { cause: error },
        );
      }
    });
  }
}
