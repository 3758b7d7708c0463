import { type z } from 'zod';
import { createDocument } from 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { ErrorResponseSchema } from './common/error-response.js';
import { contractRoutes, openApiPath, type RouteDef } from './contract/index.js';
import { ERROR_CATALOGUE, type ErrorCode } from './errors/error-codes.js';

// The OpenAPI document is generated from the route contract alone (ADR 0008): one operation per
// declaration, its errors grouped by status, and the errors every route of its kind can give.

type Responses = Record<string, unknown>;

const DEFAULT_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No content' };

function errorResponses(codes: readonly ErrorCode[]): Responses {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
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

/** What any route of this kind can answer besides its own errors. */
function commonErrors(route: RouteDef): ErrorCode[] {
  if (route.auth === 'anonymous') return ['VALIDATION_ERROR'];
  const codes: ErrorCode[] = ['UNAUTHORIZED', 'VALIDATION_ERROR', 'TOO_MANY_REQUESTS'];
  if (route.auth !== 'user') codes.push('FORBIDDEN');
  // An API key is kept to its workspaces where the route admits it, refused elsewhere (ADR 0020).
  codes.push(route.keys === 'workspace' ? 'FORBIDDEN' : 'API_KEY_FORBIDDEN');
  return codes;
}

function operation(route: RouteDef): ZodOpenApiOperationObject {
  const responses: Responses = {};
  for (const [status, schema] of Object.entries(route.responses)) {
    const description =
      route.responseDescriptions[Number(status)] ?? DEFAULT_DESCRIPTIONS[Number(status)] ?? 'OK';
    responses[status] = schema
      ? { description, content: { 'application/json': { schema } } }
      : { description };
  }
  Object.assign(responses, errorResponses([...commonErrors(route), ...route.errors]));
  const requestParams: NonNullable<ZodOpenApiOperationObject['requestParams']> = {};
  if (route.pathParams) requestParams.path = route.pathParams as z.ZodObject;
  if (route.query) requestParams.query = route.query as unknown as z.ZodObject;
  const contentType = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  return {
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: [route.tag],
    ...(route.auth === 'anonymous' ? {} : { security: [{ bearer: [] }], 'x-aide-api-key': route.keys }),
    ...(Object.keys(requestParams).length > 0 ? { requestParams } : {}),
    ...(route.body ? { requestBody: { content: { [contentType]: { schema: route.body } } } } : {}),
    responses: responses as ZodOpenApiOperationObject['responses'],
  };
}

/** The OpenAPI 3.1 document of the whole API, generated from the route contract. */
export function buildOpenApiDocument(
  version: string,
  routes: readonly RouteDef[] = contractRoutes(),
): Record<string, unknown> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const item = (paths[openApiPath(route)] ??= {});
    (item as Record<string, ZodOpenApiOperationObject>)[route.method.toLowerCase()] = operation(route);
  }
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
