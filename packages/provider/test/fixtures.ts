// The §7.0 fixtures of the conformance suite: model builders and the in-memory StubProvider subclass
// of BaseMetadataProvider (with the two variants the reference uses: a raw connection list, and a
// `_bulkFetchSchemaHints` override that returns whole hint groups).
import { expect } from '@jest/globals';
import {
  BaseMetadataProvider,
  InMemoryWatermarkStore,
  createConnection,
  createDataflow,
  createSchemaHint,
  normalizeSchemaHintGroups,
  selectSchemaHints,
  type Awaitable,
  type BaseMetadataProviderOptions,
  type Connection,
  type DataFlow,
  type FetchConnectionsOptions,
  type FetchDataflowsOptions,
  type SchemaHint,
  type SchemaHintGroup,
  type UpdateWatermarkOptions,
} from '../src/index.js';

/** A file/parquet connection. */
export function conn(name = 'conn_a', id = 'c-1', extra: Record<string, unknown> = {}): Connection {
  return createConnection({ name, connection_id: id, connection_type: 'file', format: 'parquet', ...extra });
}

/** A lakehouse connection of the given format (delta or iceberg). */
export function lakehouse(
  name: string,
  id: string,
  format = 'delta',
  extra: Record<string, unknown> = {},
): Connection {
  return createConnection({ name, connection_id: id, connection_type: 'lakehouse', format, ...extra });
}

export interface FlowOptions {
  id?: string;
  name?: string;
  connection?: Connection;
  destination?: Connection;
  transform?: Record<string, unknown>;
  source?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** A dataflow reading `src` and writing `dest`, through one connection unless `destination` is given. */
export function flow({
  id = 'df-1',
  name = 'my_df',
  connection = conn(),
  destination = connection,
  transform = {},
  source = {},
  extra = {},
}: FlowOptions = {}): DataFlow {
  return createDataflow({
    dataflow_id: id,
    name,
    source: { connection, table: 'src', ...source },
    destination: { connection: destination, table: 'dest' },
    transform,
    ...extra,
  });
}

export function hint(column: string, type = 'INT', ordinal: number | null = 0): SchemaHint {
  return createSchemaHint({ column_name: column, data_type: type, ordinal_position: ordinal });
}

export function hintGroup(
  connectionId: string,
  schema: string | null,
  table: string,
  hints: SchemaHint[],
): SchemaHintGroup {
  return { connection_id: connectionId, schema_name: schema, table_name: table, hints };
}

export interface StubVariant {
  /** `_fetchConnections` returns the explicit list only (no inline connections merged in). */
  rawConnections?: boolean;
}

/** The §7.0 StubProvider. */
export class StubProvider extends BaseMetadataProvider {
  connections: Connection[] = [];
  dataflows: DataFlow[] = [];
  hintsByTable: Record<string, SchemaHint[]> = {};
  /** When set, `_bulkFetchSchemaHints` returns these groups and `_fetchSchemaHints` selects from them. */
  hintGroups: SchemaHintGroup[] | null = null;
  readonly watermarks = new InMemoryWatermarkStore();
  readonly fetchCounts: Record<string, number> = {};
  private readonly rawConnections: boolean;

  constructor(options: BaseMetadataProviderOptions = {}, variant: StubVariant = {}) {
    super(options);
    this.rawConnections = variant.rawConnections ?? false;
  }

  private count(hook: string): void {
    this.fetchCounts[hook] = (this.fetchCounts[hook] ?? 0) + 1;
  }

  protected _fetchConnections({ activeOnly }: FetchConnectionsOptions): Connection[] {
    this.count('connections');
    const result = [...this.connections];
    if (!this.rawConnections) {
      const known = new Set(result.map((connection) => connection.connection_id));
      for (const dataflow of this.dataflows) {
        for (const connection of [dataflow.source.connection, dataflow.destination.connection]) {
          if (!known.has(connection.connection_id)) {
            known.add(connection.connection_id);
            result.push(connection);
          }
        }
      }
    }
    return result.filter((connection) => !activeOnly || connection.is_active);
  }

  protected _fetchConnectionById(connectionId: string): Connection | null {
    this.count('connection_by_id');
    return this.connections.find((connection) => connection.connection_id === connectionId) ?? null;
  }

  protected _fetchConnectionByName(name: string): Connection | null {
    this.count('connection_by_name');
    return this.connections.find((connection) => connection.name === name) ?? null;
  }

  protected _fetchDataflows({ stages, activeOnly }: FetchDataflowsOptions): DataFlow[] {
    this.count('dataflows');
    return this.dataflows.filter(
      (dataflow) =>
        (!activeOnly || dataflow.is_active) && (stages === null || stages.includes(dataflow.stage as string)),
    );
  }

  protected _fetchDataflowById(dataflowId: string): DataFlow | null {
    this.count('dataflow_by_id');
    return this.dataflows.find((dataflow) => dataflow.dataflow_id === dataflowId) ?? null;
  }

  protected _fetchSchemaHints(
    connectionId: string,
    tableName: string,
    schemaName: string | null,
  ): SchemaHint[] {
    this.count('schema_hints');
    if (this.hintGroups === null) return this.hintsByTable[tableName] ?? [];
    const groups = normalizeSchemaHintGroups(structuredClone(this.hintGroups));
    return selectSchemaHints(groups, connectionId, tableName, schemaName) ?? [];
  }

  protected override _bulkFetchSchemaHints(scope: {
    connections: readonly Connection[];
    dataflows: readonly DataFlow[];
  }): Awaitable<SchemaHintGroup[]> {
    if (this.hintGroups !== null) return this.hintGroups;
    return super._bulkFetchSchemaHints(scope);
  }

  async getWatermark(dataflowId: string): Promise<string | null> {
    return this._runtimeOperation(() => this.watermarks.read(dataflowId));
  }

  async updateWatermark(
    dataflowId: string,
    watermarkValue: string,
    _options?: UpdateWatermarkOptions,
  ): Promise<void> {
    await this._runtimeOperation(() => this.watermarks.write(dataflowId, watermarkValue));
  }
}

/** The message of the error `build` throws, which must be an instance of `type`. */
export function thrownMessage(build: () => unknown, type: abstract new (...args: never[]) => Error): string {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return (error as Error).message;
  }
  throw new Error('expected an error, but nothing was thrown');
}
