import { z } from 'zod';
import { pageOf } from '../common/list-query.js';
import {
  DatasetLinkCompatQuerySchema,
  DatasetLinkCompatReportSchema,
  DatasetLinkCompatSummarySchema,
  RenderSqlResultSchema,
} from '../entities/compat.js';
import {
  BulkFieldLinksSchema,
  CreateLinkFieldLinkSchema,
  datasetLinkResource,
  FIELD_LINK_CREATE_ERRORS,
  FieldLinkSchema,
  fieldLinkResource,
} from '../entities/dataset-link.js';
import { engineResource } from '../entities/engine.js';
import {
  ApplyTechTemplateResultSchema,
  ApplyTechTemplateSchema,
  techFieldTemplateResource,
} from '../entities/tech-field-template.js';
import {
  DatasetLineageGraphSchema,
  FieldLineageGraphSchema,
  LineageQuerySchema,
} from '../entities/lineage.js';
import { LakeSyncRequestSchema, LakeSyncResultSchema } from '../entities/lake-sync.js';
import {
  ObservedSchemaSchema,
  OpenLineageReplayResultSchema,
  OpenLineageReplaySchema,
  RegisterUnknownDatasetResultSchema,
  RegisterUnknownDatasetSchema,
  UnknownDatasetPageSchema,
  UnknownDatasetQuerySchema,
  UnknownDatasetSchema,
} from '../entities/lineage-observation.js';
import { OpenLineageEventSchema, OpenLineageIntakeResultSchema } from '../entities/openlineage.js';
import {
  DatasetRunPageSchema,
  DatasetRunQuerySchema,
  LineageJobPageSchema,
  LineageJobQuerySchema,
  LineageJobGraphQuerySchema,
  LineageJobGraphSchema,
  LineageJobSchema,
  LineageJobVersionPageSchema,
  LineageJobVersionQuerySchema,
  LineageRunEventSchema,
  LineageRunPageSchema,
  LineageRunQuerySchema,
  LineageRunSchema,
} from '../entities/lineage-run.js';
import { crudRoutes } from './crud.js';
import { defineRoute, idParams } from './route.js';

const fieldLinksTag = 'Field links';

export const engineRoutes = crudRoutes(engineResource);
export const fieldLinkRoutes = crudRoutes(fieldLinkResource);

/** Tech-field templates and stamping one onto a dataset (AIDE v2 §2.4.15, §9.3). */
export const techFieldTemplateRoutes = {
  ...crudRoutes(techFieldTemplateResource),
  apply: defineRoute({
    method: 'POST',
    path: '/api/v1/datasets/:id/apply-tech-template',
    pathParams: idParams,
    body: ApplyTechTemplateSchema,
    responses: { 200: ApplyTechTemplateResultSchema },
    errors: [
      'DATASET_NOT_FOUND',
      'TECH_FIELD_TEMPLATE_NOT_FOUND',
      'TECH_FIELD_TEMPLATE_LAYER_MISMATCH',
      'TECH_TYPE_CODE_NOT_RESOLVABLE',
    ],
    auth: 'superuser',
    keys: 'catalogue:write',
    summary: "Add a template's technical columns to a dataset as `tech` fields (idempotent)",
    description:
      'Template fields whose name is already a root field of the dataset are skipped, so applying twice ' +
      "changes nothing. Each type code is resolved to an active data type of the dataset's flavor first; " +
      'one miss fails the whole call.',
    tag: 'Tech-field templates',
  }),
};

/** Dataset links with their ETL pre-flight (ADR 0015) and the original's nested field-link routes. */
export const datasetLinkRoutes = {
  ...crudRoutes(datasetLinkResource),
  compatSummaries: defineRoute({
    method: 'GET',
    path: '/api/v1/dataset-links/compat',
    query: DatasetLinkCompatQuerySchema,
    responses: { 200: pageOf(DatasetLinkCompatSummarySchema) },
    errors: [],
    auth: 'user',
    keys: 'catalogue:read',
    paging: 'page',
    summary: 'ETL pre-flight summary of every active link (filters: status, drift, dataset, system)',
    tag: 'Dataset links',
  }),
  compat: defineRoute({
    method: 'GET',
    path: '/api/v1/dataset-links/:id/compat',
    pathParams: idParams,
    responses: { 200: DatasetLinkCompatReportSchema },
    errors: ['DATASET_LINK_NOT_FOUND', 'TEMPLATE_RENDER_LIMIT', 'TYPE_INSTANCE_TREE_TOO_LARGE'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'ETL pre-flight of one link: pin drift, per-field issues (types compared structurally), status',
    tag: 'Dataset links',
  }),
  lakeSync: defineRoute({
    method: 'POST',
    path: '/api/v1/datasets/:id/lake-sync',
    pathParams: idParams,
    body: LakeSyncRequestSchema,
    responses: { 201: LakeSyncResultSchema },
    responseDescriptions: { 201: 'Created: the Iceberg dataset, its version 1, the link and field links' },
    errors: [
      'DATASET_NOT_FOUND',
      'LAKE_SYNC_NO_SOURCE_SCHEMA',
      'SYSTEM_NOT_FOUND',
      'LAKE_SYNC_TARGET_FLAVOR_MISMATCH',
      'DATASET_ALREADY_EXISTS',
      'TECH_FIELD_TEMPLATE_NOT_FOUND',
      'TECH_FIELD_TEMPLATE_LAYER_MISMATCH',
      'LAKE_SYNC_UNKNOWN_OVERRIDE_FIELD',
      'DATA_TYPE_NOT_FOUND',
      'TYPE_INSTANCE_PARAMS_INVALID',
      'LAKE_SYNC_AMBIGUOUS_CAST',
      'TECH_TYPE_CODE_NOT_RESOLVABLE',
      'DATASET_LINK_LAYER_MISSING',
      'DATASET_LINK_LAYER_ORDER',
      'TYPE_INSTANCE_TREE_TOO_LARGE',
    ],
    auth: 'user',
    keys: 'catalogue:write',
    idempotent: true,
    summary: "Mirror a dataset's current version into a new Iceberg table, linked column by column",
    description:
      'All or nothing (AIDE v2 §9.4): the hive dataset `<db_name>.<table_name>` in the target Iceberg ' +
      "system, its version 1 (each source column's type cast through the cast rules, or overridden; the " +
      "template's technical columns after them), the dataset link pinned to the source's current version " +
      'and version 1, one field link per mapped column. Unlike the original, the target layer must be a ' +
      'layer after the source one, a deleted target system is not found, and unsafe casts are reported.',
    tag: 'Dataset links',
  }),
  renderSql: defineRoute({
    method: 'POST',
    path: '/api/v1/dataset-links/:id/render-sql',
    pathParams: idParams,
    responses: { 200: RenderSqlResultSchema },
    errors: [
      'DATASET_LINK_NOT_FOUND',
      'ENGINE_NOT_FOUND',
      'ENGINE_NOT_ATTACHED',
      'ENGINE_NOT_RENDERABLE',
      'DATASET_NOT_FOUND',
      'TEMPLATE_RENDER_LIMIT',
      'TYPE_INSTANCE_RENDER_FAILED',
      'TYPE_INSTANCE_TREE_TOO_LARGE',
    ],
    auth: 'user',
    keys: 'catalogue:read',
    safe: true,
    summary: "Render the hop's INSERT … SELECT for its compute engine (Spark or Impala); nothing is stored",
    description:
      'One projection per target column fed by exactly one direct source (field links with no ' +
      'transformations, or whose DIRECT transformations are all IDENTITY; INDIRECT-only sources do not ' +
      'count), ordered by the target column position in the pinned target version; a column with several ' +
      'direct sources or another direct transformation (AGGREGATION, …) is left out with a ' +
      '`FIELD_NOT_RENDERABLE` warning per field link (ADR 0052). Each projection is ' +
      "the source column (read through the upstream CDC engine's envelope when the source is a Kafka " +
      "topic) cast to the target column's type, rendered from the pinned binding's type tree with the " +
      "target flavor's sandboxed templates and written in the engine's dialect.",
    tag: 'Dataset links',
  }),
  fieldLinks: defineRoute({
    method: 'GET',
    path: '/api/v1/dataset-links/:id/field-links',
    pathParams: idParams,
    responses: { 200: z.array(FieldLinkSchema) },
    errors: ['DATASET_LINK_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'The field links of a dataset link',
    tag: fieldLinksTag,
  }),
  createFieldLink: defineRoute({
    method: 'POST',
    path: '/api/v1/dataset-links/:id/field-links',
    pathParams: idParams,
    body: CreateLinkFieldLinkSchema,
    responses: { 201: FieldLinkSchema },
    responseDescriptions: { 201: 'Created' },
    errors: FIELD_LINK_CREATE_ERRORS,
    auth: 'user',
    keys: 'catalogue:write',
    idempotent: true,
    etag: true,
    summary: 'Add a field link to a dataset link',
    tag: fieldLinksTag,
  }),
  bulkFieldLinks: defineRoute({
    method: 'POST',
    path: '/api/v1/dataset-links/:id/field-links/bulk',
    pathParams: idParams,
    body: BulkFieldLinksSchema,
    responses: { 201: z.array(FieldLinkSchema) },
    responseDescriptions: { 201: 'Created' },
    errors: [...FIELD_LINK_CREATE_ERRORS, 'BATCH_TOO_LARGE'],
    auth: 'user',
    keys: 'catalogue:write',
    idempotent: true,
    summary:
      'Add many field links at once (all or nothing; duplicates inside the array are refused); a target may have several sources',
    tag: fieldLinksTag,
  }),
};

/** The lineage graph (ADR 0014): upstream / downstream / both, depth-limited, paged. */
/**
 * The OpenLineage intake, served at two paths (ADR 0051): its own, and the default endpoint of
 * OpenLineage's HTTP transport, so that an integration given only the registry's URL and an API key lands
 * its events. Both take the same events and give the same answers.
 */
function openLineageIntake<P extends string>(path: P) {
  return {
    method: 'POST',
    path,
    body: OpenLineageEventSchema,
    responses: { 201: OpenLineageIntakeResultSchema, 200: OpenLineageIntakeResultSchema },
    responseDescriptions: {
      201: 'Received: datasets matched, links created or confirmed (or, for FAIL and ABORT, reported only)',
      200: 'Received before (same run id and event type; same content for a JobEvent or DatasetEvent): the first answer, nothing done again',
    },
    errors: [
      'OPENLINEAGE_EVENT_TOO_LARGE',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'UNSUPPORTED_CONTENT_ENCODING',
    ],
    auth: 'user',
    keys: 'catalogue:write',
    summary:
      'Take an OpenLineage RunEvent, JobEvent or DatasetEvent: match its datasets, create or confirm dataset and field links',
    description:
      'Inputs and outputs are matched to registered datasets by namespace and name (docs/openlineage.md: a ' +
      "system declares its namespaces in `extra.openlineage_namespaces`; names follow OpenLineage's naming " +
      'conventions per kind, symlinks facets are tried next). Each matched input → output pair becomes a ' +
      'dataset link pinned to both current versions, or confirms the active one; `columnLineage` facets ' +
      'become field links. Unmatched datasets are listed once each (never once per pair), links left out ' +
      'with the reason. START, RUNNING, COMPLETE and OTHER (or no `eventType`) link; FAIL and ABORT events ' +
      'are recorded and matched but write no link (`outcome` says which). A JobEvent links its inputs to its ' +
      "outputs like a completed run; a DatasetEvent's dataset is matched and its schema facet compared. A " +
      'RunEvent is processed once per run id and event type, a JobEvent or DatasetEvent once per content ' +
      '(ADR 0022, ADR 0051). `Content-Encoding: gzip` bodies are decoded first, the body limit applying to ' +
      'the decoded size. Authentication: an API key with the `catalogue:write` scope, as `Authorization: ' +
      "Bearer <key>` (the transport's `api_key` auth) or `X-API-Key`, or an access token. The work of one " +
      'event is bounded: more registered input × output pairs than `AIDE_OPENLINEAGE_MAX_DATASET_PAIRS` or ' +
      'column-lineage edges than `AIDE_OPENLINEAGE_MAX_FIELD_EDGES` (10,000 each by default) is 413 ' +
      '`OPENLINEAGE_EVENT_TOO_LARGE`, nothing recorded (ADR 0022, amendment).',
    tag: 'Lineage',
  } as const;
}

export const lineageRoutes = {
  datasets: defineRoute({
    method: 'GET',
    path: '/api/v1/lineage/datasets/:id',
    pathParams: idParams,
    query: LineageQuerySchema,
    responses: { 200: DatasetLineageGraphSchema },
    errors: ['DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    paging: 'page',
    summary:
      'The lineage graph around a dataset: reachable datasets and links, depth-limited, cycle-safe, paged',
    tag: 'Lineage',
  }),
  openLineage: defineRoute(openLineageIntake('/api/v1/lineage/openlineage')),
  /** The same intake at the HTTP transport's default endpoint (`url` + `api/v1/lineage`): no configuration. */
  openLineageDefaultEndpoint: defineRoute(openLineageIntake('/api/v1/lineage')),
  fields: defineRoute({
    method: 'GET',
    path: '/api/v1/lineage/fields/:id',
    pathParams: idParams,
    query: LineageQuerySchema,
    responses: { 200: FieldLineageGraphSchema },
    errors: ['FIELD_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    paging: 'page',
    summary:
      'The column lineage graph around a field: reachable fields and field links (active dataset links only)',
    tag: 'Lineage',
  }),
  ...lineageRunRoutes(),
};

/** Jobs, job versions and runs recorded from OpenLineage events (issue 27 §3, ADR 0053), read-only. */
function lineageRunRoutes() {
  const tag = 'Lineage jobs and runs';
  return {
    jobs: defineRoute({
      method: 'GET',
      path: '/api/v1/lineage/jobs',
      query: LineageJobQuerySchema,
      responses: { 200: LineageJobPageSchema },
      errors: [],
      auth: 'user',
      keys: 'catalogue:read',
      paging: 'page',
      summary: 'The OpenLineage jobs (filters: namespace, name; `name__like` for contains)',
      description:
        'A job is named by its namespace and name. Its facets are the latest of each name sent; its inputs ' +
        'and outputs are those of its current version (the latest run or JobEvent), each with the ' +
        'registered dataset the intake matched (or null); `latest_run` is its newest run.',
      tag,
    }),
    job: defineRoute({
      method: 'GET',
      path: '/api/v1/lineage/jobs/:id',
      pathParams: idParams,
      responses: { 200: LineageJobSchema },
      errors: ['LINEAGE_JOB_NOT_FOUND'],
      auth: 'user',
      keys: 'catalogue:read',
      summary: 'One OpenLineage job: type, source code location, SQL, current inputs/outputs, latest run',
      tag,
    }),
    jobVersions: defineRoute({
      method: 'GET',
      path: '/api/v1/lineage/jobs/:id/versions',
      pathParams: idParams,
      query: LineageJobVersionQuerySchema,
      responses: { 200: LineageJobVersionPageSchema },
      errors: ['LINEAGE_JOB_NOT_FOUND'],
      auth: 'user',
      keys: 'catalogue:read',
      paging: 'page',
      summary:
        "A job's versions, newest first: each set of inputs/outputs, source code location and SQL it ran",
      description:
        'A version is content-addressed (ADR 0053): a run that ends, or a JobEvent, with the inputs, ' +
        'outputs, `sourceCodeLocation` and `sql` of an existing version runs that version; anything else ' +
        'is a new version, introduced by that run (null for a JobEvent).',
      tag,
    }),
    jobRuns: defineRoute({
      method: 'GET',
      path: '/api/v1/lineage/jobs/:id/runs',
      pathParams: idParams,
      query: LineageRunQuerySchema,
      responses: { 200: LineageRunPageSchema },
      errors: ['LINEAGE_JOB_NOT_FOUND'],
      auth: 'user',
      keys: 'catalogue:read',
      paging: 'page',
      summary: "A job's runs, newest first (filter: state)",
      tag,
    }),
    run: defineRoute({
      method: 'GET',
      path: '/api/v1/lineage/runs/:id',
      pathParams: idParams,
      responses: { 200: LineageRunSchema },
      errors: ['LINEAGE_RUN_NOT_FOUND'],
      auth: 'user',
      keys: 'catalogue:read',
      summary: 'One run, by its id or its OpenLineage runId: state, times, parent, error, facets, datasets',
      description:
        'State: START and RUNNING → RUNNING, COMPLETE → COMPLETED, FAIL → FAILED, ABORT → ABORTED, OTHER ' +
        'keeps it (NEW for a run known only by OTHER events). Events may arrive out of order: a run that ' +
        'ended stays ended when a late START or RUNNING arrives (ADR 0053).',
      tag,
    }),
    runEvents: defineRoute({
      method: 'GET',
      path: '/api/v1/lineage/runs/:id/events',
      pathParams: idParams,
      responses: { 200: z.array(LineageRunEventSchema) },
      errors: ['LINEAGE_RUN_NOT_FOUND'],
      auth: 'user',
      keys: 'catalogue:read',
      summary: 'The events of a run as they were sent, in eventTime order',
      description:
        'One per event type (the intake keeps one event per run id and event type, ADR 0022); raw events ' +
        'older than `AIDE_OPENLINEAGE_EVENT_RETENTION_DAYS` may have been pruned.',
      tag,
    }),
    datasetRuns: defineRoute({
      method: 'GET',
      path: '/api/v1/datasets/:id/runs',
      pathParams: idParams,
      query: DatasetRunQuerySchema,
      responses: { 200: DatasetRunPageSchema },
      errors: ['DATASET_NOT_FOUND'],
      auth: 'user',
      keys: 'catalogue:read',
      paging: 'page',
      summary: "A dataset's history by run: each run that read (input) or wrote (output) it, newest first",
      tag,
    }),
    graph: defineRoute({
      method: 'GET',
      path: '/api/v1/lineage/graph',
      query: LineageJobGraphQuerySchema,
      responses: { 200: LineageJobGraphSchema },
      errors: ['LINEAGE_JOB_NOT_FOUND', 'DATASET_NOT_FOUND'],
      auth: 'user',
      keys: 'catalogue:read',
      paging: 'page',
      summary: 'The job graph around a job or a dataset: dataset → job → dataset, depth-limited, paged',
      description:
        "Edges are the jobs' current inputs (dataset → job) and outputs (job → dataset); each is one hop, so " +
        'depth 2 from a dataset reaches the datasets its readers write. Unregistered datasets are nodes ' +
        'too (`dataset:<namespace>/<name>`, `id` null). Walked and paged as the dataset graph is (ADR 0014): ' +
        'nodes by distance from the root, an edge on the page of its later node (ADR 0053).',
      tag,
    }),
  };
}

/** What the OpenLineage intake observed beyond the registry (ADR 0054). */
export const lineageObservationRoutes = {
  unknownDatasets: defineRoute({
    method: 'GET',
    path: '/api/v1/lineage/unknown-datasets',
    query: UnknownDatasetQuerySchema,
    responses: { 200: UnknownDatasetPageSchema },
    errors: [],
    auth: 'user',
    keys: 'catalogue:read',
    paging: 'page',
    summary: 'Datasets OpenLineage events named that no registered dataset answered to, with what was seen',
    description:
      'One per (namespace, name): the fields of every schema facet seen (name and type as sent), first and ' +
      'last `eventTime`, the events and the jobs that named it, in which role. Latest seen first.',
    tag: 'Lineage',
  }),
  unknownDataset: defineRoute({
    method: 'GET',
    path: '/api/v1/lineage/unknown-datasets/:id',
    pathParams: idParams,
    responses: { 200: UnknownDatasetSchema },
    errors: ['UNKNOWN_DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'One dataset seen by the OpenLineage intake but not registered',
    tag: 'Lineage',
  }),
  registerUnknownDataset: defineRoute({
    method: 'POST',
    path: '/api/v1/lineage/unknown-datasets/:id/register',
    pathParams: idParams,
    body: RegisterUnknownDatasetSchema,
    responses: { 201: RegisterUnknownDatasetResultSchema },
    responseDescriptions: { 201: 'Created: the dataset (and version 1), then its events replayed' },
    errors: [
      'UNKNOWN_DATASET_NOT_FOUND',
      'UNKNOWN_DATASET_ALREADY_REGISTERED',
      'UNKNOWN_DATASET_SYSTEM_UNRESOLVED',
      'SYSTEM_NOT_FOUND',
      'DATASET_ALREADY_EXISTS',
      'DATASET_SYSTEM_KIND_MISMATCH',
      'VALIDATION_ERROR',
    ],
    auth: 'user',
    keys: 'catalogue:write',
    summary: 'Register a dataset the OpenLineage intake saw, then apply the events that named it',
    description:
      'Creates the dataset on the system its namespace resolves to (or `system_id`), its kind the ' +
      "system's, its attributes derived from the OpenLineage name (`schema.table`, a topic, a path) unless " +
      '`dataset` gives them; with `publish_schema` the fields seen become version 1. Then every stored ' +
      'event that named it is applied again (dataset links, column lineage; idempotent), and the answer ' +
      'says what each did.',
    tag: 'Lineage',
  }),
  replay: defineRoute({
    method: 'POST',
    path: '/api/v1/lineage/openlineage/replay',
    body: OpenLineageReplaySchema,
    responses: { 200: OpenLineageReplayResultSchema },
    errors: ['UNKNOWN_DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:write',
    summary: 'Apply stored OpenLineage events again: those of a run, or those that named an unknown dataset',
    description:
      'For a dataset registered by other means (a crawl, the REST API) after events named it: its events ' +
      'are matched and linked again (idempotent: links confirmed, never duplicated), each stored answer ' +
      'replaced by the new one. Only events that named a dataset the registry did not know are stored ' +
      'whole (ADR 0054); a run whose events named none replays nothing.',
    tag: 'Lineage',
  }),
  observedSchemas: defineRoute({
    method: 'GET',
    path: '/api/v1/datasets/:id/observed-schemas',
    pathParams: idParams,
    responses: { 200: z.array(ObservedSchemaSchema) },
    errors: ['DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: "The schemas OpenLineage events saw for a dataset: each job's latest, with its drift class",
    description:
      "Compared with the dataset's version current when the event arrived, by the crawler's classifier " +
      '(names, presence and order; OpenLineage types are free text). Nothing is published.',
    tag: 'Lineage',
  }),
};
