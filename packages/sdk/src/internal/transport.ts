import type { Dispatcher } from 'undici';
import {
  AideApiError,
  AideConnectionError,
  AideError,
  AideTimeoutError,
  AideUserAbortError,
} from '../core/errors.js';
import type { RequestOptions } from '../core/request-options.js';
import { buildQuery, type QueryParams } from './query.js';
import {
  backoffMs,
  isIdempotent,
  MAX_RETRY_AFTER_MS,
  RETRYABLE_STATUSES,
  retryAfterMs,
  sleep,
} from './retry.js';

const MAX_TIMER_MS = 2_147_483_647;

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface TransportConfig {
  /** Origin plus an optional path prefix, without a trailing slash: `https://aide.example.com/registry`. */
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  userAgent: string;
  /** Node: the undici dispatcher every request goes through. */
  dispatcher?: Dispatcher | undefined;
  /**
   * Browsers (or any runtime with WHATWG fetch): requests go through this function instead of a
   * dispatcher. The page's origin rules apply; `User-Agent` is left to the runtime.
   */
  fetch?: typeof globalThis.fetch | undefined;
}

/** A gzip body as UTF-8 text, through the web-standard DecompressionStream (no Node-only import). */
async function gunzipText(bytes: ArrayBuffer): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return await new Response(stream).text();
}

/** A v4 UUID from Web Crypto (Node ≥ 19, browsers; `randomUUID` needs a secure context, this does not). */
function randomUUID(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface TransportRequest {
  method: HttpMethod;
  /** Path under the base URL, starting with `/`, without a query string. */
  path: string;
  query?: QueryParams | undefined;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded` (the login form). */
  form?: Readonly<Record<string, string>> | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  options?: RequestOptions | undefined;
  /**
   * A read sent as POST because its input is a body (`POST /cast-rules/resolve`): it writes nothing, so
   * it is retried like a GET, without an idempotency key.
   */
  safe?: boolean | undefined;
  /**
   * A 429 is retried (honouring `Retry-After`, within `maxRetries`) even though the request is not
   * otherwise retryable: the server refused it before doing anything (login and refresh, which are
   * POSTs without an idempotency key, throttled per client address and per account).
   */
  retryThrottled?: boolean | undefined;
}

export interface TransportResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
  requestId: string | undefined;
  /** `GET /api/v1/systems`, for messages. */
  route: string;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

// undici errors that are not about the network: a closed client or a bad argument is never retried.
const CLOSED_CODES = new Set(['UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);
const PROGRAMMER_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_INVALID_RETURN_VALUE',
  'UND_ERR_NOT_SUPPORTED',
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** undici reports some failures as an AggregateError with an empty message: name the code instead. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = errorCode(error);
  const message = error.message || (error instanceof AggregateError ? String(error.errors[0] ?? '') : '');
  return [code, message].filter((part) => part).join(': ') || error.name;
}

function normaliseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * 429/502/503/504, and the 409 a retry gets while the server still runs the first attempt of the same
 * idempotency key (it replays the stored answer once that attempt is done).
 */
function isRetryableAnswer(status: number, body: unknown): boolean {
  if (RETRYABLE_STATUSES.has(status)) return true;
  return (
    status === 409 &&
    (body as { error_code?: unknown } | undefined)?.error_code === 'IDEMPOTENCY_KEY_IN_PROGRESS'
  );
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The HTTP layer: one undici dispatcher, JSON in and out, timeouts, and the retry policy.
 *
 * Retry policy: a request is retried (at most `maxRetries` times) on a connection error, a timeout,
 * or a 429/502/503/504 answer — only when repeating it is safe: GET, HEAD, PUT, DELETE, OPTIONS and
 * reads sent as POST (`safe`) always, POST and PATCH only with an idempotency key (the server stores a
 * keyed POST's answer and replays it to the retry; while the first attempt still runs it answers 409
 * `IDEMPOTENCY_KEY_IN_PROGRESS`, which is retried too). Login and refresh are retried on a 429 only
 * (`retryThrottled`: refused before anything was done). The delay is the server's `Retry-After`
 * (seconds or HTTP date) when given, else exponential backoff with full jitter (0.5 s doubling to 8 s).
 * A `Retry-After` over 60 s is not waited for: the error surfaces with it.
 */
export class Transport {
  readonly #config: TransportConfig;
  readonly #origin: string;
  readonly #prefix: string;
  #closed = false;

  constructor(config: TransportConfig) {
    this.#config = config;
    const url = new URL(config.baseUrl);
    this.#origin = url.origin;
    this.#prefix = url.pathname.replace(/\/+$/, '');
  }

  get closed(): boolean {
    return this.#closed;
  }

  markClosed(): void {
    this.#closed = true;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    if (this.#closed) throw new AideError('The AideClient is closed.');
    const options = request.options ?? {};
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    const retryable =
      request.safe === true || isIdempotent(request.method) || options.idempotencyKey !== undefined;
    const requestId = options.requestId ?? randomUUID();
    const route = `${request.method} ${this.#prefix}${request.path}`;
    const path = `${this.#prefix}${request.path}${buildQuery(request.query)}`;

    const headers: Record<string, string> = {
      accept: 'application/json',
      // Large answers (a workspace snapshot) may come compressed; the rest come as they are.
      'accept-encoding': 'gzip',
      'user-agent': this.#config.userAgent,
      'x-request-id': requestId,
    };
    let body: string | undefined;
    if (request.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    for (const source of [request.headers, options.headers]) {
      for (const [name, value] of Object.entries(source ?? {})) headers[name.toLowerCase()] = value;
    }

    for (let attempt = 0; ; attempt++) {
      const retriesLeft = retryable && attempt < maxRetries;
      let raw: RawResponse;
      try {
        raw = await this.#attempt({ method: request.method, path, headers, body, route, requestId, options });
      } catch (error) {
        if (retriesLeft && error instanceof AideConnectionError) {
          await this.#pause(backoffMs(attempt), options.signal);
          continue;
        }
        throw error;
      }
      const responseHeaders = raw.headers;
      const parsed = parseBody(raw.text);
      // 304: a conditional read (If-None-Match) whose copy is current — an answer, not an error.
      if ((raw.status >= 200 && raw.status < 300) || raw.status === 304) {
        return {
          status: raw.status,
          headers: responseHeaders,
          body: parsed,
          requestId: responseHeaders['x-request-id'] ?? requestId,
          route,
        };
      }
      const throttledRetry = request.retryThrottled === true && raw.status === 429 && attempt < maxRetries;
      if ((retriesLeft && isRetryableAnswer(raw.status, parsed)) || throttledRetry) {
        const hint = retryAfterMs(responseHeaders['retry-after']);
        if (hint === undefined || hint <= MAX_RETRY_AFTER_MS) {
          await this.#pause(hint ?? backoffMs(attempt), options.signal);
          continue;
        }
      }
      throw AideApiError.fromResponse({
        status: raw.status,
        body: parsed,
        rawBody: raw.text,
        headers: { ...responseHeaders, 'x-request-id': responseHeaders['x-request-id'] ?? requestId },
        route,
      });
    }
  }

  async #pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await sleep(ms, signal);
    } catch (reason) {
      throw new AideUserAbortError('The request was aborted.', { cause: reason });
    }
  }

  async #attempt(args: {
    method: HttpMethod;
    path: string;
    headers: Record<string, string>;
    body: string | undefined;
    route: string;
    requestId: string;
    options: RequestOptions;
  }): Promise<RawResponse> {
    const userSignal = args.options.signal;
    if (userSignal?.aborted)
      throw new AideUserAbortError('The request was aborted.', { cause: userSignal.reason });
    // setTimeout fires at once for delays beyond 2^31-1 ms (about 24.8 days).
    const timeoutMs = Math.min(args.options.timeoutMs ?? this.#config.timeoutMs, MAX_TIMER_MS);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onUserAbort = () => controller.abort(userSignal?.reason);
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    try {
      if (this.#config.fetch) return await this.#fetch(this.#config.fetch, args, controller.signal);
      if (!this.#config.dispatcher) throw new AideError('The transport has neither a dispatcher nor fetch.');
      const response = await this.#config.dispatcher.request({
        origin: this.#origin,
        path: args.path,
        method: args.method,
        headers: args.headers,
        body: args.body ?? null,
        signal: controller.signal,
      });
      // The whole body is read under the same timer: a server that stalls mid-body times out too.
      const headers = normaliseHeaders(response.headers);
      const text = /\bgzip\b/i.test(headers['content-encoding'] ?? '')
        ? await gunzipText(await response.body.arrayBuffer())
        : await response.body.text();
      return { status: response.statusCode, headers, text };
    } catch (error) {
      if (userSignal?.aborted)
        throw new AideUserAbortError('The request was aborted.', { cause: userSignal.reason });
      if (timedOut) {
        throw new AideTimeoutError(`${args.route}: no complete response within ${timeoutMs} ms`, {
          cause: error,
          route: args.route,
          requestId: args.requestId,
        });
      }
      const code = errorCode(error);
      if (code !== undefined && CLOSED_CODES.has(code))
        throw new AideError('The AideClient is closed.', { cause: error });
      if (code !== undefined && PROGRAMMER_CODES.has(code)) throw error;
      throw new AideConnectionError(`${args.route}: connection failed (${describe(error)})`, {
        cause: error,
        route: args.route,
        requestId: args.requestId,
      });
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  /** One attempt through WHATWG fetch; failures surface as the undici path's do (classified by the caller). */
  async #fetch(
    fetchFn: typeof globalThis.fetch,
    args: { method: HttpMethod; path: string; headers: Record<string, string>; body: string | undefined },
    signal: AbortSignal,
  ): Promise<RawResponse> {
    const headers = { ...args.headers };
    // Browsers refuse to let a page set User-Agent; leaving it out keeps fetch from complaining.
    delete headers['user-agent'];
    const response = await fetchFn(`${this.#origin}${args.path}`, {
      method: args.method,
      headers,
      body: args.body ?? null,
      signal,
      credentials: 'omit',
    });
    const text = await response.text();
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return { status: response.status, headers: out, text };
  }
}
