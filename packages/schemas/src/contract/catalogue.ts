import { z } from 'zod';
import {
  ResolveCastRequestSchema,
  ResolveCastResultSchema,
  castRuleResource,
} from '../entities/cast-rule.js';
import { SchemaVersionImpactSchema } from '../entities/compat.js';
import { crawlRunResource } from '../entities/crawl-run.js';
import { credentialRefResource } from '../entities/credential-ref.js';
import { dataTypeResource } from '../entities/data-type.js';
import { datasetSchemaResource } from '../entities/dataset-schema.js';
import { datasetResource } from '../entities/dataset.js';
import { fieldBindingResource } from '../entities/field-binding.js';
import {
  FieldClassificationSchema,
  fieldClassificationResource,
  PiiTagCatalogueSchema,
} from '../entities/field-classification.js';
import { FieldSchema, FieldTreeSchema, fieldResource } from '../entities/field.js';
import {
  PublishResultSchema,
  PublishSchemaVersionSchema,
  RenderedTypeSpecSchema,
  RenderTypeSpecRequestSchema,
  SchemaVersionDiffQuerySchema,
  SchemaVersionDiffSchema,
  SchemaVersionSchema,
  SchemaVersionSummarySchema,
} from '../entities/schema-version.js';
import { SearchPageSchema, SearchQuerySchema } from '../entities/search.js';
import { systemFlavorResource } from '../entities/system-flavor.js';
import { systemKindResource } from '../entities/system-kind.js';
import {
  SystemDatasetCountsQuerySchema,
  SystemDatasetCountsSchema,
  systemResource,
} from '../entities/system.js';
import {
  RenderedTypeSchema,
  TypeInstanceTreeSchema,
  typeInstanceResource,
} from '../entities/type-instance.js';
import {
  BulkCreateDatasetsResultSchema,
  BulkCreateDatasetsSchema,
  BulkPublishResultSchema,
  BulkPublishSchema,
  SnapshotVersionsRequestSchema,
  SystemFingerprintsPageSchema,
  SystemFingerprintsQuerySchema,
  SystemSnapshotPageSchema,
  SystemSnapshotQuerySchema,
} from '../entities/bulk.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { wireInt } from '../common/text.js';
import { crudRoutes } from './crud.js';
import { defineRoute, idParams, uuidParam } from './route.js';

export const PUBLISH_ERRORS: ErrorCode[] = [
  'DATASET_NOT_FOUND',
  'DATA_TYPE_NOT_FOUND',
  'TYPE_INSTANCE_PARAMS_INVALID',
  'TYPE_INSTANCE_TREE_TOO_LARGE',
  'TYPE_INSTANCE_RENDER_FAILED',
  'TEMPLATE_RENDER_LIMIT',
  'DATASET_SCHEMA_ALREADY_EXISTS',
  'DATASET_SCHEMA_VERSION_NOT_NEXT',
  // The dataset's compatibility level refuses the change (ADR 0048); FORBIDDEN: force_reason sent by a
  // user who is not a superuser.
  'DATASET_SCHEMA_INCOMPATIBLE',
  'FORBIDDEN',
];

/** The checks a preview shares with a publish (no version number is taken: nothing is written). */
const PUBLISH_PREVIEW_ERRORS: ErrorCode[] = [
  'DATASET_NOT_FOUND',
  'DATA_TYPE_NOT_FOUND',
  'TYPE_INSTANCE_PARAMS_INVALID',
  'TYPE_INSTANCE_TREE_TOO_LARGE',
  'TYPE_INSTANCE_SLOT_ALREADY_EXISTS',
  'TYPE_INSTANCE_RENDER_FAILED',
  'TEMPLATE_RENDER_LIMIT',
];

export const systemKindRoutes = crudRoutes(systemKindResource);
export const systemFlavorRoutes = crudRoutes(systemFlavorResource);
export const credentialRefRoutes = crudRoutes(credentialRefResource);
export const dataTypeRoutes = crudRoutes(dataTypeResource);
export const datasetSchemaRoutes = crudRoutes(datasetSchemaResource);
export const fieldBindingRoutes = crudRoutes(fieldBindingResource);
export const crawlRunRoutes = crudRoutes(crawlRunResource);

export const typeInstanceRoutes = {
  ...crudRoutes(typeInstanceResource),
  tree: defineRoute({
    method: 'GET',
    path: '/api/v1/type-instances/:id/tree',
    pathParams: idParams,
    responses: { 200: TypeInstanceTreeSchema },
    errors: ['TYPE_INSTANCE_NOT_FOUND', 'TYPE_INSTANCE_TREE_TOO_LARGE'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'The type tree under a type instance',
    tag: 'Type instances',
  }),
  render: defineRoute({
    method: 'GET',
    path: '/api/v1/type-instances/:id/render',
    pathParams: idParams,
    responses: { 200: RenderedTypeSchema },
    errors: [
      'TYPE_INSTANCE_NOT_FOUND',
      'TYPE_INSTANCE_RENDER_FAILED',
      'TEMPLATE_RENDER_LIMIT',
      'TYPE_INSTANCE_TREE_TOO_LARGE',
    ],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'Render the type text of a type tree',
    tag: 'Type instances',
  }),
  renderSpec: defineRoute({
    method: 'POST',
    path: '/api/v1/type-instances/render',
    body: RenderTypeSpecRequestSchema,
    responses: { 200: RenderedTypeSpecSchema },
    errors: [
      'SYSTEM_FLAVOR_NOT_FOUND',
      'DATA_TYPE_NOT_FOUND',
      'TYPE_INSTANCE_PARAMS_INVALID',
      'TYPE_INSTANCE_SLOT_ALREADY_EXISTS',
      'TYPE_INSTANCE_TREE_TOO_LARGE',
      'TYPE_INSTANCE_RENDER_FAILED',
      'TEMPLATE_RENDER_LIMIT',
    ],
    auth: 'user',
    keys: 'catalogue:read',
    safe: true,
    summary: 'Render a type spec without storing it (a preview of a column type)',
    description:
      'The spec names data types of the flavor by code, as a published column does; its params are ' +
      "validated against each data type's params schema. Nothing is written.",
    tag: 'Type instances',
  }),
};

export const castRuleRoutes = {
  ...crudRoutes(castRuleResource),
  resolve: defineRoute({
    method: 'POST',
    path: '/api/v1/cast-rules/resolve',
    body: ResolveCastRequestSchema,
    responses: { 200: ResolveCastResultSchema },
    errors: [
      'CAST_RULE_NOT_RESOLVABLE',
      'CAST_RULE_AMBIGUOUS',
      'SYSTEM_FLAVOR_NOT_FOUND',
      'TYPE_INSTANCE_NOT_FOUND',
      'DATA_TYPE_NOT_FOUND',
      'TEMPLATE_RENDER_LIMIT',
      'TYPE_INSTANCE_TREE_TOO_LARGE',
    ],
    auth: 'user',
    keys: 'catalogue:read',
    safe: true,
    summary: 'What a type becomes in another flavor',
    tag: 'Cast rules',
  }),
};

export const fieldRoutes = {
  ...crudRoutes(fieldResource),
  tree: defineRoute({
    method: 'GET',
    path: '/api/v1/fields/tree/:id',
    pathParams: idParams,
    responses: { 200: z.array(FieldTreeSchema) },
    errors: ['DATASET_NOT_FOUND', 'FIELD_TREE_TOO_DEEP'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: "A dataset's fields as a tree",
    description: 'The path parameter is the dataset id.',
    tag: 'Fields',
  }),
  children: defineRoute({
    method: 'GET',
    path: '/api/v1/fields/:id/children',
    pathParams: idParams,
    responses: { 200: z.array(FieldSchema) },
    errors: ['FIELD_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'Direct children of a field',
    tag: 'Fields',
  }),
};

export const fieldClassificationRoutes = {
  ...crudRoutes(fieldClassificationResource),
  current: defineRoute({
    method: 'GET',
    path: '/api/v1/field-classifications/current/:id',
    pathParams: idParams,
    responses: { 200: FieldClassificationSchema },
    errors: ['FIELD_NOT_FOUND', 'FIELD_CLASSIFICATION_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: "A field's current PII classification",
    description: 'The path parameter is the field id.',
    tag: 'Field classifications',
  }),
  tags: defineRoute({
    method: 'GET',
    path: '/api/v1/field-classifications/tags',
    responses: { 200: PiiTagCatalogueSchema },
    errors: [],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'The PII tags in use (with how many fields carry each) and the suggested ones',
    description:
      "`in_use`: the tags of fields' current classifications, most used first (at most 500). " +
      '`suggested`: a starting vocabulary offered when tagging; a tag need not be in either list, only ' +
      'in the tag format.',
    tag: 'Field classifications',
  }),
  currentOfDataset: defineRoute({
    method: 'GET',
    path: '/api/v1/field-classifications/by-dataset/:id/current',
    pathParams: idParams,
    responses: { 200: z.array(FieldClassificationSchema) },
    errors: ['DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'Current PII classification of every field of a dataset',
    tag: 'Field classifications',
  }),
};

const versionsTag = 'Schema versions';

/** Whole schema versions of a dataset: publish, history, one version, diff (ADR 0006). */
export const schemaVersionRoutes = {
  publish: defineRoute({
    method: 'POST',
    path: '/api/v1/datasets/:id/schema-versions',
    pathParams: idParams,
    body: PublishSchemaVersionSchema,
    responses: { 201: PublishResultSchema, 200: PublishResultSchema },
    responseDescriptions: {
      201: 'Created',
      200: 'Unchanged: identical to the current version, nothing written',
    },
    errors: PUBLISH_ERRORS,
    auth: 'user',
    keys: 'catalogue:write',
    idempotent: true,
    summary: 'Publish a whole schema version atomically',
    tag: versionsTag,
  }),
  impact: defineRoute({
    method: 'POST',
    path: '/api/v1/datasets/:id/schema-versions/impact',
    pathParams: idParams,
    body: PublishSchemaVersionSchema,
    responses: { 200: SchemaVersionImpactSchema },
    errors: PUBLISH_PREVIEW_ERRORS,
    auth: 'user',
    keys: 'catalogue:read',
    safe: true,
    summary: 'Preview what publishing this version would break downstream (dry run: nothing is written)',
    description:
      'Takes the body of a publish. Every active dataset link with the dataset on either side is compared ' +
      'as it is now and as it would be re-pinned to the would-be version (the compat rules of ' +
      '`GET /dataset-links/{id}/compat`); a field link breaks when it would be `error` and is not now. ' +
      'A CI job or a crawler report calls it before `POST /datasets/{id}/schema-versions`.',
    tag: versionsTag,
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/v1/datasets/:id/schema-versions',
    pathParams: idParams,
    responses: { 200: z.array(SchemaVersionSummarySchema) },
    errors: ['DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'Version history, newest first',
    tag: versionsTag,
  }),
  diff: defineRoute({
    method: 'GET',
    path: '/api/v1/datasets/:id/schema-versions/diff',
    pathParams: idParams,
    query: SchemaVersionDiffQuerySchema,
    responses: { 200: SchemaVersionDiffSchema },
    errors: ['DATASET_SCHEMA_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'Compare two versions',
    tag: versionsTag,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/datasets/:id/schema-versions/:num',
    pathParams: z.object({ id: uuidParam, num: wireInt(1, 2147483647, 'must be a positive integer') }),
    responses: { 200: SchemaVersionSchema },
    errors: ['DATASET_SCHEMA_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'One version with its columns, types and PII tags',
    tag: versionsTag,
  }),
};

export const searchRoutes = {
  search: defineRoute({
    method: 'GET',
    path: '/api/v1/search',
    query: SearchQuerySchema,
    responses: { 200: SearchPageSchema },
    errors: ['SEARCH_BUSY', 'SEARCH_TIMEOUT'],
    auth: 'user',
    keys: 'catalogue:read',
    paging: 'page',
    summary: 'Ranked search over systems, datasets and fields',
    tag: 'Search',
  }),
};

const perItem = (codes: readonly ErrorCode[]) => `Per item (in \`items[].error\`): ${codes.join(', ')}.`;

export const systemRoutes = {
  ...crudRoutes(systemResource),
  datasetCounts: defineRoute({
    method: 'GET',
    path: '/api/v1/systems/dataset-counts',
    query: SystemDatasetCountsQuerySchema,
    responses: { 200: SystemDatasetCountsSchema },
    errors: [],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'The number of active datasets of each of up to 100 systems, in one request',
    tag: 'Systems',
  }),
  snapshot: defineRoute({
    method: 'GET',
    path: '/api/v1/systems/:id/snapshot',
    pathParams: idParams,
    query: SystemSnapshotQuerySchema,
    responses: { 200: SystemSnapshotPageSchema },
    errors: ['SYSTEM_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    paging: 'cursor',
    summary: 'Every dataset of a system with its current version, a page at a time (keyset cursor)',
    description:
      'A stored version that cannot be read whole (written by an older release) does not fail the page: ' +
      'it is answered with its `read_error`.',
    tag: 'Systems',
  }),
  fingerprints: defineRoute({
    method: 'GET',
    path: '/api/v1/systems/:id/snapshot/fingerprints',
    pathParams: idParams,
    query: SystemFingerprintsQuerySchema,
    responses: { 200: SystemFingerprintsPageSchema },
    errors: ['SYSTEM_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    paging: 'cursor',
    summary:
      "Every dataset of a system with its current version's number and structural fingerprint, a page at a time",
    description:
      'The light side of the snapshot (ADR 0032): a crawler compares each fingerprint with the one of the ' +
      'table it inspected and reads in full (`POST /systems/{id}/snapshot/versions`) only those that differ.',
    tag: 'Systems',
  }),
  snapshotVersions: defineRoute({
    method: 'POST',
    path: '/api/v1/systems/:id/snapshot/versions',
    pathParams: idParams,
    body: SnapshotVersionsRequestSchema,
    responses: { 200: SystemSnapshotPageSchema },
    errors: ['SYSTEM_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    safe: true,
    summary: 'The snapshot items (dataset and current version) of up to 1,000 datasets of a system',
    description: 'A read: `next_cursor` is always null. Datasets not active in the system are left out.',
    tag: 'Systems',
  }),
};

export const datasetRoutes = {
  ...crudRoutes(datasetResource),
  bulkCreate: defineRoute({
    method: 'POST',
    path: '/api/v1/datasets/bulk',
    body: BulkCreateDatasetsSchema,
    responses: { 200: BulkCreateDatasetsResultSchema },
    errors: ['BATCH_TOO_LARGE', 'PAYLOAD_TOO_LARGE'],
    auth: 'user',
    keys: 'catalogue:write',
    idempotent: true,
    batch: true,
    summary: 'Create many datasets, each on its own, with a result per item',
    description: perItem(['DATASET_ALREADY_EXISTS', 'SYSTEM_NOT_FOUND']),
    tag: 'Datasets',
  }),
};

export const bulkPublishRoutes = {
  bulkPublish: defineRoute({
    method: 'POST',
    path: '/api/v1/schema-versions/bulk',
    body: BulkPublishSchema,
    responses: { 200: BulkPublishResultSchema },
    errors: ['BATCH_TOO_LARGE', 'PAYLOAD_TOO_LARGE'],
    auth: 'user',
    keys: 'catalogue:write',
    idempotent: true,
    batch: true,
    summary: "Publish many datasets' versions, each atomic on its own and checked against its base version",
    description:
      'An item names a registered dataset (`dataset_id`) or a dataset to create with its first version ' +
      '(`dataset`, created and published in one transaction: a refused version leaves no dataset). Each ' +
      "result carries the registry's own classification of the change from the version published over " +
      '(`compatibility`, `changes`). ' +
      perItem([
        'VERSION_CONFLICT',
        'DATASET_SCHEMA_BREAKING_CHANGE',
        'DATASET_ALREADY_EXISTS',
        'SYSTEM_NOT_FOUND',
        'DATASET_SYSTEM_KIND_MISMATCH',
        ...PUBLISH_ERRORS,
      ]),
    tag: versionsTag,
  }),
};
