export {
  AideClient,
  AideClientCore,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type AideClientBaseOptions,
  type AideClientOptions,
  type AideClientPasswordOptions,
  type AideClientTokenOptions,
} from './client.js';
export {
  AideApiError,
  AideBatchError,
  AideConnectionError,
  AideContractError,
  AideError,
  AideTimeoutError,
  AideUserAbortError,
  AuthenticationError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
  type AideApiErrorInit,
} from './core/errors.js';
export { PagePromise, type KeysetPages, type Page } from './core/pagination.js';
export type { RequestOptions } from './core/request-options.js';
export type { Credentials } from './internal/auth.js';
export type { BatchChunk } from './internal/batch.js';
export type { QueryParams, QueryScalar, QueryValue } from './internal/query.js';
export { AuthResource } from './resources/auth.js';
export { CastRulesResource, type ResolveCastParams } from './resources/cast-rules.js';
export {
  CollectionResource,
  CrudResource,
  type BatchCreatable,
  type BatchResource,
  type CreateManyOptions,
  type CreateOf,
  type Deletable,
  type ListParams,
  type ReadOf,
  type ResourceCapabilities,
  type ResourceClient,
  type ResourceConstructor,
  type Restorable,
  type SoftDeleteResource,
  type Updatable,
  type UpdateOf,
  type UpdateOptions,
  type WithRowVersion,
} from './resources/crud.js';
export {
  DatasetsResource,
  type CreateDatasetOf,
  type DatasetOf,
  type TranslateOptions,
  type UpdateDatasetOf,
} from './resources/datasets.js';
export { DatasetLinksResource, type CompatParams } from './resources/dataset-links.js';
export { CompatibilityResource } from './resources/compatibility.js';
export { LineageResource, type LineageParams, type Whole } from './resources/lineage.js';
export {
  type DatasetRunParams,
  LineageJobsResource,
  type LineageJobParams,
  type LineageRunParams,
  LineageRunsResource,
} from './resources/lineage-runs.js';
export { LineageObservationsResource, type UnknownDatasetParams } from './resources/lineage-observations.js';
export { FieldClassificationsResource } from './resources/field-classifications.js';
export { FieldsResource } from './resources/fields.js';
export { SystemsResource, type SnapshotParams } from './resources/systems.js';
export type { BulkOptions } from './internal/bulk.js';
export { TechFieldTemplatesResource } from './resources/tech-field-templates.js';
export { TypeInstancesResource } from './resources/type-instances.js';
export { UsersResource } from './resources/users.js';
export { ApiKeysResource } from './resources/api-keys.js';
export { DataCoolieResource, type SnapshotPageParams } from './resources/datacoolie.js';
export { DataflowsResource } from './resources/dataflows.js';
export { VERSION } from './version.js';

// The wire types of the contract (`@aide/schemas`): entities as read, create and update bodies, enums
// and the error-code catalogue, so that application code imports them from the SDK it calls.
export type {
  CastRule,
  CastSafety,
  CrawlRun,
  CrawlStatus,
  CreateCastRule,
  CreateCrawlRun,
  CreateCredentialRef,
  CreateDataType,
  CreateDataset,
  CreateDatasetSchemaVersion,
  CreateDatasetLink,
  CreateEngine,
  CreateFieldLink,
  CreateLinkFieldLink,
  CreateField,
  CreateFieldBinding,
  CreateFieldClassification,
  CreateSystem,
  CreateSystemFlavor,
  CreateSystemKind,
  CreateTypeInstance,
  CreateUser,
  CredentialRef,
  DataType,
  Dataset,
  DatasetKind,
  DatasetLayer,
  DatasetLineageGraph,
  DatasetRun,
  LineageDatasetRef,
  LineageJob,
  LineageJobGraph,
  LineageJobVersion,
  LineageRun,
  LineageRunEvent,
  LineageRunState,
  DatasetLinkCompatReport,
  DatasetLinkCompatSummary,
  DatasetLink,
  DatasetSchemaVersion,
  Engine,
  EngineKind,
  ErrorCode,
  ErrorResponse,
  Field,
  FieldBinding,
  FieldClassification,
  PiiTagCatalogue,
  FieldLineageGraph,
  FieldLink,
  FieldTransformation,
  FieldOrigin,
  FieldTree,
  PublishColumn,
  PublishResult,
  PublishSchemaVersion,
  RenderedType,
  ResolveCastRequest,
  ResolveCastResult,
  ResourceDef,
  Role,
  SchemaVersion,
  SchemaVersionColumn,
  SchemaVersionDiff,
  SchemaVersionSummary,
  System,
  SystemDatasetCount,
  SystemFlavor,
  SystemKind,
  TokenPair,
  TypeInstance,
  TypeInstanceTree,
  TypeSpec,
  UpdateCastRule,
  UpdateCrawlRun,
  UpdateCredentialRef,
  UpdateDataType,
  UpdateDataset,
  UpdateDatasetLink,
  UpdateDatasetSchemaVersion,
  UpdateEngine,
  UpdateField,
  UpdateFieldBinding,
  UpdateFieldLink,
  UpdateMe,
  UpdateSystem,
  UpdateSystemFlavor,
  UpdateSystemKind,
  UpdateTypeInstance,
  UpdateUser,
  User,
  UserType,
  SearchHighlight,
  SearchFacetCount,
  SearchFacets,
  SearchKind,
  SearchPage,
  SearchParams,
  SearchResult,
} from '@aide/schemas';
