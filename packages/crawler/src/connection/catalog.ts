// Opens the connections for a parsed URL and runs the catalog queries through them: read-only work,
// driver errors turned into one clear line without secrets. PostgreSQL goes through `pg`
// (postgres-connection.ts: several connections in one exported snapshot), MySQL through knex
// (mysql-connection.ts), SQLite through the engine adapter of sqlite-engine.ts (better-sqlite3,
// node:sqlite or node-sqlite3-wasm).
import { existsSync } from 'node:fs';
import { CrawlerError, throwIfInterrupted } from '../errors.js';
import type { Dialect } from '../model.js';
import { loadSqliteEngine, type SqliteDatabase, type SqliteEngine } from './sqlite-engine.js';
import type { ConnectionTarget } from './url.js';

/** Runs catalog queries and counts them. */
export interface Catalog {
  readonly dialect: Dialect;
  /**
   * Rows of one statement with positional `?` bindings. `part`: the statement is a further part of a
   * query split across connections, already counted (a query counts once however it is run).
   */
  query<Row>(sql: string, bindings?: readonly unknown[], options?: QueryOptions): Promise<Row[]>;
  /** Catalog queries run so far. */
  readonly queries: number;
  /**
   * Runs `work` on another connection that reads this catalog's snapshot (PostgreSQL:
   * `pg_export_snapshot` here, `SET TRANSACTION SNAPSHOT` there, both REPEATABLE READ READ ONLY) while
   * this one goes on; `setup` runs there first, not counted (transaction-local settings do not travel
   * with a snapshot). Its queries count with this catalog's. Each call has a connection of its own.
   * Where the dialect shares no snapshot, `work` runs on this catalog.
   */
  alongside<T>(setup: string, work: (catalog: Catalog) => Promise<T>): Promise<T>;
}

export interface QueryOptions {
  part?: boolean;
}

/** What {@link withCatalog} gives a server dialect's connection module. */
export interface ServerCatalogOptions {
  /** Called with every statement sent to the server, before it is sent. */
  onStatement?: (sql: string) => void;
  signal?: AbortSignal;
  /** Counts the catalog queries answered (a failure before the first is a connection failure). */
  progress: { answered: number };
}

/**
 * Connects and runs `work` against the catalog, inside one read-only transaction where the dialect
 * has transactional catalogs (PostgreSQL: one consistent snapshot; SQLite: one read transaction).
 * The connections are closed afterwards in every case.
 *
 * When `signal` aborts, the statements in flight are cancelled on the server (PostgreSQL
 * `pg_cancel_backend`, MySQL `KILL QUERY`, from a second short-lived connection; SQLite's statements
 * are synchronous and end first), no further statement starts, and the signal's reason is thrown.
 * `onStatement` sees every statement sent to a server (tests count them).
 *
 * @throws CrawlerError with a one-line message (no secrets) when connecting or a query fails.
 */
export async function withCatalog<T>(
  target: ConnectionTarget,
  work: (catalog: Catalog) => Promise<T>,
  onStatement?: (sql: string) => void,
  signal?: AbortSignal,
): Promise<T> {
  throwIfInterrupted(signal);
  if (target.dialect === 'sqlite') return withSqliteCatalog(target, work, signal);
  // Imported here: a dialect's driver loads only when a server of that dialect is inspected.
  const withServerCatalog =
    target.dialect === 'postgresql'
      ? (await import('./postgres-connection.js')).withPostgresCatalog
      : (await import('./mysql-connection.js')).withMysqlCatalog;
  const progress = { answered: 0 };
  try {
    return await withServerCatalog(target, work, { onStatement, signal, progress });
  } catch (error) {
    if (error instanceof CrawlerError) throw error;
    throwIfInterrupted(signal);
    const retry = progress.answered === 0 ? fallbackOf(target, error) : null;
    if (retry !== null) return withCatalog(retry, work, onStatement, signal);
    throw new CrawlerError(describeFailure(target, error, progress.answered > 0), { cause: error });
  }
}

/**
 * {@link withCatalog} for SQLite: the file opened read-only (it must exist) by the first engine that
 * loads, every statement in one read transaction. Statements are synchronous, so an abort takes
 * effect before the next one.
 */
export async function withSqliteCatalog<T>(
  target: ConnectionTarget,
  work: (catalog: Catalog) => Promise<T>,
  signal?: AbortSignal,
  engine: () => Promise<SqliteEngine> = () => loadSqliteEngine(),
): Promise<T> {
  const filename = target.sqlite!.filename;
  if (filename !== ':memory:' && !existsSync(filename)) {
    throw new CrawlerError(`SQLite database file not found: ${filename}`);
  }
  const opened = await engine();
  throwIfInterrupted(signal);
  let queries = 0;
  let answered = 0;
  let db: SqliteDatabase | null = null;
  try {
    db = opened.open(filename, { readonly: filename !== ':memory:' });
    const open = db;
    open.exec('BEGIN');
    const catalog: Catalog = {
      dialect: 'sqlite',
      get queries() {
        return queries;
      },
      query<Row>(sql: string, bindings: readonly unknown[] = [], options?: QueryOptions): Promise<Row[]> {
        return new Promise((resolve) => {
          throwIfInterrupted(signal);
          if (options?.part !== true) queries++;
          resolve(open.all<Row>(sql, bindings));
          answered++;
        });
      },
      alongside: (_setup, work) => work(catalog),
    };
    const result = await work(catalog);
    open.exec('COMMIT');
    return result;
  } catch (error) {
    if (error instanceof CrawlerError) throw error;
    throwIfInterrupted(signal);
    throw new CrawlerError(describeFailure(target, error, answered > 0), { cause: error });
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a read-only connection cannot lose anything.
    }
  }
}

/**
 * libpq's second attempt of `sslmode=prefer` (the server refused TLS: connect without) and of
 * `sslmode=allow` (the server refused a connection without TLS: connect with it); null otherwise.
 */
export function fallbackOf(target: ConnectionTarget, error: unknown): ConnectionTarget | null {
  const fallback = target.postgres?.fallback;
  if (fallback === undefined || !errorLike(error)) return null;
  const first = Array.isArray(error.errors) && errorLike(error.errors[0]) ? error.errors[0] : error;
  const refused =
    fallback.when === 'tls_refused'
      ? first.message.includes('does not support SSL')
      : first.code === '28000' && /no encryption|SSL off/.test(first.message);
  if (!refused) return null;
  const postgres = { ...target.postgres!, ssl: fallback.ssl };
  delete postgres.fallback;
  return { ...target, postgres };
}

const PRODUCT: Record<Dialect, string> = {
  postgresql: 'PostgreSQL',
  mysql: 'MySQL/MariaDB',
  sqlite: 'SQLite',
};

/** One line for a driver error: what failed, where (redacted URL), and the driver's reason. */
export function describeFailure(target: ConnectionTarget, error: unknown, connected: boolean): string {
  let reason = reasonOf(error);
  for (const secret of target.secrets) reason = reason.split(secret).join('***');
  const what = connected
    ? `reading the ${PRODUCT[target.dialect]} catalog failed`
    : `cannot connect to ${PRODUCT[target.dialect]}`;
  return `${what} at ${target.redacted}: ${reason}`;
}

/** An error-shaped value: checked by shape, since driver errors may come from another realm (a VM context). */
function errorLike(
  value: unknown,
): value is { name: string; message: string; code?: unknown; errors?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

function reasonOf(error: unknown): string {
  if (!errorLike(error)) return String(error);
  if (Array.isArray(error.errors) && error.errors.length > 0) return reasonOf(error.errors[0]);
  const code = error.code;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused (is the server running and listening there?)',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found (DNS lookup failed)',
    ETIMEDOUT: 'connection timed out',
    ECONNRESET: 'connection reset by the server',
  };
  if (typeof code === 'string' && code in known) return known[code];
  if (error.name === 'KnexTimeoutError') return 'timed out waiting for a connection';
  const message = (error.message.split('\n')[0] ?? '').trim();
  return message === '' ? (typeof code === 'string' ? code : String(error.name)) : message;
}
