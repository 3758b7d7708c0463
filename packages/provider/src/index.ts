// `@aide/provider`: the DataCoolie metadata-provider contract (docs/provider.md).
export {
  BaseMetadataProvider,
  normaliseStages,
  RECURSIVE_INITIALIZATION_MESSAGE,
  REQUIRED_PROVIDER_METHODS,
  type Awaitable,
  type BaseMetadataProviderOptions,
  type BulkLoadResult,
  type FetchConnectionsOptions,
  type FetchDataflowsOptions,
  type GetConnectionsOptions,
  type GetDataflowByIdOptions,
  type GetDataflowsOptions,
  type GetMaintenanceDataflowsOptions,
  type StageFilter,
  type UpdateWatermarkOptions,
} from './base-provider.js';
export { MetadataCache } from './cache.js';
// The models, enums, coercions and errors live in @aide/schemas (the registry validates with them too).
export {
  casefold,
  convertToBool,
  ensureList,
  isUsableIdentifier,
  nameToUuid,
  parseJsonObject,
  type JsonObject,
  // constants
  CONNECTION_TYPE_FORMATS,
  CONNECTION_TYPES,
  DATABASE_AUTH_TYPES,
  DATABASE_TYPES,
  DATAFLOW_STATUSES,
  DATE_FOLDER_PARTITION_KEY,
  EXECUTION_TYPES,
  FORMATS,
  LAKEHOUSE_FORMATS,
  LOAD_TYPES,
  NAME_UUID_NAMESPACE,
  PROCESSING_MODES,
  TYPE_SYSTEM_ALIASES,
  TYPE_SYSTEMS,
  WATERMARK_FILE_NAME,
  WATERMARK_TAG_BINARY,
  WATERMARK_TAG_DATE,
  WATERMARK_TAG_DATETIME,
  WATERMARK_TAG_DECIMAL,
  WATERMARK_TAG_TIME,
  WATERMARK_TAGS,
  type ConnectionType,
  type DatabaseAuthType,
  type DatabaseType,
  type DataFlowStatus,
  type ExecutionType,
  type Format,
  type LoadType,
  type ProcessingMode,
  type TypeSystem,
  // errors
  ConfigurationError,
  DataCoolieError,
  MetadataError,
  ProviderStateError,
  WatermarkError,
  type ErrorDetails,
  // models
  classifySourceQuery,
  createConnection,
  createDataflow,
  createDestination,
  createPartitionColumn,
  createSchemaHint,
  createSource,
  createTransform,
  dateBackward,
  refreshFromConfigure,
  replacesByWatermark,
  sourceDateBackward,
  usesSchemaHint,
  type AdditionalColumn,
  type Connection,
  type ConnectionInput,
  type DataFlow,
  type DataFlowInput,
  type Destination,
  type HashColumn,
  type MaskingRule,
  type PartitionColumn,
  type SchemaHint,
  type SchemaHintInput,
  type Source,
  type SourceQueryKind,
  type Transform,
  type ValueRule,
} from '@aide/schemas/datacoolie';
export {
  connectionDescriptions,
  loadMetadataDocument,
  loadMetadataDocuments,
  parseMetadataText,
  readMetadataFile,
  type LoadedMetadata,
  type MetadataDocumentFormat,
  type MetadataDocumentSource,
} from './document.js';
export {
  InMemoryMetadataProvider,
  type InMemoryMetadataProviderOptions,
  type InMemoryMetadataSource,
} from './in-memory-provider.js';
export {
  AideMetadataProvider,
  type AideMetadataProviderOptions,
  type AideRegistryAccess,
} from './aide/aide-provider.js';
export { snapshotModels, type SnapshotScope } from './aide/snapshot-models.js';
export { exportWorkspaceDocument, type DataCoolieDocument } from './aide/document-export.js';
export {
  importRequestOf,
  importWorkspaceDocuments,
  sendImportRequest,
  snapshotDataflow,
  type ImportOutcome,
  type ImportRequestOptions,
} from './aide/import-request.js';
export { AsyncReentrantLock } from './lock.js';
export {
  groupSchemaHintRows,
  normalizeSchemaHintGroups,
  normalizeSchemaHintKey,
  schemaHintKeyId,
  selectSchemaHints,
  sortSchemaHints,
  type SchemaHintGroup,
  type SchemaHintGroups,
  type SchemaHintKey,
} from './schema-hints.js';
export {
  normalizePath,
  normalizeSqlRoots,
  publicSqlBasePath,
  type SqlBasePath,
  type SqlRoot,
} from './sql-roots.js';
export { MetadataProviderStartupContext, type StartupContextInit } from './startup-context.js';
export { validateInitializedScope } from './validation.js';
export { InMemoryWatermarkStore } from './watermark/memory-store.js';
export { WatermarkManager, type WatermarkStore } from './watermark/manager.js';
export { deserializeWatermark, isWatermarkEmpty, serializeWatermark } from './watermark/serializer.js';
export {
  WatermarkDate,
  WatermarkDateTime,
  WatermarkDecimal,
  WatermarkTime,
  type Watermark,
  type WatermarkValue,
} from './watermark/values.js';
