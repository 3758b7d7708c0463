import { QueryFailedError } from 'typeorm';

// Errors that say "the database is not there right now" rather than "this request is wrong": the server
// answers them with 503 DATABASE_UNAVAILABLE and Retry-After, and the pool reconnects on its own.

/** Socket-level failures reaching or talking to the server (Node's `error.code`). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server that is going away, starting, or out of connection slots. */
function isUnavailableSqlState(code: string): boolean {
  return (
    // connection_exception class, but not 08P01 protocol_violation: a request can cause that one
    // (e.g. too many bind parameters), and a retry would fail the same way.
    (code.startsWith('08') && code !== '08P01') ||
    code === '57P01' || // admin_shutdown
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now (starting up, shutting down, in recovery)
    code === '53300' // too_many_connections
  );
}

/** What node-postgres and pg-pool say when a connection died or could not be had in time. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/**
 * TypeORM's errors for a query on a query runner that was released: through the runner itself, and
 * through its EntityManager (`manager.query`, `manager.transaction`), which checks first. A transaction's
 * runner is released early only when its connection is lost — node-postgres reports the loss (e.g.
 * PostgreSQL's 57P01 notice, arriving right behind the answer to one statement) and TypeORM releases
 * the runner, so the transaction's next statement fails with one of these instead of a network error.
 * The backend never releases a runner itself: `Transactions.run` (TypeORM's `transaction`) does, once
 * the work has settled.
 */
const DRIVER_ERROR_NAMES = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

function isUnavailableOne(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || isUnavailableSqlState(code))) return true;
  if (typeof name === 'string' && DRIVER_ERROR_NAMES.has(name)) return true;
  return typeof message === 'string' && DRIVER_MESSAGES.some((m) => message.includes(m));
}

/**
 * Whether an error means the database could not be reached or the connection was lost (as opposed to a
 * query the database refused). Looks through TypeORM's QueryFailedError, `cause` chains and the
 * AggregateError Node raises when every address of a host refused.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || !error || typeof error !== 'object') return false;
  if (isUnavailableOne(error)) return true;
  if (error instanceof QueryFailedError && isDatabaseUnavailable(error.driverError, depth + 1)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (cause !== undefined && isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1));
}

/** Seconds a client should wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Whether PostgreSQL cancelled the statement (SQLSTATE 57014 query_canceled): its `statement_timeout`
 * passed (waiting on a lock included), or someone cancelled it (`pg_cancel_backend`).
 */
export function isStatementCancelled(error: unknown): boolean {
  const driverError: unknown = error instanceof QueryFailedError ? error.driverError : error;
  return (
    !!driverError && typeof driverError === 'object' && (driverError as { code?: unknown }).code === '57014'
  );
}
