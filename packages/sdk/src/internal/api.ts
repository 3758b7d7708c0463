import type { RouteDef, RouteResponseBody } from '@aide/schemas';
import type { z } from 'zod';
import { AuthenticationError } from '../core/errors.js';
import type { RequestOptions } from '../core/request-options.js';
import type { TokenManager } from './auth.js';
import { parseResponse } from './parse.js';
import type { QueryParams } from './query.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/** What a call of a contract route sends, besides what the route itself says. */
export interface InvokeInput {
  /** Values of the path template's `:names`. */
  params?: Readonly<Record<string, string | number>> | undefined;
  query?: QueryParams | undefined;
  body?: unknown;
  headers?: Readonly<Record<string, string>> | undefined;
  options?: RequestOptions | undefined;
  /** How the expected answer is named in an `AideContractError` (default: the schema's id). */
  expected?: string | undefined;
}

/** Fills a route's path template, refusing values that would change the path (empty, `.`, `..`). */
export function routePath(route: Pick<RouteDef, 'path'>, params: InvokeInput['params'] = {}): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '' || value === '.' || value === '..') {
      throw new TypeError(`Invalid ${name}: ${JSON.stringify(value)}`);
    }
    return encodeURIComponent(String(value));
  });
}

export const API_PREFIX = '/api/v1';
/** The server's default `AIDE_BODY_LIMIT_BYTES`. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * What resources talk to: a transport that adds the bearer token, renews it once on a 401 and checks
 * 2xx bodies against their schemas.
 */
export class ApiClient {
  constructor(
    readonly transport: Transport,
    readonly tokens: TokenManager,
    readonly validateResponses: boolean,
    /** The server's largest request body (`AIDE_BODY_LIMIT_BYTES`): batches are chunked below it. */
    readonly bodyLimitBytes: number = DEFAULT_BODY_LIMIT_BYTES,
  ) {}

  /**
   * Calls a route of the contract (`@aide/schemas`): its method and path, a JSON or form body, the
   * bearer token unless the route is anonymous, retries as its `safe`/idempotency flags allow, and the
   * answer checked against the schema of the status it came with.
   */
  async invoke<R extends RouteDef>(route: R, input: InvokeInput = {}): Promise<RouteResponseBody<R>> {
    const request: TransportRequest = {
      method: route.method,
      path: routePath(route, input.params),
      query: input.query,
      headers: input.headers,
      options: input.options,
      safe: route.safe,
      ...(route.body === undefined
        ? {}
        : route.bodyType === 'form'
          ? { form: input.body as Record<string, string> }
          : { json: input.body }),
    };
    const response =
      route.auth === 'anonymous' ? await this.transport.send(request) : await this.send(request);
    const schema = route.responses[response.status];
    if (!schema) return undefined as RouteResponseBody<R>;
    return parseResponse(schema, response, this.validateResponses, input.expected) as RouteResponseBody<R>;
  }

  /** An authenticated call whose 2xx body must match `schema` (named `expected` in errors). */
  async call<T extends z.ZodType>(
    request: TransportRequest,
    schema: T,
    expected?: string,
  ): Promise<z.output<T>> {
    const response = await this.send(request);
    return parseResponse(schema, response, this.validateResponses, expected);
  }

  /** An authenticated call whose body is ignored (204 answers). */
  async callVoid(request: TransportRequest): Promise<void> {
    await this.send(request);
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const token = await this.tokens.accessToken();
    try {
      return await this.transport.send(withBearer(request, token));
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      // A 401 means the request was not processed, so it can be sent again whatever its method.
      const renewed = await this.tokens.renew(token);
      if (renewed === undefined) throw error;
      return this.transport.send(withBearer(request, renewed));
    }
  }
}

function withBearer(request: TransportRequest, token: string): TransportRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
}
