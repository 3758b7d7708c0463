// `@aide/sdk/provider`: the DataCoolie metadata-provider contract (docs/provider.md).
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
export {
  casefold,
  convertToBool,
  ensureList,
  isUsableIdentifier,
  nameToUuid,
  parseJsonObject,
  type JsonObject,
} from './coerce.js';
export * from './constants.js';
export {
  loadMetadataDocument,
  loadMetadataDocuments,
  parseMetadataText,
  readMetadataFile,
  type LoadedMetadata,
  type MetadataDocumentFormat,
  type MetadataDocumentSource,
} from './document.js';
export {
  ConfigurationError,
  DataCoolieError,
  MetadataError,
  ProviderStateError,
  WatermarkError,
  type ErrorDetails,
} from './errors.js';
export {
  InMemoryMetadataProvider,
  type InMemoryMetadataProviderOptions,
  type InMemoryMetadataSource,
} from './in-memory-provider.js';
export { AsyncReentrantLock } from './lock.js';
export * from './models/index.js';
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
