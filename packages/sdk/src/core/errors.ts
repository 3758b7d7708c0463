import { ErrorResponseSchema, isErrorCode, type ErrorCode } from '@aide/schemas';
import type { z } from 'zod';
import type { BatchChunk } from '../internal/batch.js';

/**
 * Base class of every error the SDK throws, so `catch (e) { if (e instanceof AideError) ... }` catches
 * all of them and nothing else.
 */
export class AideError extends Error {
  override name = 'AideError';
}

/** The fields of an API error, as read from the response and its error envelope. */
export interface AideApiErrorInit {
  status: number;
  errorCode: ErrorCode | (string & {});
  detail: string;
  requestId: string | undefined;
  details: Record<string, unknown> | undefined;
  headers: Readonly<Record<string, string>>;
  /** `GET /api/v1/systems/...`, for the message. */
  route: string;
}

/**
 * The server answered with a non-2xx status. The subclass says which family (`NotFoundError`, ...);
 * `errorCode` says exactly what happened — branch on it, never on `detail` or `message`.
 */
export class AideApiError extends AideError {
  override name = 'AideApiError';
  /** HTTP status of the response. */
  readonly status: number;
  /**
   * The `error_code` of the envelope: one of the catalogue's codes (`ErrorCode` from `@aide/schemas`),
   * or another string when the response did not come from the API (a proxy's 502, for example:
   * `UNKNOWN`).
   */
  readonly errorCode: ErrorCode | (string & {});
  /** Human-readable explanation from the server. */
  readonly detail: string;
  /** `X-Request-ID` of the response (or the envelope's `request_id`): quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Structured details, e.g. `issues` of a `VALIDATION_ERROR`. */
  readonly details: Record<string, unknown> | undefined;
  /** Response headers, lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** Method and path of the request, e.g. `PATCH /api/v1/systems/…`. */
  readonly route: string;

  constructor(init: AideApiErrorInit) {
    super(
      `${init.status} ${init.errorCode}: ${init.detail} (${init.route}${init.requestId ? `, request ${init.requestId}` : ''})`,
    );
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.details = init.details;
    this.headers = init.headers;
    this.route = init.route;
  }

  /** True when `errorCode` is a code of the `@aide/schemas` catalogue (narrows it to `ErrorCode`). */
  hasKnownCode(): this is AideApiError & { errorCode: ErrorCode } {
    return isErrorCode(this.errorCode);
  }

  /**
   * Builds the error of a non-2xx response: parses the error envelope with the shared
   * `ErrorResponseSchema` and picks the subclass by status.
   */
  static fromResponse(args: {
    status: number;
    body: unknown;
    rawBody: string;
    headers: Readonly<Record<string, string>>;
    route: string;
  }): AideApiError {
    const envelope = ErrorResponseSchema.safeParse(args.body);
    const headerRequestId = args.headers['x-request-id'];
    const init: AideApiErrorInit = envelope.success
      ? {
          status: args.status,
          errorCode: envelope.data.error_code,
          detail: envelope.data.detail,
          requestId: headerRequestId ?? envelope.data.request_id,
          details: envelope.data.details,
          headers: args.headers,
          route: args.route,
        }
      : {
          status: args.status,
          errorCode: 'UNKNOWN',
          detail: args.rawBody.trim().slice(0, 500) || `HTTP ${args.status}`,
          requestId: headerRequestId,
          details: undefined,
          headers: args.headers,
          route: args.route,
        };
    const status = args.status;
    if (status === 400 || status === 422) return new ValidationError(init);
    if (status === 401) return new AuthenticationError(init);
    if (status === 403) return new PermissionDeniedError(init);
    if (status === 404) return new NotFoundError(init);
    if (status === 409) return new ConflictError(init);
    if (status === 429) return new RateLimitError(init);
    if (status >= 500) return new InternalServerError(init);
    return new AideApiError(init);
  }
}

/** 400 or 422: the request was refused as invalid (`VALIDATION_ERROR` carries `details.issues`). */
export class ValidationError extends AideApiError {
  override name = 'ValidationError';
}

/** 401: missing, invalid or expired credentials (`UNAUTHORIZED`, `INVALID_CREDENTIALS`, `REFRESH_TOKEN_*`). */
export class AuthenticationError extends AideApiError {
  override name = 'AuthenticationError';
}

/** 403: authenticated, but not allowed (`FORBIDDEN`), e.g. a regular user writing reference data. */
export class PermissionDeniedError extends AideApiError {
  override name = 'PermissionDeniedError';
}

/** 404: the entity (`*_NOT_FOUND`) or the route (`NOT_FOUND`) does not exist. */
export class NotFoundError extends AideApiError {
  override name = 'NotFoundError';
}

/**
 * 409: a duplicate (`*_ALREADY_EXISTS`), a stale `row_version` (`VERSION_CONFLICT`: reload and retry),
 * or an entity still in use (`HAS_DEPENDENT_ENTITIES`).
 */
export class ConflictError extends AideApiError {
  override name = 'ConflictError';
}

/** 429: throttled. `retryAfter` says how many seconds to wait, when the server said so. */
export class RateLimitError extends AideApiError {
  override name = 'RateLimitError';
  /** Seconds to wait before trying again (`Retry-After`, or the envelope's `details.retry_after`). */
  readonly retryAfter: number | undefined;

  constructor(init: AideApiErrorInit) {
    super(init);
    const header = init.headers['retry-after'];
    const fromHeader = header === undefined ? undefined : retryAfterSeconds(header);
    const fromDetails = init.details?.['retry_after'];
    this.retryAfter = fromHeader ?? (typeof fromDetails === 'number' ? fromDetails : undefined);
  }
}

/** 5xx: the server failed (`INTERNAL_SERVER_ERROR`, `SERVICE_UNAVAILABLE`, or a gateway's error). */
export class InternalServerError extends AideApiError {
  override name = 'InternalServerError';
}

/** No response: the connection could not be made or broke. `cause` is the underlying (undici) error. */
export class AideConnectionError extends AideError {
  override name = 'AideConnectionError';
  /** Method and path of the request. */
  readonly route: string;
  /** The `X-Request-ID` the SDK sent, to find the request in the server's logs if it got there. */
  readonly requestId: string | undefined;

  constructor(message: string, options: { cause?: unknown; route: string; requestId?: string | undefined }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.route = options.route;
    this.requestId = options.requestId;
  }
}

/** No response within `timeoutMs`. */
export class AideTimeoutError extends AideConnectionError {
  override name = 'AideTimeoutError';
}

/** The caller's `AbortSignal` fired. `cause` is the signal's reason. */
export class AideUserAbortError extends AideError {
  override name = 'AideUserAbortError';
}

/**
 * A 2xx response did not match the `@aide/schemas` contract: the SDK and the server disagree about the
 * wire format (different versions?). Names the route and carries the zod issues.
 */
export class AideContractError extends AideError {
  override name = 'AideContractError';
  readonly route: string;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(args: {
    route: string;
    status: number;
    requestId: string | undefined;
    issues: readonly z.core.$ZodIssue[];
    expected: string;
  }) {
    const shown = args.issues
      .slice(0, 5)
      .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    const more = args.issues.length > 5 ? `; and ${args.issues.length - 5} more` : '';
    super(
      `The response of ${args.route} (${args.status}) does not match the contract (${args.expected}): ${shown}${more}` +
        (args.requestId ? ` (request ${args.requestId})` : ''),
    );
    this.route = args.route;
    this.status = args.status;
    this.requestId = args.requestId;
    this.issues = args.issues;
  }
}

/**
 * A chunk of `createMany` failed. The chunks before it are committed (each chunk is its own
 * transaction) and those after it were not sent. `cause` is the chunk's error (`ValidationError`,
 * `ConflictError`, `AideConnectionError`, ...).
 */
export class AideBatchError<Read = unknown> extends AideError {
  override name = 'AideBatchError';
  /** The chunk that failed: `items.slice(failedChunk.start, failedChunk.end)` of the input. */
  readonly failedChunk: BatchChunk;
  /**
   * Positions in the input of the rows the server named as the cause (a validation issue's
   * `items.<i>`, two items with the same key), sorted; empty when it named none.
   */
  readonly rowIndexes: readonly number[];
  /** The chunks committed before the failure, in order. */
  readonly committed: readonly BatchChunk[];
  /** The entities the committed chunks created, in input order (`items.slice(0, failedChunk.start)`). */
  readonly created: readonly Read[];

  constructor(args: {
    cause: unknown;
    failedChunk: BatchChunk;
    rowIndexes: readonly number[];
    committed: readonly BatchChunk[];
    created: readonly Read[];
  }) {
    const rows = args.rowIndexes.length > 0 ? ` (item ${args.rowIndexes.join(', ')})` : '';
    const reason = args.cause instanceof Error ? args.cause.message : String(args.cause);
    super(
      `createMany: chunk ${args.failedChunk.index} (items ${args.failedChunk.start} to ${args.failedChunk.end - 1}) failed${rows}; ` +
        `${args.committed.length} earlier chunk(s), ${args.created.length} item(s), stay committed: ${reason}`,
      { cause: args.cause },
    );
    this.failedChunk = args.failedChunk;
    this.rowIndexes = args.rowIndexes;
    this.committed = args.committed;
    this.created = args.created;
  }

  /** The first row named as the cause, if any. */
  get rowIndex(): number | undefined {
    return this.rowIndexes[0];
  }
}

/** `Retry-After` as seconds: either delta-seconds or an HTTP date. Undefined when unparseable. */
export function retryAfterSeconds(value: string, now: number = Date.now()): number | undefined {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}
