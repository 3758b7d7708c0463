// Opens a connection for a parsed URL and runs the catalog queries through it: one connection (and a
// second in the same snapshot for PostgreSQL's concurrent queries),
// read-only work, driver errors turned into one clear line without secrets. PostgreSQL and MySQL go
// through knex; SQLite through the engine adapter of sqlite-engine.ts (better-sqlite3, node:sqlite or
// node-sqlite3-wasm).
import { existsSync } from 'node:fs';
import type { Knex } from 'knex';
import { CrawlerError, throwIfInterrupted } from '../errors.js';
import type { Dialect } from '../model.js';
import { loadSqliteEngine, type SqliteDatabase, type SqliteEngine } from './sqlite-engine.js';
import type { ConnectionTarget } from './url.js';

/** Runs catalog queries and counts them. */
export interface Catalog {
  readonly dialect: Dialect;
  /** Rows of one statement with positional `?` bindings. */
  query<Row>(sql: string, bindings?: readonly unknown[]): Promise<Row[]>;
  /** Statements run so far. */
  readonly queries: number;
  /**
   * Runs `work` on a second connection that reads this catalog's snapshot (PostgreSQL:
   * `pg_export_snapshot` here, `SET TRANSACTION SNAPSHOT` there, both REPEATABLE READ READ ONLY) while
   * this one goes on; `setup` runs there first, not counted (transaction-local settings do not travel
   * with a snapshot). Its queries count with this catalog's. Where the dialect shares no snapshot,
   * `work` runs on this catalog.
   */
  alongside<T>(setup: string, work: (catalog: Catalog) => Promise<T>): Promise<T>;
}

const CONNECT_TIMEOUT_MS = 15_000;

// knex logs driver errors (with stacks, and possibly connection details) itself: failures reach the
// user once, as a CrawlerError line, instead.
const silent = {
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  deprecate: () => undefined,
};

/** A knex configuration for the target (pooled connections, created lazily). */
export function knexConfig(target: ConnectionTarget): Knex.Config {
  return { ...dialectConfig(target), log: silent };
}

function dialectConfig(target: ConnectionTarget): Knex.Config {
  // PostgreSQL: two connections, the second reading the first one's snapshot (Catalog.alongside).
  const pool = { min: 0, max: target.dialect === 'postgresql' ? 2 : 1 };
  switch (target.dialect) {
    case 'postgresql':
      return {
        client: 'pg',
        connection: {
          connectionString: target.postgres!.connectionString,
          ...(target.postgres!.ssl === undefined ? {} : { ssl: target.postgres!.ssl }),
          application_name: 'aide-crawler',
          connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        },
        pool,
        acquireConnectionTimeout: CONNECT_TIMEOUT_MS + 5_000,
      };
    case 'mysql': {
      const m = target.mysql!;
      return {
        client: 'mysql2',
        connection: {
          host: m.host,
          port: m.port,
          user: m.user,
          password: m.password,
          database: m.database,
          socketPath: m.socketPath,
          charset: 'utf8mb4',
          connectTimeout: CONNECT_TIMEOUT_MS,
          // Catalog text only; keep numbers and dates as the server prints them.
          dateStrings: true,
          supportBigNumbers: true,
          bigNumberStrings: true,
        },
        pool,
        acquireConnectionTimeout: CONNECT_TIMEOUT_MS + 5_000,
      };
    }
    case 'sqlite':
      throw new Error('SQLite catalogs are read through the SQLite engine, not knex');
  }
}

/**
 * Connects and runs `work` against the catalog, inside one read-only transaction where the dialect
 * has transactional catalogs (PostgreSQL: one consistent snapshot; SQLite: one read transaction).
 * The connection is closed afterwards in every case.
 *
 * When `signal` aborts, the statement in flight is cancelled on the server (PostgreSQL
 * `pg_cancel_backend`, MySQL `KILL QUERY`, from a second short-lived connection; SQLite's statements
 * are synchronous and end first), no further statement starts, and the signal's reason is thrown.
 *
 * @throws CrawlerError with a one-line message (no secrets) when connecting or a query fails.
 */
export async function withCatalog<T>(
  target: ConnectionTarget,
  work: (catalog: Catalog) => Promise<T>,
  onKnex?: (knex: Knex) => void,
  signal?: AbortSignal,
): Promise<T> {
  throwIfInterrupted(signal);
  if (target.dialect === 'sqlite') return withSqliteCatalog(target, work, signal);
  // Imported here: knex (and through it the dialect's driver) loads only when a server is inspected.
  const { default: knexFactory } = await import('knex');
  const knex = knexFactory(knexConfig(target));
  onKnex?.(knex);
  let queries = 0;
  let answered = 0;
  // Each catalog's connection, and whether a statement runs on it: when the signal aborts, those
  // statements are cancelled on the server. MySQL's pooled connection is known from the pool's event.
  const lanes: Lane[] = [];
  let pooled: unknown = null;
  (
    knex.client as {
      pool?: { on(event: 'acquireSuccess', listener: (id: number, c: unknown) => void): void };
    }
  ).pool?.on('acquireSuccess', (_id, acquired) => (pooled = acquired));
  const cancelRunning = () => {
    for (const lane of lanes) {
      const connection = lane.connection();
      if (lane.running > 0 && connection !== null) {
        (knex.client as { cancelQuery(connection: unknown): Promise<unknown> })
          .cancelQuery(connection)
          .catch(() => undefined);
      }
    }
  };
  signal?.addEventListener('abort', cancelRunning, { once: true });
  // Second connections still working: awaited (their errors dropped) before the pool is destroyed, so
  // a failure is reported once, by the statement that failed first.
  const sides: Promise<unknown>[] = [];
  const raw = async (
    runner: Knex | Knex.Transaction,
    lane: Lane,
    sql: string,
    bindings: readonly unknown[],
  ): Promise<unknown> => {
    throwIfInterrupted(signal);
    lane.running++;
    try {
      const result: unknown = await runner.raw(sql, bindings as Knex.RawBinding[]);
      return result;
    } catch (error) {
      throwIfInterrupted(signal);
      // knex prefixes a failed statement's message with the whole SQL: keep the reason only.
      if (error instanceof Error && error.message.includes(' - ')) {
        error.message = error.message.slice(error.message.lastIndexOf(' - ') + 3);
      }
      throw error;
    } finally {
      lane.running--;
    }
  };
  const catalogOn = (runner: Knex | Knex.Transaction, lane: Lane): Catalog => {
    const catalog: Catalog = {
      dialect: target.dialect,
      get queries() {
        return queries;
      },
      async query<Row>(sql: string, bindings: readonly unknown[] = []): Promise<Row[]> {
        queries++;
        const result: unknown = await raw(runner, lane, sql, bindings);
        answered++;
        return rowsOf<Row>(target.dialect, result);
      },
      async alongside<A>(setup: string, work: (catalog: Catalog) => Promise<A>): Promise<A> {
        if (target.dialect !== 'postgresql') return work(catalog);
        const exported = await raw(runner, lane, 'SELECT pg_catalog.pg_export_snapshot() AS id', []);
        const id = rowsOf<{ id: string }>(target.dialect, exported)[0].id;
        // A utility statement takes no parameters; a snapshot id is hex digits and dashes.
        if (!/^[0-9A-F-]+$/i.test(id)) throw new Error(`unexpected snapshot id ${id}`);
        const side = transaction(async (trx, sideLane) => {
          await raw(trx, sideLane, `SET TRANSACTION SNAPSHOT '${id}'`, []);
          await raw(trx, sideLane, setup, []);
          return work(catalogOn(trx, sideLane));
        });
        sides.push(side.catch(() => undefined));
        return side;
      },
    };
    return catalog;
  };
  // A read-only REPEATABLE READ transaction on a connection of its own (the pool holds two).
  const transaction = <A>(work: (trx: Knex.Transaction, lane: Lane) => Promise<A>): Promise<A> =>
    knex.transaction(
      async (trx) => {
        const lane: Lane = { running: 0, connection: () => null };
        lanes.push(lane);
        // The transaction's client hands out its one connection.
        const connection = await (
          trx.client as { acquireConnection(): Promise<unknown> }
        ).acquireConnection();
        lane.connection = () => connection;
        return work(trx, lane);
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    );
  let failed = false;
  try {
    if (target.dialect === 'mysql') {
      const lane: Lane = { running: 0, connection: () => pooled };
      lanes.push(lane);
      return await work(catalogOn(knex, lane));
    }
    return await transaction((trx, lane) => work(catalogOn(trx, lane)));
  } catch (error) {
    failed = true;
    if (error instanceof CrawlerError) throw error;
    throwIfInterrupted(signal);
    const retry = answered === 0 ? fallbackOf(target, error) : null;
    if (retry !== null) {
      await settle(sides, cancelRunning);
      await knex.destroy().catch(() => undefined);
      return withCatalog(retry, work, onKnex, signal);
    }
    throw new CrawlerError(describeFailure(target, error, answered > 0), { cause: error });
  } finally {
    signal?.removeEventListener('abort', cancelRunning);
    if (failed) await settle(sides, cancelRunning);
    await knex.destroy().catch(() => undefined);
  }
}

/** A connection of {@link withCatalog} and the statements running on it (queued ones included). */
interface Lane {
  running: number;
  connection: () => unknown;
}

/** Cancels what still runs on the second connections (the work failed) and waits for them to end. */
async function settle(sides: readonly Promise<unknown>[], cancelRunning: () => void): Promise<void> {
  if (sides.length === 0) return;
  cancelRunning();
  await Promise.all(sides);
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
      query<Row>(sql: string, bindings: readonly unknown[] = []): Promise<Row[]> {
        return new Promise((resolve) => {
          throwIfInterrupted(signal);
          queries++;
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

function rowsOf<Row>(dialect: Dialect, result: unknown): Row[] {
  return dialect === 'postgresql' ? (result as { rows: Row[] }).rows : (result as [Row[], unknown])[0];
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
