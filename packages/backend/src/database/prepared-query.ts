import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import {
  type DataSource,
  type EntityManager,
  type EntityMetadata,
  type EntityTarget,
  type ObjectLiteral,
  QueryFailedError,
} from 'typeorm';
import { isDatabaseUnavailable } from './connection-errors.js';

// Hot-path reads straight through the pg Pool underneath TypeORM: one named (prepared) statement per
// SQL text, no QueryRunner, no query builder. Used by the auth guard (every request) and by
// findActive outside transactions. Same pool, same connections, same type parsers as TypeORM.
// `preparingQueries` does the same for the statements of one transaction (the OpenLineage intake).

const statementNames = new Map<string, string>();

/**
 * Distinct SQL texts given a name, at most: each is prepared once per connection and kept by it (and
 * by pg's client) for the connection's life, so only constant texts may be named; past the bound a
 * text runs unnamed (a text built per call, by mistake, cannot grow the sessions without end).
 */
const MAX_STATEMENT_NAMES = 1000;

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (!name) {
    if (statementNames.size >= MAX_STATEMENT_NAMES) return undefined;
    name = `aide_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** The pg Pool of TypeORM's postgres driver, or undefined (other driver, not initialised). */
function pgPool(dataSource: DataSource): Pool | undefined {
  if (!dataSource.isInitialized || dataSource.options.type !== 'postgres') return undefined;
  const master = (dataSource.driver as unknown as { master?: Pool }).master;
  return master && typeof master.connect === 'function' ? master : undefined;
}

/**
 * Runs a parameterised query (a read, or a statement of its own outside any transaction) as a prepared
 * statement on a pooled connection and returns its rows. Errors behave as through `dataSource.query()`: a failed query is a QueryFailedError, a
 * failed connect is the driver's error. Falls back to `dataSource.query()` off PostgreSQL.
 */
export function queryPrepared<R>(dataSource: DataSource, text: string, values: unknown[]): Promise<R[]> {
  const pool = pgPool(dataSource);
  const name = statementName(text);
  if (!pool || !name) return dataSource.query<R[]>(text, values);
  return runOnPool<R>(pool, { name, text }, values);
}

/** Clients given the `error` listener a checked-out client needs (see `runOnPool`). */
const watched = new WeakSet<PoolClient>();
function ignoreClientError(): void {}

/**
 * One named statement on a pooled connection: connect, run and release in callbacks, behind one
 * promise (every await on the hot path costs a microtask and a promise). A checked-out client has none
 * of the pool's listeners, and pg emits `error` on the client (and fails its query) when the connection
 * drops: each client gets one listener for good, instead of one added and removed per query. pg marks
 * such a client not queryable, and the pool destroys it on release instead of pooling it.
 */
function runOnPool<R>(
  pool: Pool,
  statement: { name: string; text: string },
  values: unknown[],
): Promise<R[]> {
  return new Promise<R[]>((resolve, reject) => {
    pool.connect((connectError, client, release) => {
      // A failed connect is passed on as it is, as through `dataSource.query()`.
      if (connectError || !client) return reject(connectError ?? new Error('no client'));
      if (!watched.has(client)) {
        watched.add(client);
        client.on('error', ignoreClientError);
      }
      client.query<R & QueryResultRow>(
        { name: statement.name, text: statement.text, values },
        (error, result) => {
          // Released with the error, a dead connection is destroyed instead of going back to the pool.
          release(error && isDatabaseUnavailable(error) ? error : undefined);
          if (error) reject(new QueryFailedError(statement.text, values, error));
          else resolve(result.rows);
        },
      );
    });
  });
}

/**
 * A prepared-statement version of `findActive` for entities whose rows map to plain columns (no
 * relations, embeddeds, inheritance, listeners or subscribers); undefined when the entity is not
 * such a one, and the query builder is used instead. Hydration goes through the driver's
 * `prepareHydratedValue`, as in TypeORM's own result transformer.
 */
export function compileFastFind<E>(
  dataSource: DataSource,
  entity: EntityTarget<E>,
  softDelete: boolean,
): ((id: string) => Promise<E | undefined>) | undefined {
  if (!pgPool(dataSource) || dataSource.subscribers.length > 0 || dataSource.options.typename)
    return undefined;
  const opts = dataSource.options as { logging?: unknown; maxQueryExecutionTime?: number; cache?: unknown };
  if (opts.logging || opts.maxQueryExecutionTime || opts.cache) return undefined;
  const metadata: EntityMetadata = dataSource.getMetadata(entity);
  const plain =
    metadata.tableType === 'regular' &&
    metadata.relations.length === 0 &&
    metadata.embeddeds.length === 0 &&
    !metadata.discriminatorColumn &&
    metadata.childEntityMetadatas.length === 0 &&
    metadata.afterLoadListeners.length === 0 &&
    metadata.primaryColumns.length === 1 &&
    metadata.primaryColumns[0]?.propertyName === 'id' &&
    metadata.columns.every(
      (c) => !c.isVirtual && !c.isVirtualProperty && !c.relationMetadata && !c.embeddedMetadata,
    );
  if (!plain) return undefined;
  const driver = dataSource.driver;
  // As the query builder's default selection: `select: false` columns are neither read nor set.
  const columns = metadata.columns.filter((c) => c.isSelect);
  const table = metadata.schema
    ? `${driver.escape(metadata.schema)}.${driver.escape(metadata.tableName)}`
    : driver.escape(metadata.tableName);
  const idColumn = driver.escape(metadata.primaryColumns[0].databaseName);
  const text =
    `SELECT ${columns.map((c) => driver.escape(c.databaseName)).join(', ')} FROM ${table} ` +
    `WHERE ${idColumn} = $1${softDelete ? ' AND deleted_at IS NULL' : ''}`;
  const pool = pgPool(dataSource)!;
  const name = statementName(text);
  if (!name) return undefined;
  const statement = { name, text };
  const hydrate = (rows: Record<string, unknown>[]): E | undefined => {
    const row = rows[0];
    if (!row) return undefined;
    const result = metadata.create(undefined, { fromDeserializer: true }) as E & ObjectLiteral;
    let hasData = false;
    for (const column of columns) {
      const value = row[column.databaseName];
      if (value === undefined) continue;
      if (value !== null) hasData = true;
      column.setEntityValue(result, driver.prepareHydratedValue(value, column));
    }
    return hasData ? result : undefined;
  };
  return (id: string) => runOnPool<Record<string, unknown>>(pool, statement, [id]).then(hydrate);
}

/** The pg client a query runner holds (TypeORM's `connect()` answers the one it has). */
interface PgClientLike {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
  }): Promise<{ command: string; rows: unknown[]; rowCount: number | null }>;
}

/**
 * `m` with its `query()` run as named (prepared) statements on the connection of its transaction, so
 * that PostgreSQL parses and plans each SQL text once per connection instead of once per call (the
 * OpenLineage intake sends a few dozen statements per event, and planning them cost as much as running
 * them: ADR 0056). Answers and errors are those of `m.query()`: rows (for UPDATE and DELETE `[rows,
 * count]`, as TypeORM's postgres driver gives them), a failed statement a QueryFailedError. Everything
 * else (repositories, query builders) goes through `m` unchanged. `m` must be bound to a query runner
 * (a transaction's manager) on PostgreSQL; otherwise it is answered as it is.
 */
export function preparingQueries(m: EntityManager): EntityManager {
  const runner = m.queryRunner;
  if (!runner || m.connection.options.type !== 'postgres') return m;
  const prepared: EntityManager = Object.create(m) as EntityManager;
  const query = async <T>(text: string, values: unknown[] = []): Promise<T> => {
    const name = statementName(text);
    if (!name || runner.isReleased) return m.query<T>(text, values);
    const client = (await runner.connect()) as PgClientLike;
    try {
      const raw = await client.query({ name, text, values });
      const answer =
        raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows;
      return answer as T;
    } catch (error) {
      throw new QueryFailedError(text, values, error as Error);
    }
  };
  Object.defineProperty(prepared, 'query', { value: query });
  return prepared;
}
