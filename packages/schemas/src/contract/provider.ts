import { z } from 'zod';
import { pageOf } from '../common/list-query.js';
import { wireInt } from '../common/text.js';
import { ApiKeyCreatedSchema, ApiKeySchema, apiKeyResource } from '../entities/api-key.js';
import { connectionProfileResource } from '../entities/connection-profile.js';
import {
  DataCoolieConnectionPageSchema,
  DataCoolieConnectionsQuerySchema,
  DataCoolieDataflowPageSchema,
  DataCoolieDataflowSchema,
  DataCoolieDataflowsQuerySchema,
  DataCoolieSchemaHintPageSchema,
  DataCoolieSchemaHintsQuerySchema,
} from '../entities/datacoolie-api.js';
import {
  DataCoolieConnectionSchema,
  DataCoolieSnapshotPageSchema,
  DataCoolieSnapshotQuerySchema,
} from '../entities/datacoolie-snapshot.js';
import { dataflowResource } from '../entities/dataflow.js';
import { DataCoolieImportPlanSchema, DataCoolieImportRequestSchema } from '../entities/datacoolie-import.js';
import { PutSchemaHintOverridesSchema, SchemaHintOverridesSchema } from '../entities/schema-hint-override.js';
import {
  PutWatermarkSchema,
  WatermarkHistoryEntrySchema,
  WatermarkSchema,
  WatermarkWrittenSchema,
} from '../entities/watermark.js';
import { WorkspaceCodeSchema, workspaceResource } from '../entities/workspace.js';
import { crudRoutes } from './crud.js';
import { defineRoute, idParams } from './route.js';

const DATACOOLIE = 'DataCoolie';

/** A workspace named by its id or its code (pipelines are configured with either). */
const workspaceParams = z.object({ workspace_id: WorkspaceCodeSchema });
const itemId = z.string().min(1).max(255);

export const workspaceRoutes = crudRoutes(workspaceResource);
export const connectionProfileRoutes = crudRoutes(connectionProfileResource);

const historyQuery = z.strictObject({
  page: wireInt(1, 1_000_000).optional(),
  size: wireInt(1, 100).optional(),
});

export const dataflowRoutes = {
  ...crudRoutes(dataflowResource),
  watermark: defineRoute({
    method: 'GET',
    path: '/api/v1/dataflows/:id/watermark',
    pathParams: idParams,
    responses: { 200: WatermarkSchema },
    errors: ['DATAFLOW_NOT_FOUND', 'FORBIDDEN'],
    auth: 'user',
    keys: 'workspace',
    summary: "A dataflow's watermark: the text as written, its previous value, provenance, revision",
    tag: 'Dataflows',
  }),
  putWatermark: defineRoute({
    method: 'PUT',
    path: '/api/v1/dataflows/:id/watermark',
    pathParams: idParams,
    body: PutWatermarkSchema,
    responses: { 200: WatermarkWrittenSchema },
    errors: ['DATAFLOW_NOT_FOUND', 'FORBIDDEN', 'WATERMARK_TOO_LARGE'],
    auth: 'user',
    keys: 'workspace',
    summary: "Write a dataflow's watermark (stored verbatim; a repeated write is a retry)",
    tag: 'Dataflows',
  }),
  watermarkHistory: defineRoute({
    method: 'GET',
    path: '/api/v1/dataflows/:id/watermark/history',
    pathParams: idParams,
    query: historyQuery,
    responses: { 200: pageOf(WatermarkHistoryEntrySchema) },
    errors: ['DATAFLOW_NOT_FOUND', 'FORBIDDEN'],
    auth: 'user',
    keys: 'workspace',
    paging: 'page',
    summary: "The last writes of a dataflow's watermark, newest first",
    description:
      'The server keeps the last AIDE_WATERMARK_HISTORY_KEPT writes of each dataflow (100 by default); ' +
      'older ones are pruned by the write that passes them.',
    tag: 'Dataflows',
  }),
};

const apiKeyCrud = crudRoutes(apiKeyResource);
export const apiKeyRoutes = {
  list: apiKeyCrud.list,
  get: apiKeyCrud.get,
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/api-keys',
    body: apiKeyResource.create,
    responses: { 201: ApiKeyCreatedSchema },
    responseDescriptions: { 201: 'Created: the answer carries the key, never shown again' },
    errors: ['WORKSPACE_NOT_FOUND', 'FORBIDDEN'],
    auth: 'user',
    keys: 'none',
    noStore: true,
    summary: 'Create an API key acting as the caller within workspaces',
    tag: apiKeyResource.tag,
  }),
  revoke: defineRoute({
    method: 'POST',
    path: '/api/v1/api-keys/:id/revoke',
    pathParams: idParams,
    responses: { 200: ApiKeySchema },
    errors: ['API_KEY_NOT_FOUND', 'API_KEY_REVOKED'],
    auth: 'user',
    keys: 'none',
    summary: 'Revoke an API key (its owner or a superuser); refused at once from then on',
    tag: apiKeyResource.tag,
  }),
};

const compatErrors = ['WORKSPACE_NOT_FOUND', 'FORBIDDEN'] as const;

/**
 * The workspace scope for DataCoolie: the snapshot its TypeScript provider loads in one request, and
 * DataCoolie's own REST contract for its Python `APIProvider`. API keys (`X-API-Key`) and bearer tokens
 * are both accepted; a key must be scoped to the workspace (403 otherwise).
 */
export const datacoolieRoutes = {
  snapshot: defineRoute({
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id/datacoolie/snapshot',
    pathParams: workspaceParams,
    query: DataCoolieSnapshotQuerySchema,
    responses: { 200: DataCoolieSnapshotPageSchema, 304: null },
    responseDescriptions: { 304: 'If-None-Match names the current revision' },
    errors: [...compatErrors, 'PROVIDER_SNAPSHOT_EXPIRED'],
    auth: 'user',
    keys: 'workspace',
    paging: 'cursor',
    summary: "A workspace's complete DataCoolie scope, read in one transaction",
    description:
      'Connections, dataflows (active and inactive) and schema hints as of one revision. `ETag` is the ' +
      'revision (`If-None-Match` → 304); gzip when accepted; past `page_size` items, `next_cursor` pages ' +
      'through the same revision.',
    tag: DATACOOLIE,
  }),
  import: defineRoute({
    method: 'POST',
    path: '/api/v1/workspaces/:workspace_id/datacoolie/import',
    pathParams: workspaceParams,
    body: DataCoolieImportRequestSchema,
    responses: { 200: DataCoolieImportPlanSchema },
    errors: [...compatErrors, 'DATACOOLIE_IMPORT_INVALID'],
    auth: 'user',
    keys: 'workspace',
    summary: 'Import a DataCoolie document into a workspace: one plan, applied in one transaction',
    description:
      'Declarative: every connection, dataflow and hint group of the document is created, updated or ' +
      'left unchanged (and with `prune`, what the workspace has beyond the document is deleted), all or ' +
      'nothing. `dry_run` checks the same plan inside a transaction that is rolled back, so its answer ' +
      'is the answer the real run would give. A workspace code that names no workspace creates it.',
    tag: DATACOOLIE,
  }),
  connections: defineRoute({
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id/connections',
    pathParams: workspaceParams,
    query: DataCoolieConnectionsQuerySchema,
    responses: { 200: DataCoolieConnectionPageSchema },
    errors: [...compatErrors],
    auth: 'user',
    keys: 'workspace',
    summary: 'DataCoolie connections of a workspace',
    tag: DATACOOLIE,
  }),
  connection: defineRoute({
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id/connections/:connection_id',
    pathParams: workspaceParams.extend({ connection_id: itemId }),
    responses: { 200: DataCoolieConnectionSchema },
    errors: [...compatErrors, 'CONNECTION_PROFILE_NOT_FOUND'],
    auth: 'user',
    keys: 'workspace',
    summary: 'One DataCoolie connection',
    tag: DATACOOLIE,
  }),
  dataflows: defineRoute({
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id/dataflows',
    pathParams: workspaceParams,
    query: DataCoolieDataflowsQuerySchema,
    responses: { 200: DataCoolieDataflowPageSchema },
    errors: [...compatErrors],
    auth: 'user',
    keys: 'workspace',
    summary: 'DataCoolie dataflows of a workspace, connections expanded',
    tag: DATACOOLIE,
  }),
  dataflow: defineRoute({
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id/dataflows/:dataflow_id',
    pathParams: workspaceParams.extend({ dataflow_id: itemId }),
    responses: { 200: DataCoolieDataflowSchema },
    errors: [...compatErrors, 'DATAFLOW_NOT_FOUND'],
    auth: 'user',
    keys: 'workspace',
    summary: 'One DataCoolie dataflow',
    tag: DATACOOLIE,
  }),
  schemaHints: defineRoute({
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id/schema-hints',
    pathParams: workspaceParams,
    query: DataCoolieSchemaHintsQuerySchema,
    responses: { 200: DataCoolieSchemaHintPageSchema },
    errors: [...compatErrors],
    auth: 'user',
    keys: 'workspace',
    summary: 'Schema hints of a workspace, flattened with their table key',
    tag: DATACOOLIE,
  }),
  schemaHintOverrides: defineRoute({
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id/schema-hint-overrides/:dataset_id',
    pathParams: workspaceParams.extend({ dataset_id: z.uuid() }),
    responses: { 200: SchemaHintOverridesSchema },
    errors: [...compatErrors, 'DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'workspace',
    summary: "A dataset's schema-hint overrides in a workspace (format, default_value, is_active)",
    tag: DATACOOLIE,
  }),
  putSchemaHintOverrides: defineRoute({
    method: 'PUT',
    path: '/api/v1/workspaces/:workspace_id/schema-hint-overrides/:dataset_id',
    pathParams: workspaceParams.extend({ dataset_id: z.uuid() }),
    body: PutSchemaHintOverridesSchema,
    responses: { 200: SchemaHintOverridesSchema },
    errors: [...compatErrors, 'DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'workspace',
    summary: "Replace a dataset's schema-hint overrides in a workspace",
    description:
      "Hints are derived from the source dataset's schema version; what DataCoolie hints carry beyond " +
      'the type — `format`, `default_value`, `is_active` — is kept here per column and applies to the ' +
      "hints of that column in the workspace's snapshot and `/schema-hints`.",
    tag: DATACOOLIE,
  }),
  watermark: defineRoute({
    method: 'GET',
    path: '/api/v1/workspaces/:workspace_id/watermarks/:dataflow_id',
    pathParams: workspaceParams.extend({ dataflow_id: itemId }),
    responses: { 200: WatermarkSchema },
    errors: [...compatErrors, 'DATAFLOW_NOT_FOUND'],
    auth: 'user',
    keys: 'workspace',
    summary: "A dataflow's watermark (the text as written)",
    tag: DATACOOLIE,
  }),
  putWatermark: defineRoute({
    method: 'PUT',
    path: '/api/v1/workspaces/:workspace_id/watermarks/:dataflow_id',
    pathParams: workspaceParams.extend({ dataflow_id: itemId }),
    body: PutWatermarkSchema,
    responses: { 200: WatermarkWrittenSchema },
    errors: [...compatErrors, 'DATAFLOW_NOT_FOUND', 'WATERMARK_TOO_LARGE'],
    auth: 'user',
    keys: 'workspace',
    summary: "Write a dataflow's watermark (verbatim, atomic, safe to retry)",
    tag: DATACOOLIE,
  }),
};
