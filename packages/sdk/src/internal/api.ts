import type { z } from 'zod';
import { AuthenticationError } from '../core/errors.js';
import type { TokenManager } from './auth.js';
import { parseResponse } from './parse.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

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
