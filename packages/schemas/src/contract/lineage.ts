import { z } from 'zod';
import { pageOf } from '../common/list-query.js';
import {
  DatasetLinkCompatQuerySchema,
  DatasetLinkCompatReportSchema,
  DatasetLinkCompatSummarySchema,
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
  DatasetLineageGraphSchema,
  FieldLineageGraphSchema,
  LineageQuerySchema,
} from '../entities/lineage.js';
import { crudRoutes } from './crud.js';
import { defineRoute, idParams } from './route.js';

const fieldLinksTag = 'Field links';

export const engineRoutes = crudRoutes(engineResource);
export const fieldLinkRoutes = crudRoutes(fieldLinkResource);

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
    summary: 'ETL pre-flight of one link: pin drift, per-field issues (types compared structurally), status',
    tag: 'Dataset links',
  }),
  fieldLinks: defineRoute({
    method: 'GET',
    path: '/api/v1/dataset-links/:id/field-links',
    pathParams: idParams,
    responses: { 200: z.array(FieldLinkSchema) },
    errors: ['DATASET_LINK_NOT_FOUND'],
    auth: 'user',
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
    idempotent: true,
    summary: 'Add many field links at once (all or nothing; duplicates inside the array are refused)',
    tag: fieldLinksTag,
  }),
};

/** The lineage graph (ADR 0014): upstream / downstream / both, depth-limited, paged. */
export const lineageRoutes = {
  datasets: defineRoute({
    method: 'GET',
    path: '/api/v1/lineage/datasets/:id',
    pathParams: idParams,
    query: LineageQuerySchema,
    responses: { 200: DatasetLineageGraphSchema },
    errors: ['DATASET_NOT_FOUND'],
    auth: 'user',
    paging: 'page',
    summary:
      'The lineage graph around a dataset: reachable datasets and links, depth-limited, cycle-safe, paged',
    tag: 'Lineage',
  }),
  fields: defineRoute({
    method: 'GET',
    path: '/api/v1/lineage/fields/:id',
    pathParams: idParams,
    query: LineageQuerySchema,
    responses: { 200: FieldLineageGraphSchema },
    errors: ['FIELD_NOT_FOUND'],
    auth: 'user',
    paging: 'page',
    summary:
      'The column lineage graph around a field: reachable fields and field links (active dataset links only)',
    tag: 'Lineage',
  }),
};
