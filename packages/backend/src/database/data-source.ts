import 'reflect-metadata';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';
import { CONNECT_TIMEOUT_MS } from './pg-client.js';

export interface DataSourceConfig {
  url: string;
  poolSize?: number;
  applicationName?: string;
  /**
   * Called when an idle pooled connection dies (server restart, terminated backend). The pool drops
   * it and connects anew on the next query; this only reports it. Default: ignored.
   */
  onPoolError?: (error: Error) => void;
  /**
   * PostgreSQL's JIT compiler for this pool's sessions. Off by default: the registry's statements are
   * short, and the planner's cost estimates for set-based reads over many versions (lateral index
   * lookups, recursive type trees) pass the JIT thresholds, where compiling costs more than running —
   * 200 ms of a 280 ms snapshot query on a page of 1,000 datasets (ADR 0028).
   */
  jit?: boolean;
}

/** The one DataSource definition, for the app, the CLI and tests. `synchronize` is never on. */
export function createDataSource(config: DataSourceConfig): DataSource {
  const options: DataSourceOptions = {
    type: 'postgres',
    url: config.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    // Rows are hydrated into Object.create(prototype), not `new Entity()`: entities have no
    // constructors or initialisers, and ES2022 class fields would define every declared property
    // (undefined) on each instance first, only to be overwritten (~1.4 µs a row on a GET-by-id).
    entitySkipConstructor: true,
    applicationName: config.applicationName ?? 'aide-metastore',
    poolSize: config.poolSize ?? 10,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    // keepAlive: a server that vanished without closing the socket is noticed by the OS.
    extra: { max: config.poolSize ?? 10, keepAlive: true, options: `-c jit=${config.jit ? 'on' : 'off'}` },
    poolErrorHandler: (error: Error) => config.onPoolError?.(error),
  };
  return new DataSource(options);
}

/**
 * A pooled client that is checked out but between statements (a transaction waiting on the service,
 * a prepared read about to be released) has no 'error' listener of the pool's: when PostgreSQL ends
 * its session then (a restart, `pg_terminate_backend`), pg emits 'error' on the client and, unheard,
 * it kills the process. Every client gets a listener as it is acquired; the holder's next statement
 * fails as usual and the pool drops the broken client on release. Call after `initialize()`.
 */
export function guardCheckedOutClients(dataSource: DataSource, onError: (error: Error) => void): void {
  const pool = (
    dataSource.driver as unknown as { master?: { on(event: string, fn: (c: unknown) => void): void } }
  ).master;
  if (!pool) return;
  const guarded = new WeakSet<object>();
  const guard = (client: unknown) => {
    const c = client as { on(event: 'error', fn: (error: Error) => void): void };
    if (guarded.has(c)) return;
    guarded.add(c);
    c.on('error', onError);
  };
  pool.on('connect', guard);
  pool.on('acquire', guard);
}

/** For the TypeORM CLI (`pnpm db:migration:generate`): reads DATABASE_URL. */
export default createDataSource({
  url: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/aide',
});
