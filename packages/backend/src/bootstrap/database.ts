import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config.js';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '../database/embedded-postgres.js';
import { quoteIdent, withDatabase } from '../database/naming.js';
import { withClient } from '../database/pg-client.js';

export interface DatabaseTarget {
  url: string;
  embedded: EmbeddedPostgresHandle | undefined;
}

async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
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
    onNotice: (message) => logger.warn({ component: 'postgres' }, message),
  });
  logger.info(
    { dataDir: embedded.dataDir, passwordFile: embedded.passwordFile },
    'embedded PostgreSQL ready (loopback only; superuser password in passwordFile)',
  );
  await createDatabaseIfMissing(embedded.url, 'aide');
  return { url: withDatabase(embedded.url, 'aide'), embedded };
}
