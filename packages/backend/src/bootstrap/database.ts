import { join } from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config.js';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '../database/embedded-postgres.js';
import { quoteIdent, withDatabase } from '../database/naming.js';

export interface DatabaseTarget {
  url: string;
  embedded: EmbeddedPostgresHandle | undefined;
}

async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
  } finally {
    await client.end();
  }
}

/** DATABASE_URL when set; otherwise the embedded PostgreSQL under the data directory, database `aide`. */
export async function resolveDatabase(config: AppConfig, logger: Logger): Promise<DatabaseTarget> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: undefined };
  const dir = join(config.dataDir, 'pg');
  logger.info({ dir, port: config.embeddedPgPort }, 'starting embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres({
    dir,
    port: config.embeddedPgPort,
    onLog: (message) => logger.debug({ component: 'postgres' }, message.trim()),
  });
  await createDatabaseIfMissing(embedded.url, 'aide');
  return { url: withDatabase(embedded.url, 'aide'), embedded };
}
