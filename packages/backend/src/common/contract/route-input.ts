import {
  MAX_BATCH_SIZE,
  type RouteBody,
  type RouteDef,
  type RouteParams,
  type RouteQuery,
} from '@aide/schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthUser } from '../auth/current-user.js';
import { AppError, validationError } from '../errors/app-error.js';
import { parseIfMatch } from '../validation/if-match.js';

/** What a handler bound to a route receives, parsed and typed by the route's declaration. */
export interface RouteInput<R extends RouteDef> {
  readonly params: RouteParams<R>;
  readonly query: RouteQuery<R>;
  readonly body: RouteBody<R>;
  /** `If-Match` as a row_version, on routes that declare `ifMatch`. */
  readonly ifMatch: number | undefined;
  /** The caller; anonymous routes have none. */
  readonly user: R['auth'] extends 'anonymous' ? undefined : AuthUser;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

const NO_QUERY = z.strictObject({});

function parse(schema: z.ZodType, value: unknown, what: string): unknown {
  // Bodies arrive here already bounded in depth (common/http/json-body.ts), so the recursive walks of
  // zod and TypeORM cannot overflow the stack.
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationError(result.error.issues, `The ${what} is invalid.`);
}

/** A route without a query schema refuses any key: an empty query string needs no parse. */
function parseNoQuery(query: unknown): unknown {
  if (query === undefined || query === null) return {};
  for (const _key in query) return parse(NO_QUERY, query, 'query string');
  return {};
}

/** `{items: [...]}` bodies: more than MAX_BATCH_SIZE items is BATCH_TOO_LARGE, decided before the items are validated. */
function checkBatchSize(body: unknown): void {
  const items = body && typeof body === 'object' ? (body as { items?: unknown }).items : undefined;
  if (Array.isArray(items) && items.length > MAX_BATCH_SIZE) {
    throw new AppError(
      'BATCH_TOO_LARGE',
      `Batch too large: ${items.length} items; max is ${MAX_BATCH_SIZE}.`,
      {
        count: items.length,
        max: MAX_BATCH_SIZE,
      },
    );
  }
}

/**
 * Parses a request against its route: path parameters, then the query string (a route without a
 * query schema refuses any key), then the body, then `If-Match`. Failures are 422 VALIDATION_ERROR with
 * the zod issues.
 */
export function parseRouteInput<R extends RouteDef>(
  route: R,
  request: FastifyRequest,
  reply: FastifyReply,
): RouteInput<R> {
  const params = route.pathParams ? parse(route.pathParams, request.params, 'path') : undefined;
  const query = route.query
    ? parse(route.query, request.query ?? {}, 'query string')
    : parseNoQuery(request.query);
  let body: unknown;
  if (route.body) {
    if (route.batch) checkBatchSize(request.body);
    body = parse(route.body, request.body, 'request body');
  }
  return {
    params,
    query,
    body,
    ifMatch: route.ifMatch ? parseIfMatch(request.headers['if-match']) : undefined,
    user: request.user,
    request,
    reply,
  } as RouteInput<R>;
}
