// A uniquely named PostgreSQL database per test file on the machine's server (AIDE_TEST_PG_URL).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_ADMIN_URL = process.env['AIDE_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestPgDatabase {
  name: string;
  /** The database's URL as the admin user; `as(user, password)` for another role. */
  url: string;
  as(user: string, password: string): string;
  /** Runs SQL (several statements allowed) as the admin user in this database. */
  exec<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
}

function urlFor(database: string, user?: string, password?: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  if (user !== undefined) url.username = encodeURIComponent(user);
  if (password !== undefined) url.password = encodeURIComponent(password);
  return url.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function uniqueName(label: string): string {
  return `aide_crawler_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function createPgDatabase(label: string): Promise<TestPgDatabase> {
  const name = uniqueName(label);
  await adminQuery(`CREATE DATABASE ${name}`);
  const client = new pg.Client({ connectionString: urlFor(name) });
  client.on('error', () => undefined);
  await client.connect();
  return {
    name,
    url: urlFor(name),
    as: (user, password) => urlFor(name, user, password),
    async exec<Row>(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params);
      // A multi-statement string answers an array of results: the last one's rows.
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return (last as pg.QueryResult).rows as Row[];
    },
    async drop() {
      await client.end();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Runs SQL on the admin database (roles are cluster-wide). */
export const execAdmin = adminQuery;
