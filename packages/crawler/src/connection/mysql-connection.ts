// MySQL/MariaDB's catalog connection, through knex and mysql2: one pooled connection, no transaction
// (MySQL's catalog is not transactional), `KILL QUERY` from a second connection when the signal aborts.
import type { Knex } from 'knex';
import { throwIfInterrupted } from '../errors.js';
import type { Catalog, QueryOptions, ServerCatalogOptions } from './catalog.js';
import type { ConnectionTarget } from './url.js';

const CONNECT_TIMEOUT_MS = 15_000;

// knex logs driver errors (with stacks, and possibly connection details) itself: failures reach the
// user once, as a CrawlerError line, instead.
const silent = {
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  deprecate: () => undefined,
};

/** A knex configuration for a MySQL target (one pooled connection, created lazily). */
export function knexConfig(target: ConnectionTarget): Knex.Config {
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
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: CONNECT_TIMEOUT_MS + 5_000,
    log: silent,
  };
}

/**
 * Runs `work` on a MySQL catalog; the driver's errors are thrown as they are (catalog.ts words them).
 * The connection is closed when this returns.
 */
export async function withMysqlCatalog<T>(
  target: ConnectionTarget,
  work: (catalog: Catalog) => Promise<T>,
  { onStatement, signal, progress }: ServerCatalogOptions,
): Promise<T> {
  // Imported here: knex (and through it mysql2) loads only when a MySQL server is inspected.
  const { default: knexFactory } = await import('knex');
  const knex = knexFactory(knexConfig(target));
  if (onStatement !== undefined) knex.on('query', (query: { sql: string }) => onStatement(query.sql));
  // The pooled connection, known from the pool's event, and whether a statement runs on it.
  let connection: unknown = null;
  let running = 0;
  (
    knex.client as {
      pool?: { on(event: 'acquireSuccess', listener: (id: number, c: unknown) => void): void };
    }
  ).pool?.on('acquireSuccess', (_id, acquired) => (connection = acquired));
  const cancelRunning = () => {
    if (running > 0 && connection !== null) {
      (knex.client as { cancelQuery(connection: unknown): Promise<unknown> })
        .cancelQuery(connection)
        .catch(() => undefined);
    }
  };
  signal?.addEventListener('abort', cancelRunning, { once: true });
  let queries = 0;
  const catalog: Catalog = {
    dialect: 'mysql',
    get queries() {
      return queries;
    },
    async query<Row>(sql: string, bindings: readonly unknown[] = [], options?: QueryOptions): Promise<Row[]> {
      throwIfInterrupted(signal);
      if (options?.part !== true) queries++;
      running++;
      try {
        const [rows] = (await knex.raw(sql, bindings as Knex.RawBinding[])) as [Row[], unknown];
        progress.answered++;
        return rows;
      } catch (error) {
        throwIfInterrupted(signal);
        // knex prefixes a failed statement's message with the whole SQL: keep the reason only.
        if (error instanceof Error && error.message.includes(' - ')) {
          error.message = error.message.slice(error.message.lastIndexOf(' - ') + 3);
        }
        throw error;
      } finally {
        running--;
      }
    },
    // MySQL shares no snapshot between connections: the work runs on this one.
    alongside: (_setup, sideWork) => sideWork(catalog),
  };
  try {
    return await work(catalog);
  } finally {
    signal?.removeEventListener('abort', cancelRunning);
    await knex.destroy().catch(() => undefined);
  }
}
