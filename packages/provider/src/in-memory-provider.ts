// `InMemoryMetadataProvider`: the provider contract over metadata held in memory — DataCoolie
// documents (parsed mappings, or JSON/YAML files read at startup) or model arrays — with watermarks
// kept in memory. For tests and local runs without a server.
import {
  BaseMetadataProvider,
  type BaseMetadataProviderOptions,
  type FetchConnectionsOptions,
  type FetchDataflowsOptions,
  type UpdateWatermarkOptions,
} from './base-provider.js';
import {
  loadMetadataDocuments,
  readMetadataFile,
  type LoadedMetadata,
  type MetadataDocumentSource,
} from './document.js';
import {
  MetadataError,
  WatermarkError,
  type Connection,
  type DataFlow,
  type SchemaHint,
} from '@aide/schemas/datacoolie';
import { InMemoryWatermarkStore } from './watermark/memory-store.js';
import { normalizeSchemaHintGroups, selectSchemaHints, type SchemaHintGroup } from './schema-hints.js';

/** Where the metadata comes from; exactly one kind per provider. */
export interface InMemoryMetadataSource {
  /** A parsed DataCoolie document (a mapping with connections / dataflows / schema_hints). */
  document?: unknown;
  /** Several parsed documents; their sections are concatenated in order. */
  documents?: readonly MetadataDocumentSource[];
  /** `.json` / `.yaml` / `.yml` documents, read at initialization (and re-read after a failed start). */
  files?: readonly string[];
  /** Models (see createConnection / createDataflow), used as given. */
  connections?: readonly Connection[];
  dataflows?: readonly DataFlow[];
  schemaHints?: readonly SchemaHintGroup[];
}

export interface InMemoryMetadataProviderOptions extends BaseMetadataProviderOptions, InMemoryMetadataSource {
  /** Initial watermark texts by dataflow id. */
  watermarks?: Readonly<Record<string, string>>;
}

const SOURCE_KEYS = ['document', 'documents', 'files', 'connections', 'dataflows', 'schemaHints'] as const;

function checkSource(source: InMemoryMetadataSource): InMemoryMetadataSource {
  const kinds = [
    source.document !== undefined,
    source.documents !== undefined,
    source.files !== undefined,
    source.connections !== undefined || source.dataflows !== undefined || source.schemaHints !== undefined,
  ].filter(Boolean).length;
  if (kinds > 1) {
    throw new TypeError('Give the metadata as one of: document, documents, files, or model arrays');
  }
  return { ...source };
}

export class InMemoryMetadataProvider extends BaseMetadataProvider {
  private source: InMemoryMetadataSource;
  private parsedFiles: MetadataDocumentSource[] | null = null;
  private scope: LoadedMetadata | null = null;
  private normalizedHints: ReturnType<typeof normalizeSchemaHintGroups> | null = null;
  private readonly watermarks: InMemoryWatermarkStore;

  constructor(options: InMemoryMetadataProviderOptions = {}) {
    const { watermarks = {}, ...rest } = options;
    const source: InMemoryMetadataSource = {};
    const base: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest)) {
      if ((SOURCE_KEYS as readonly string[]).includes(key)) (source as Record<string, unknown>)[key] = value;
      else base[key] = value;
    }
    super(base);
    this.source = checkSource(source);
    this.watermarks = new InMemoryWatermarkStore(watermarks);
  }

  /**
   * Replaces the metadata. With caching on (the default) the snapshot stays until `clearCache()`,
   * like a changed document on disk; with caching off the next read sees it.
   */
  setMetadata(source: InMemoryMetadataSource): void {
    this._ensureOpen();
    this.source = checkSource(source);
    this.forget();
  }

  private forget(): void {
    this.scope = null;
    this.normalizedHints = null;
    this.parsedFiles = null;
  }

  protected override async _initializeMetadata(): Promise<void> {
    this.scope = await this.loadScope();
    this.normalizedHints = null;
  }

  private async loadScope(): Promise<LoadedMetadata> {
    const { document, documents, files } = this.source;
    if (document !== undefined) return loadMetadataDocuments([{ document }]);
    if (documents !== undefined) return loadMetadataDocuments(documents);
    if (files !== undefined) {
      if (files.length === 0) throw new MetadataError('No supported metadata files found');
      this.parsedFiles ??= await Promise.all(files.map((path) => readMetadataFile(path)));
      return loadMetadataDocuments(this.parsedFiles);
    }
    return structuredClone({
      connections: [...(this.source.connections ?? [])],
      dataflows: [...(this.source.dataflows ?? [])],
      schemaHints: [...(this.source.schemaHints ?? [])],
    });
  }

  protected override _cleanupFailedInitialization(): void {
    this.forget();
  }

  protected override _closeResources(): void {
    this.forget();
    this.watermarks.clear();
  }

  /** The models of the current metadata (loaded again after `setMetadata`). */
  private async loaded(): Promise<LoadedMetadata> {
    this._ensureOpen();
    this.scope ??= await this.loadScope();
    return this.scope;
  }

  protected override async _bulkFetchSchemaHints(): Promise<SchemaHintGroup[]> {
    // Every hint group in scope, not only those of the dataflows' source tables.
    return (await this.loaded()).schemaHints;
  }

  protected async _fetchConnections({ activeOnly }: FetchConnectionsOptions): Promise<Connection[]> {
    return (await this.loaded()).connections.filter((connection) => !activeOnly || connection.is_active);
  }

  protected async _fetchConnectionById(connectionId: string): Promise<Connection | null> {
    return (
      (await this.loaded()).connections.find((connection) => connection.connection_id === connectionId) ??
      null
    );
  }

  protected async _fetchConnectionByName(name: string): Promise<Connection | null> {
    const named = (await this.loaded()).connections.filter((connection) => connection.name === name);
    if (named.length > 1) throw new MetadataError(`Connection name is ambiguous: ${name}; use connection_id`);
    return named[0] ?? null;
  }

  protected async _fetchDataflows({ stages, activeOnly }: FetchDataflowsOptions): Promise<DataFlow[]> {
    return (await this.loaded()).dataflows.filter(
      (dataflow) =>
        (!activeOnly || dataflow.is_active) && (stages === null || stages.includes(dataflow.stage as string)),
    );
  }

  protected async _fetchDataflowById(dataflowId: string): Promise<DataFlow | null> {
    return (await this.loaded()).dataflows.find((dataflow) => dataflow.dataflow_id === dataflowId) ?? null;
  }

  protected async _fetchSchemaHints(
    connectionId: string,
    tableName: string,
    schemaName: string | null,
  ): Promise<SchemaHint[]> {
    this.normalizedHints ??= normalizeSchemaHintGroups(structuredClone((await this.loaded()).schemaHints));
    return selectSchemaHints(this.normalizedHints, connectionId, tableName, schemaName) ?? [];
  }

  async getWatermark(dataflowId: string): Promise<string | null> {
    return this._runtimeOperation(() => this.watermarks.read(dataflowId));
  }

  async updateWatermark(
    dataflowId: string,
    watermarkValue: string,
    _options?: UpdateWatermarkOptions,
  ): Promise<void> {
    await this._runtimeOperation(() => {
      if (typeof watermarkValue !== 'string') {
        throw new WatermarkError(`Failed to update watermark for dataflow ${dataflowId}`, {
          reason: 'watermark_value must be a string',
        });
      }
      // Provenance (job and run ids) does not change the stored text; memory keeps only the text.
      this.watermarks.write(dataflowId, watermarkValue);
    });
  }
}
