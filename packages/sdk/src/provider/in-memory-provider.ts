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
import { MetadataError, WatermarkError } from './errors.js';
import type { Connection } from './models/connection.js';
import type { DataFlow } from './models/dataflow.js';
import type { SchemaHint } from './models/schema-hint.js';
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
   * Replaces the metadata. Like a changed document on disk, it takes effect at the next
   * initialization: call `clearCache()` on an initialized provider.
   */
  setMetadata(source: InMemoryMetadataSource): void {
    this._ensureOpen();
    this.source = checkSource(source);
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
    this.scope = null;
    this.normalizedHints = null;
    this.parsedFiles = null;
  }

  protected override _closeResources(): void {
    this.scope = null;
    this.normalizedHints = null;
    this.parsedFiles = null;
    this.watermarks.clear();
  }

  private loaded(): LoadedMetadata {
    this._ensureOpen();
    if (this.scope === null) throw new MetadataError(`${this.constructor.name} metadata is not loaded`);
    return this.scope;
  }

  protected override _bulkFetchSchemaHints(): SchemaHintGroup[] {
    // Every hint group in scope, not only those of the dataflows' source tables.
    return this.loaded().schemaHints;
  }

  protected _fetchConnections({ activeOnly }: FetchConnectionsOptions): Connection[] {
    return this.loaded().connections.filter((connection) => !activeOnly || connection.is_active);
  }

  protected _fetchConnectionById(connectionId: string): Connection | null {
    return this.loaded().connections.find((connection) => connection.connection_id === connectionId) ?? null;
  }

  protected _fetchConnectionByName(name: string): Connection | null {
    const named = this.loaded().connections.filter((connection) => connection.name === name);
    if (named.length > 1) throw new MetadataError(`Connection name is ambiguous: ${name}; use connection_id`);
    return named[0] ?? null;
  }

  protected _fetchDataflows({ stages, activeOnly }: FetchDataflowsOptions): DataFlow[] {
    return this.loaded().dataflows.filter(
      (dataflow) =>
        (!activeOnly || dataflow.is_active) && (stages === null || stages.includes(dataflow.stage as string)),
    );
  }

  protected _fetchDataflowById(dataflowId: string): DataFlow | null {
    return this.loaded().dataflows.find((dataflow) => dataflow.dataflow_id === dataflowId) ?? null;
  }

  protected _fetchSchemaHints(
    connectionId: string,
    tableName: string,
    schemaName: string | null,
  ): SchemaHint[] {
    this.normalizedHints ??= normalizeSchemaHintGroups(structuredClone(this.loaded().schemaHints));
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
