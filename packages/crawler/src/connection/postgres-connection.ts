// PostgreSQL's catalog connections, through `pg` directly (no knex: importing it cost ~0.25–0.3 s of
// every inspection's start-up, ADR 0041 amendment). One connection opens the REPEATABLE READ READ
// ONLY transaction and exports its snapshot; the others (connected meanwhile) import it, so every
// query reads one consistent catalog. Cancellation: `pg_cancel_backend` of each connection with a
// statement in flight, from a short-lived connection of its own.
import { createRequire } from 'node:module';
import type { Client, ClientConfig } from 'pg';
import { throwIfInterrupted } from '../errors.js';
import type { Catalog, QueryOptions, ServerCatalogOptions } from './catalog.js';
import type { ConnectionTarget } from './url.js';

const CONNECT_TIMEOUT_MS = 15_000;

/**
 * Connections opened with the first, before they are asked for: `inspectPostgres` reads on two
 * besides the first (relations and keys on one, half the columns on the other).
 */
const SPARE_CONNECTIONS = 2;

const BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** `pg`'s options for the target: TLS as url.ts resolved it from `sslmode`. */
export function pgClientConfig(target: ConnectionTarget): ClientConfig {
  const postgres = target.postgres!;
  return {
    connectionString: postgres.connectionString,
    ...(postgres.ssl === undefined ? {} : { ssl: postgres.ssl }),
    application_name: 'aide-crawler',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  };
}

/** A connection and the statements in flight on it (cancelled when the signal aborts). */
interface Session {
  client: Client;
  connected: Promise<unknown>;
  running: number;
}

const ignore = () => undefined;

/**
 * Runs `work` on a PostgreSQL catalog; the driver's errors are thrown as they are (catalog.ts words
 * them). Every connection is closed, and every second connection's work has ended, when this returns.
 */
export async function withPostgresCatalog<T>(
  target: ConnectionTarget,
  work: (catalog: Catalog) => Promise<T>,
  { onStatement, signal, progress }: ServerCatalogOptions,
): Promise<T> {
  // Loaded here: pg loads only when a PostgreSQL server is inspected.
  const pg = loadPg();
  const config = pgClientConfig(target);
  const sessions: Session[] = [];
  const open = (): Session => {
    const client = new pg.Client(config);
    // A connection's failure reaches the statement that needs it; an idle one's is of no interest.
    client.on('error', ignore);
    const connected = client.connect();
    connected.catch(ignore);
    const session: Session = { client, connected, running: 0 };
    sessions.push(session);
    return session;
  };
  const main = open();
  const spares = Array.from({ length: SPARE_CONNECTIONS }, open);

  const cancellations: Promise<unknown>[] = [];
  const cancelRunning = () => {
    for (const { client, running } of sessions) {
      // The backend's process id, known once connected (pg's types do not declare it).
      const pid = (client as { processID?: number | null }).processID;
      if (running > 0 && typeof pid === 'number') {
        cancellations.push(cancelBackend(new pg.Client(config), pid));
      }
    }
  };
  signal?.addEventListener('abort', cancelRunning, { once: true });

  const send = async <Row>(session: Session, sql: string, bindings: readonly unknown[]): Promise<Row[]> => {
    throwIfInterrupted(signal);
    await session.connected;
    throwIfInterrupted(signal);
    session.running++;
    onStatement?.(sql);
    try {
      return (await session.client.query(sql, bindings as unknown[])).rows as Row[];
    } catch (error) {
      throwIfInterrupted(signal);
      throw error;
    } finally {
      session.running--;
    }
  };

  let queries = 0;
  let snapshot: Promise<string> | undefined;
  // Second connections' work: awaited (their errors dropped) before the connections close, so a
  // failure is reported once, by the statement that failed first.
  const sides: Promise<unknown>[] = [];
  const alongside = <A>(setup: string, sideWork: (catalog: Catalog) => Promise<A>): Promise<A> => {
    // Sent now, so that it is queued before whatever the caller sends next on the first connection.
    snapshot ??= send<{ id: string }>(main, 'SELECT pg_catalog.pg_export_snapshot() AS id', []).then(
      ([{ id }]) => {
        // A utility statement takes no parameters; a snapshot id is hex digits and dashes.
        if (!/^[0-9A-F-]+$/i.test(id)) throw new Error(`unexpected snapshot id ${id}`);
        return id;
      },
    );
    const session = spares.shift() ?? open();
    const side = (async () => {
      const id = await snapshot;
      // The snapshot is imported by the transaction's first statement; both in one round trip.
      await send(session, `${BEGIN}; SET TRANSACTION SNAPSHOT '${id}'`, []);
      await send(session, setup, []);
      return sideWork(catalogOn(session));
    })();
    sides.push(side.catch(ignore));
    return side;
  };
  const catalogOn = (session: Session): Catalog => ({
    dialect: 'postgresql',
    get queries() {
      return queries;
    },
    async query<Row>(sql: string, bindings: readonly unknown[] = [], options?: QueryOptions): Promise<Row[]> {
      if (options?.part !== true) queries++;
      const rows = await send<Row>(session, positional(sql), bindings);
      progress.answered++;
      return rows;
    },
    alongside,
  });

  let failed = false;
  try {
    await send(main, BEGIN, []);
    return await work(catalogOn(main));
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    signal?.removeEventListener('abort', cancelRunning);
    if (failed && sides.length > 0) {
      // What still runs on the other connections is of no use: cancelled, and awaited.
      cancelRunning();
      await Promise.all(sides);
    }
    await Promise.all(cancellations);
    await Promise.all(sessions.map(close));
  }
}

const require = createRequire(import.meta.url);

/**
 * `pg`, required synchronously with the global `Response` hidden. Where there is no `navigator`
 * (Node 20), pg's module looks for Cloudflare Workers by constructing a fetch `Response`, which loads
 * Node's bundled undici: ~30 ms of CPU before the first connection (ADR 0060). Synchronous, so no
 * other code runs while `Response` is hidden; its lazy getter is put back untouched.
 */
function loadPg(): typeof import('pg') {
  const response = Object.getOwnPropertyDescriptor(globalThis, 'Response');
  const hide = !('navigator' in globalThis) && response?.configurable === true;
  if (hide)
    Object.defineProperty(globalThis, 'Response', { value: undefined, configurable: true, writable: true });
  try {
    return require('pg') as typeof import('pg');
  } finally {
    if (hide) Object.defineProperty(globalThis, 'Response', response);
  }
}

/** Closes a connection (a read-only transaction left open ends with it), once its connecting ended. */
async function close({ client, connected }: Session): Promise<void> {
  try {
    await connected;
  } catch {
    return;
  }
  await client.end().catch(ignore);
}

/** Cancels the statement running in backend `pid`, from `client` (a connection of its own). */
async function cancelBackend(client: Client, pid: number): Promise<void> {
  client.on('error', ignore);
  try {
    await client.connect();
    await client.query('SELECT pg_catalog.pg_cancel_backend($1)', [pid]);
  } catch {
    // The statement ends anyway when its connection closes.
  } finally {
    await client.end().catch(ignore);
  }
}

/**
 * The catalog's positional `?` bindings as PostgreSQL's `$1`, `$2`, …; a `?` in a string literal or
 * a comment is left alone.
 */
export function positional(sql: string): string {
  let n = 0;
  return sql.replace(/'(?:[^']|'')*'|--[^\n]*|\?/g, (match) => (match === '?' ? `$${++n}` : match));
}
