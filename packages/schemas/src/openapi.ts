import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';

type Responses = Record<string, unknown>;
import { ErrorResponseSchema } from './common/error-response.js';
import { batchOf, batchResultOf, listQuerySchema, pageOf } from './common/list-query.js';
import { LoginFormSchema, RefreshTokenRequestSchema, TokenPairSchema } from './entities/auth.js';
import { UpdateMeSchema, userResource } from './entities/user.js';
import { ERROR_CATALOGUE, type ErrorCode } from './errors/error-codes.js';
import type { ResourceDef } from './resource.js';
import { CATALOGUE_RESOURCES, RESOURCES } from './resources.js';
import { ResolveCastRequestSchema, ResolveCastResultSchema } from './entities/cast-rule.js';
import { FieldClassificationSchema } from './entities/field-classification.js';
import { FieldSchema, FieldTreeSchema } from './entities/field.js';
import {
  PublishResultSchema,
  PublishSchemaVersionSchema,
  SchemaVersionDiffSchema,
  SchemaVersionSchema,
  SchemaVersionSummarySchema,
} from './entities/schema-version.js';
import { RenderedTypeSchema, TypeInstanceTreeSchema } from './entities/type-instance.js';
import {
  BulkCreateDatasetsResultSchema,
  BulkCreateDatasetsSchema,
  BulkPublishResultSchema,
  BulkPublishSchema,
  SystemSnapshotPageSchema,
} from './entities/bulk.js';

const idParam = z.object({ id: z.uuid() });

function errorResponses(codes: readonly ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Responses = {};
  for (const [status, list] of byStatus) {
    responses[String(status)] = {
      description: list.join(', '),
      content: { 'application/json': { schema: ErrorResponseSchema } },
    };
  }
  return responses;
}

function ok(schema: z.ZodType, description = 'OK', status = '200'): Responses {
  return { [status]: { description, content: { 'application/json': { schema } } } };
}

function json(schema: z.ZodType) {
  return { content: { 'application/json': { schema } } };
}

const common: ErrorCode[] = ['UNAUTHORIZED', 'VALIDATION_ERROR', 'TOO_MANY_REQUESTS'];

function op(
  summary: string,
  tag: string,
  responses: Record<string, unknown>,
  errors: readonly ErrorCode[],
  extra: Partial<ZodOpenApiOperationObject> = {},
): ZodOpenApiOperationObject {
  return {
    summary,
    tags: [tag],
    security: [{ bearer: [] }],
    responses: { ...responses, ...errorResponses([...common, ...errors]) },
    ...extra,
  } as ZodOpenApiOperationObject;
}

function resourcePaths(r: ResourceDef): ZodOpenApiPathsObject {
  const forbidden: ErrorCode[] = r.writeRole === 'superuser' ? ['FORBIDDEN'] : [];
  const base = `/api/v1/${r.path}`;
  const update = op(
    `Update a ${r.name} (partial)`,
    r.tag,
    ok(r.read),
    [...forbidden, r.notFound, 'VERSION_CONFLICT', 'PRECONDITION_REQUIRED', ...r.errors],
    { requestParams: { path: idParam }, requestBody: json(r.update) },
  );
  const paths: ZodOpenApiPathsObject = {
    [base]: {
      get: op(`List ${r.tag.toLowerCase()}`, r.tag, ok(pageOf(r.read)), r.softDelete ? ['FORBIDDEN'] : [], {
        requestParams: { query: listQuerySchema(r.list) as unknown as z.ZodObject },
      }),
      post: op(`Create a ${r.name}`, r.tag, ok(r.read, 'Created', '201'), [...forbidden, ...r.errors], {
        requestBody: json(r.create),
      }),
    },
    [`${base}/{id}`]: {
      get: op(`Get a ${r.name}`, r.tag, ok(r.read), [r.notFound], { requestParams: { path: idParam } }),
      put: update,
      patch: update,
      delete: op(
        `Delete a ${r.name}`,
        r.tag,
        ok(r.read),
        ['FORBIDDEN', r.notFound, 'HAS_DEPENDENT_ENTITIES'],
        {
          requestParams: { path: idParam },
        },
      ),
    },
  };
  const item = paths[`${base}/{id}`];
  if (item && r.without?.includes('update')) {
    delete item.put;
    delete item.patch;
  }
  if (item && r.without?.includes('delete')) delete item.delete;
  if (r.softDelete) {
    paths[`${base}/{id}/restore`] = {
      post: op(
        `Restore a deleted ${r.name}`,
        r.tag,
        ok(r.read),
        ['FORBIDDEN', r.notFound, 'ENTITY_NOT_DELETED'],
        {
          requestParams: { path: idParam },
        },
      ),
    };
  }
  if (r.batch) {
    paths[`${base}/batch`] = {
      post: op(
        `Create many ${r.tag.toLowerCase()} at once (all or nothing)`,
        r.tag,
        ok(batchResultOf(r.read), 'Created', '201'),
        [...forbidden, 'BATCH_TOO_LARGE', ...r.errors],
        { requestBody: json(batchOf(r.create)) },
      ),
    };
  }
  return paths;
}

function authPaths(): ZodOpenApiPathsObject {
  const tag = 'Auth';
  return {
    '/api/v1/login': {
      post: {
        summary: 'Log in with the OAuth2 password form',
        tags: [tag],
        requestBody: { content: { 'application/x-www-form-urlencoded': { schema: LoginFormSchema } } },
        responses: {
          ...ok(TokenPairSchema),
          ...errorResponses(['INVALID_CREDENTIALS', 'VALIDATION_ERROR', 'TOO_MANY_REQUESTS']),
        } as ZodOpenApiOperationObject['responses'],
      },
    },
    '/api/v1/login/refresh': {
      post: {
        summary: 'Exchange a refresh token for a new pair (rotation)',
        tags: [tag],
        requestBody: json(RefreshTokenRequestSchema),
        responses: {
          ...ok(TokenPairSchema),
          ...errorResponses([
            'REFRESH_TOKEN_INVALID',
            'REFRESH_TOKEN_REVOKED',
            'REFRESH_TOKEN_EXPIRED',
            'TOO_MANY_REQUESTS',
          ]),
        } as ZodOpenApiOperationObject['responses'],
      },
    },
    '/api/v1/login/logout': {
      post: {
        summary: 'Revoke one refresh token',
        tags: [tag],
        requestBody: json(RefreshTokenRequestSchema),
        responses: { '204': { description: 'Revoked' }, ...errorResponses(['VALIDATION_ERROR']) },
      },
    },
    '/api/v1/login/logout-all': {
      post: op('Revoke every token of the caller', tag, { '204': { description: 'Revoked' } }, []),
    },
    '/api/v1/users/me': {
      get: op('The current user', 'Users', ok(userResource.read), []),
      put: op(
        'Update the current user',
        'Users',
        ok(userResource.read),
        ['INVALID_CURRENT_PASSWORD', 'VERSION_CONFLICT'],
        {
          requestBody: json(UpdateMeSchema),
        },
      ),
      patch: op(
        'Update the current user',
        'Users',
        ok(userResource.read),
        ['INVALID_CURRENT_PASSWORD', 'VERSION_CONFLICT'],
        {
          requestBody: json(UpdateMeSchema),
        },
      ),
    },
  };
}

function catalogueExtraPaths(): ZodOpenApiPathsObject {
  const datasetParam = z.object({ id: z.uuid() });
  return {
    '/api/v1/type-instances/{id}/tree': {
      get: op(
        'The type tree under a type instance',
        'Type instances',
        ok(TypeInstanceTreeSchema),
        ['TYPE_INSTANCE_NOT_FOUND', 'TYPE_INSTANCE_TREE_TOO_LARGE'],
        {
          requestParams: { path: idParam },
        },
      ),
    },
    '/api/v1/type-instances/{id}/render': {
      get: op(
        'Render the type text of a type tree',
        'Type instances',
        ok(RenderedTypeSchema),
        [
          'TYPE_INSTANCE_NOT_FOUND',
          'TYPE_INSTANCE_RENDER_FAILED',
          'TEMPLATE_RENDER_LIMIT',
          'TYPE_INSTANCE_TREE_TOO_LARGE',
        ],
        { requestParams: { path: idParam } },
      ),
    },
    '/api/v1/cast-rules/resolve': {
      post: op(
        'What a type becomes in another flavor',
        'Cast rules',
        ok(ResolveCastResultSchema),
        [
          'CAST_RULE_NOT_RESOLVABLE',
          'CAST_RULE_AMBIGUOUS',
          'SYSTEM_FLAVOR_NOT_FOUND',
          'TYPE_INSTANCE_NOT_FOUND',
          'DATA_TYPE_NOT_FOUND',
          'TEMPLATE_RENDER_LIMIT',
          'TYPE_INSTANCE_TREE_TOO_LARGE',
        ],
        { requestBody: json(ResolveCastRequestSchema) },
      ),
    },
    '/api/v1/fields/tree/{id}': {
      get: op(
        "A dataset's fields as a tree",
        'Fields',
        ok(z.array(FieldTreeSchema)),
        ['DATASET_NOT_FOUND', 'FIELD_TREE_TOO_DEEP'],
        {
          requestParams: { path: datasetParam },
        },
      ),
    },
    '/api/v1/fields/{id}/children': {
      get: op('Direct children of a field', 'Fields', ok(z.array(FieldSchema)), ['FIELD_NOT_FOUND'], {
        requestParams: { path: idParam },
      }),
    },
    '/api/v1/field-classifications/current/{id}': {
      get: op(
        "A field's current PII classification",
        'Field classifications',
        ok(FieldClassificationSchema),
        ['FIELD_NOT_FOUND', 'FIELD_CLASSIFICATION_NOT_FOUND'],
        { requestParams: { path: idParam } },
      ),
    },
    '/api/v1/field-classifications/by-dataset/{id}/current': {
      get: op(
        'Current PII classification of every field of a dataset',
        'Field classifications',
        ok(z.array(FieldClassificationSchema)),
        ['DATASET_NOT_FOUND'],
        { requestParams: { path: datasetParam } },
      ),
    },
    '/api/v1/datasets/{id}/schema-versions': {
      post: op(
        'Publish a whole schema version atomically',
        'Schema versions',
        {
          ...ok(PublishResultSchema, 'Created', '201'),
          ...ok(PublishResultSchema, 'Unchanged: identical to the current version, nothing written'),
        },
        PUBLISH_ERRORS,
        {
          requestParams: { path: datasetParam },
          requestBody: json(PublishSchemaVersionSchema),
        },
      ),
      get: op(
        'Version history, newest first',
        'Schema versions',
        ok(z.array(SchemaVersionSummarySchema)),
        ['DATASET_NOT_FOUND'],
        { requestParams: { path: datasetParam } },
      ),
    },
    '/api/v1/datasets/{id}/schema-versions/diff': {
      get: op(
        'Compare two versions',
        'Schema versions',
        ok(SchemaVersionDiffSchema),
        ['DATASET_SCHEMA_NOT_FOUND'],
        {
          requestParams: { path: datasetParam, query: z.object({ from: z.int(), to: z.int() }) },
        },
      ),
    },
    '/api/v1/datasets/{id}/schema-versions/{num}': {
      get: op(
        'One version with its columns, types and PII tags',
        'Schema versions',
        ok(SchemaVersionSchema),
        ['DATASET_SCHEMA_NOT_FOUND'],
        { requestParams: { path: z.object({ id: z.uuid(), num: z.int().min(1) }) } },
      ),
    },
  };
}

const PUBLISH_ERRORS: ErrorCode[] = [
  'DATASET_NOT_FOUND',
  'DATA_TYPE_NOT_FOUND',
  'TYPE_INSTANCE_PARAMS_INVALID',
  'TYPE_INSTANCE_TREE_TOO_LARGE',
  'TYPE_INSTANCE_RENDER_FAILED',
  'TEMPLATE_RENDER_LIMIT',
  'DATASET_SCHEMA_ALREADY_EXISTS',
  'DATASET_SCHEMA_VERSION_NOT_NEXT',
];

/** The bulk paths of a crawler: a system's snapshot, datasets created and versions published by the hundred. */
function bulkPaths(): ZodOpenApiPathsObject {
  const perItem = (codes: ErrorCode[]) => `Per item (in \`items[].error\`): ${codes.join(', ')}.`;
  return {
    '/api/v1/systems/{id}/snapshot': {
      get: op(
        'Every dataset of a system with its current version, a page at a time (keyset cursor)',
        'Systems',
        ok(SystemSnapshotPageSchema),
        ['SYSTEM_NOT_FOUND', 'TYPE_INSTANCE_TREE_TOO_LARGE', 'TEMPLATE_RENDER_LIMIT'],
        {
          requestParams: {
            path: idParam,
            query: z.object({ cursor: z.string().optional(), limit: z.int().min(1).max(1000).optional() }),
          },
        },
      ),
    },
    '/api/v1/datasets/bulk': {
      post: op(
        'Create many datasets, each on its own, with a result per item',
        'Datasets',
        ok(BulkCreateDatasetsResultSchema),
        ['BATCH_TOO_LARGE', 'PAYLOAD_TOO_LARGE'],
        {
          description: perItem(['DATASET_ALREADY_EXISTS', 'SYSTEM_NOT_FOUND']),
          requestBody: json(BulkCreateDatasetsSchema),
        },
      ),
    },
    '/api/v1/schema-versions/bulk': {
      post: op(
        "Publish many datasets' versions, each atomic on its own and checked against its base version",
        'Schema versions',
        ok(BulkPublishResultSchema),
        ['BATCH_TOO_LARGE', 'PAYLOAD_TOO_LARGE'],
        {
          description: perItem(['VERSION_CONFLICT', ...PUBLISH_ERRORS]),
          requestBody: json(BulkPublishSchema),
        },
      ),
    },
  };
}

/** The OpenAPI 3.1 document of the whole API, generated from the same zod schemas the server validates with. */
export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const paths: ZodOpenApiPathsObject = { ...authPaths(), ...resourcePaths(userResource) };
  for (const resource of [...RESOURCES, ...CATALOGUE_RESOURCES])
    Object.assign(paths, resourcePaths(resource));
  Object.assign(paths, catalogueExtraPaths(), bulkPaths());
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'AIDE Metastore',
      version,
      description:
        'Metadata registry for data platforms. Every error answers with `{error_code, detail, request_id, details?}`.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  });
  return document as unknown as Record<string, unknown>;
}
