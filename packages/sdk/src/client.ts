import {
  castRuleResource,
  crawlRunResource,
  credentialRefResource,
  dataTypeResource,
  datasetResource,
  datasetSchemaResource,
  engineResource,
  datasetLinkResource,
  fieldLinkResource,
  fieldBindingResource,
  fieldClassificationResource,
  fieldResource,
  typeInstanceResource,
  systemFlavorResource,
  systemKindResource,
  systemResource,
  userResource,
  type CastRule,
  type CrawlRun,
  type CreateCastRule,
  type CreateCrawlRun,
  type CreateCredentialRef,
  type CreateDataType,
  type CreateDatasetSchemaVersion,
  type CreateEngine,
  type CreateFieldLink,
  type DatasetLink,
  type FieldLink,
  type UpdateFieldLink,
  type CreateField,
  type CreateFieldBinding,
  type CreateTypeInstance,
  type CreateSystem,
  type CreateSystemFlavor,
  type CreateSystemKind,
  type CredentialRef,
  type DataType,
  type Dataset,
  type DatasetSchemaVersion,
  type Engine,
  type Field,
  type FieldBinding,
  type ResourceDef,
  type System,
  type SystemFlavor,
  type SystemKind,
  type TypeInstance,
  type UpdateCrawlRun,
  type UpdateCredentialRef,
  type UpdateDataType,
  type UpdateDatasetSchemaVersion,
  type UpdateEngine,
  type UpdateFieldBinding,
  type UpdateSystemFlavor,
  type UpdateSystemKind,
  type SearchPage,
  type SearchParams,
  type SearchResult,
  techFieldTemplateResource,
  apiKeyResource,
  connectionProfileResource,
  dataflowResource,
  workspaceResource,
  type ConnectionProfile,
  type CreateConnectionProfile,
  type CreateWorkspace,
  type Dataflow,
  type UpdateConnectionProfile,
  type UpdateWorkspace,
  type Workspace,
} from '@aide/schemas';
import { Agent, type Dispatcher } from 'undici';
import type { PagePromise } from './core/pagination.js';
import type { RequestOptions } from './core/request-options.js';
import { ApiClient, DEFAULT_BODY_LIMIT_BYTES } from './internal/api.js';
import { TokenManager } from './internal/auth.js';
import { Transport } from './internal/transport.js';
import { AuthResource } from './resources/auth.js';
import { CastRulesResource } from './resources/cast-rules.js';
import {
  createResource,
  type BatchCreatable,
  type BatchResource,
  type CollectionResource,
  type CreateOf,
  type CrudResource,
  type ReadOf,
  capabilitiesOf,
  type CapabilitiesOf,
  type ResourceClient,
  type ResourceConstructor,
  type Restorable,
  type SoftDeleteResource,
  type Updatable,
} from './resources/crud.js';
import { DatasetLinksResource } from './resources/dataset-links.js';
import { DatasetsResource } from './resources/datasets.js';
import { CompatibilityResource } from './resources/compatibility.js';
import { LineageResource } from './resources/lineage.js';
import { LineageObservationsResource } from './resources/lineage-observations.js';
import { ApiKeysResource } from './resources/api-keys.js';
import { DataCoolieResource } from './resources/datacoolie.js';
import { DataflowsResource } from './resources/dataflows.js';
import { FieldClassificationsResource } from './resources/field-classifications.js';
import { FieldsResource } from './resources/fields.js';
import { SystemsResource } from './resources/systems.js';
import { TechFieldTemplatesResource } from './resources/tech-field-templates.js';
import { TypeInstancesResource } from './resources/type-instances.js';
import { search, searchWithFacets } from './resources/search.js';
import { UsersResource } from './resources/users.js';
import { VERSION } from './version.js';

/** Options shared by both ways of authenticating. */
export interface AideClientBaseOptions {
  /** Where the API is served, e.g. `http://localhost:8001` (a path prefix is kept). */
  baseUrl: string;
  /** Milliseconds for each attempt's complete response (default 30 000). */
  timeoutMs?: number | undefined;
  /** Retries of a retryable failure (default 2): see the README's "Retries". */
  maxRetries?: number | undefined;
  /** Your application's name and version, sent before the SDK's in `User-Agent`. */
  userAgent?: string | undefined;
  /**
   * An undici dispatcher (Agent, Pool, ProxyAgent, or one composed with interceptors). The caller owns
   * it: `close()` leaves it open. Default: the client's own Agent, closed by `close()`.
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * Send requests with this WHATWG `fetch` instead of undici (browsers: `fetch: globalThis.fetch.bind(globalThis)`).
   * No Agent is created; `dispatcher` is ignored.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Check every response against the `@aide/schemas` schemas (default true): a mismatch throws
   * `AideContractError` naming the route and the differences instead of handing out a wrong shape.
   */
  validateResponses?: boolean | undefined;
  /**
   * The server's largest request body, its `AIDE_BODY_LIMIT_BYTES` (default 1 MiB): `createMany`
   * keeps each request 5% below it.
   */
  bodyLimitBytes?: number | undefined;
}

/** Log in with a user's email and password; tokens are obtained and renewed automatically. */
export interface AideClientPasswordOptions extends AideClientBaseOptions {
  username: string;
  password: string;
  /** An access token to start with (e.g. persisted); renewed through the credentials when it expires. */
  token?: string | undefined;
}

/** Use a bearer token obtained elsewhere. Without credentials it cannot be renewed: a 401 surfaces. */
export interface AideClientTokenOptions extends AideClientBaseOptions {
  token: string;
  username?: undefined;
  password?: undefined;
}

export type AideClientOptions = AideClientPasswordOptions | AideClientTokenOptions;

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;

function checkOptions(options: AideClientOptions): void {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be http(s), got ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '')
    throw new TypeError('baseUrl must not have a query string or fragment');
  const { timeoutMs, maxRetries } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new TypeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new TypeError(`maxRetries must be a non-negative integer, got ${maxRetries}`);
  }
  const { bodyLimitBytes } = options;
  if (bodyLimitBytes !== undefined && !(Number.isInteger(bodyLimitBytes) && bodyLimitBytes >= 1024)) {
    throw new TypeError(`bodyLimitBytes must be an integer of at least 1024, got ${bodyLimitBytes}`);
  }
  const hasUser = options.username !== undefined;
  const hasPassword = options.password !== undefined;
  if (hasUser !== hasPassword) throw new TypeError('username and password must be given together');
  if (!hasUser && options.token === undefined) {
    throw new TypeError('Give either username and password, or a token');
  }
}

/**
 * The connection part of the client: transport, tokens, and the factory of resource clients.
 * `AideClient` adds the resources as properties.
 */
export class AideClientCore {
  protected readonly api: ApiClient;
  readonly #ownDispatcher: Agent | undefined;

  constructor(options: AideClientOptions) {
    checkOptions(options);
    let dispatcher = options.fetch ? undefined : options.dispatcher;
    if (!dispatcher && !options.fetch) {
      this.#ownDispatcher = new Agent({ keepAliveTimeout: 10_000 });
      dispatcher = this.#ownDispatcher;
    }
    const sdkAgent = `aide-sdk/${VERSION} node/${process.version}`;
    const transport = new Transport({
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      userAgent: options.userAgent ? `${options.userAgent} ${sdkAgent}` : sdkAgent,
      dispatcher,
      fetch: options.fetch,
    });
    const validate = options.validateResponses ?? true;
    const credentials =
      options.username !== undefined ? { username: options.username, password: options.password } : undefined;
    const tokens = new TokenManager(transport, { credentials, token: options.token, validate });
    this.api = new ApiClient(transport, tokens, validate, options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
  }

  /**
   * The client of any collection described by a `ResourceDef` of `@aide/schemas`, e.g. one added to the
   * backend after this SDK version. Its routes (`restore`, `createMany`, no `update`/`delete` for
   * append-only collections) are derived from the definition, in its type and at run time.
   *
   * ```ts
   * const systems = client.resource(systemResource);
   * ```
   *
   * `Own` is a subclass of `CollectionResource` (or `CrudResource`) with the collection's own calls;
   * the client is an instance of a subclass of it that adds the collection's other routes.
   */
  resource<D extends ResourceDef>(def: D): ResourceClient<D, CapabilitiesOf<D>>;
  resource<D extends ResourceDef, R extends CollectionResource<ReadOf<D>, CreateOf<D>>>(
    def: D,
    Own: ResourceConstructor<R>,
  ): R & ResourceClient<D, CapabilitiesOf<D>>;
  resource<D extends ResourceDef>(
    def: D,
    Own?: ResourceConstructor<CollectionResource<ReadOf<D>, CreateOf<D>>>,
  ): ResourceClient<D, CapabilitiesOf<D>> {
    const capabilities = capabilitiesOf(def) as CapabilitiesOf<D>;
    return Own === undefined
      ? createResource(this.api, def, capabilities)
      : createResource(this.api, def, capabilities, Own);
  }

  /**
   * Releases the connections of the client's own Agent (a given `dispatcher` is left open). Calls made
   * afterwards fail with `AideError`.
   */
  async close(): Promise<void> {
    if (this.api.transport.closed) return;
    this.api.transport.markClosed();
    await this.#ownDispatcher?.close();
  }
}

/**
 * The AIDE Metastore client.
 *
 * ```ts
 * const client = new AideClient({ baseUrl: 'http://localhost:8001', username, password });
 * const kind = await client.systemKinds.create({ code: 'rdbms', name: 'Relational databases' });
 * await client.close();
 * ```
 *
 * Logs in on the first call; renews the token once on a 401 (one renewal shared by concurrent calls);
 * retries safe requests on connection errors, 429 and 503; throws `AideApiError` subclasses carrying
 * `status`, `errorCode`, `requestId` and `details`.
 */
export class AideClient extends AideClientCore {
  /** Login, refresh and logout. */
  readonly auth = new AuthResource(this.api);
  /** `/users` (superusers) and `/users/me`. */
  readonly users = new UsersResource(this.api, userResource);
  // One line per collection. The annotation names the routes the collection has (SoftDeleteResource:
  // + restore; BatchResource: + createMany) and must agree with those its ResourceDef declares, from
  // which resource() derives the client's type.

  /** `/system-kinds`: `rdbms`, `kafka`, ... (written by superusers). */
  readonly systemKinds: SoftDeleteResource<SystemKind, CreateSystemKind, UpdateSystemKind> =
    this.resource(systemKindResource);
  /** `/system-flavors`: `postgres14`, `iceberg_v2`, ... (written by superusers). */
  readonly systemFlavors: SoftDeleteResource<SystemFlavor, CreateSystemFlavor, UpdateSystemFlavor> =
    this.resource(systemFlavorResource);
  /** `/credential-refs`: pointers to secrets held elsewhere (written by superusers). */
  readonly credentialRefs: SoftDeleteResource<CredentialRef, CreateCredentialRef, UpdateCredentialRef> =
    this.resource(credentialRefResource);
  /** `/systems`: concrete databases, clusters, stores, plus `snapshot` (a crawler's registry side). */
  readonly systems: SystemsResource & Restorable<System> & BatchCreatable<System, CreateSystem> =
    this.resource(systemResource, SystemsResource);

  // The catalogue.

  /** `/data-types`: the types of a flavor (`numeric`, `varchar`, `array`), written by superusers. */
  readonly dataTypes: SoftDeleteResource<DataType, CreateDataType, UpdateDataType> &
    BatchResource<DataType, CreateDataType, UpdateDataType> = this.resource(dataTypeResource);
  /** `/type-instances`: parametrised types and type trees, plus `tree` and `render`. */
  readonly typeInstances: TypeInstancesResource & BatchCreatable<TypeInstance, CreateTypeInstance> =
    this.resource(typeInstanceResource, TypeInstancesResource);
  /** `/cast-rules`: type mappings between flavors (written by superusers), plus `resolve`. */
  readonly castRules: CastRulesResource & BatchCreatable<CastRule, CreateCastRule> = this.resource(
    castRuleResource,
    CastRulesResource,
  );
  /** `/datasets`: kind-typed datasets of a system, plus their schema versions (publish, history, diff). */
  readonly datasets: DatasetsResource & Restorable<Dataset> = this.resource(
    datasetResource,
    DatasetsResource,
  );
  /** `/fields`: the column identities of datasets, plus `tree` and `children`. */
  readonly fields: FieldsResource & BatchCreatable<Field, CreateField> = this.resource(
    fieldResource,
    FieldsResource,
  );
  /** `/field-classifications`: append-only PII tags of fields (no update, no delete), plus `current`. */
  readonly fieldClassifications: FieldClassificationsResource = this.resource(
    fieldClassificationResource,
    FieldClassificationsResource,
  );
  /** `/dataset-schemas`: schema version headers (granular; `datasets.publishSchemaVersion` does it all). */
  readonly datasetSchemas: CrudResource<
    DatasetSchemaVersion,
    CreateDatasetSchemaVersion,
    UpdateDatasetSchemaVersion
  > = this.resource(datasetSchemaResource);
  /** `/field-bindings`: a field's position, nullability and type in a schema version (granular). */
  readonly fieldBindings: BatchResource<FieldBinding, CreateFieldBinding, UpdateFieldBinding> =
    this.resource(fieldBindingResource);
  /** `/crawl-runs`: the crawler's audit log (never deleted); `update` finishes a run. */
  readonly crawlRuns: CollectionResource<CrawlRun, CreateCrawlRun> & Updatable<CrawlRun, UpdateCrawlRun> =
    this.resource(crawlRunResource);

  // Lineage.

  /**
   * `/engines`: pipeline drivers attached to dataset links, polymorphic on `kind` (debezium, ogg → cdc;
   * spark, impala → compute); written by superusers. Updates name the stored `kind`.
   */
  readonly engines: SoftDeleteResource<Engine, CreateEngine, UpdateEngine> = this.resource(engineResource);
  /** `/dataset-links`: lineage hops, plus the field links inside a hop (`fieldLinks`, `addFieldLinks`). */
  readonly datasetLinks: DatasetLinksResource & Restorable<DatasetLink> = this.resource(
    datasetLinkResource,
    DatasetLinksResource,
  );
  /** `/lineage`: the graph around a dataset or a field (pages, `for await`, or whole). */
  readonly lineage = new LineageResource(this.api);
  /** What the OpenLineage intake observed: unknown datasets (register, replay), observed schemas. */
  readonly lineageObservations = new LineageObservationsResource(this.api);
  /** Compatibility levels (registry, system, dataset) and the check of a would-be version (ADR 0048). */
  readonly compatibility = new CompatibilityResource(this.api);
  /** `/field-links`: every field link, filterable by link and field; the note is all an update changes. */
  readonly fieldLinks: CrudResource<FieldLink, CreateFieldLink, UpdateFieldLink> =
    this.resource(fieldLinkResource);
  /** `/tech-field-templates`: presets of technical columns, and `apply` to stamp one onto a dataset. */
  readonly techFieldTemplates: TechFieldTemplatesResource = this.resource(
    techFieldTemplateResource,
    TechFieldTemplatesResource,
  );

  // The metadata provider (DataCoolie pipelines, docs/provider.md).

  /** `/workspaces`: the scopes of DataCoolie pipelines (`workspace_id`); URLs take the id or the code. */
  readonly workspaces: SoftDeleteResource<Workspace, CreateWorkspace, UpdateWorkspace> =
    this.resource(workspaceResource);
  /** `/connection-profiles`: DataCoolie connections over systems (secrets as credential references). */
  readonly connectionProfiles: SoftDeleteResource<
    ConnectionProfile,
    CreateConnectionProfile,
    UpdateConnectionProfile
  > = this.resource(connectionProfileResource);
  /** `/dataflows`: DataCoolie dataflows, plus each one's watermark and its history. */
  readonly dataflows: DataflowsResource & Restorable<Dataflow> = this.resource(
    dataflowResource,
    DataflowsResource,
  );
  /** `/api-keys`: pipeline credentials scoped to workspaces (the key is shown once), `revoke`. */
  readonly apiKeys: ApiKeysResource = this.resource(apiKeyResource, ApiKeysResource);
  /** A workspace's DataCoolie metadata: the snapshot and DataCoolie's own REST routes. */
  readonly datacoolie = new DataCoolieResource(this.api);

  /**
   * `GET /search`: systems, datasets and fields ranked by how they match `q` (exact name, name prefix,
   * word, PII tag, similar spelling), with display paths and highlight segments. Await it for one page;
   * iterate it with `for await` for every result from `page` on.
   *
   * ```ts
   * for await (const hit of client.search({ q: 'email', kind: 'field', pii: '*' })) console.log(hit.path);
   * ```
   */
  search(params: SearchParams, options?: RequestOptions): PagePromise<SearchResult> {
    return search(this.api, params, options);
  }

  /**
   * One page of `GET /search` with its facet counts (by kind, system, flavor, PII tag and lineage,
   * under the same filters): what a search page shows next to its results.
   */
  searchWithFacets(params: SearchParams, options?: RequestOptions): Promise<SearchPage> {
    return searchWithFacets(this.api, params, options);
  }
}
