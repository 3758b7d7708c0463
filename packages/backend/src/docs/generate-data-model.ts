// `node dist/docs/generate-data-model.js` (pnpm docs:data-model): migrates a throwaway database, reads its
// schema and writes docs/AIDE_data_model.json. The database is a fresh embedded PostgreSQL in a temp dir, or,
// when DATABASE_URL is set, a database created on that server for the run and dropped afterwards. Only this
// entry point exits.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource } from '../database/data-source.js';
import { startEmbeddedPostgres } from '../database/embedded-postgres.js';
import { quoteIdent, withDatabase } from '../database/naming.js';
import { withClient } from '../database/pg-client.js';
import { buildDataModel, DATA_MODEL_FILE, serializeDataModel } from './data-model.js';

async function admin(serverUrl: string, sql: string): Promise<void> {
  await withClient(serverUrl, (client) => client.query(sql));
}

async function generate(serverUrl: string): Promise<string> {
  const database = `aide_data_model_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE ${quoteIdent(database)}`);
  try {
    const dataSource = createDataSource({
      url: withDatabase(serverUrl, database),
      poolSize: 2,
      applicationName: 'aide-data-model',
    });
    await dataSource.initialize();
    try {
      await dataSource.runMigrations({ transaction: 'each' });
      return serializeDataModel(await buildDataModel(dataSource));
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await admin(serverUrl, `DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
  }
}

async function run(): Promise<void> {
  const external = process.env['DATABASE_URL'];
  if (external) {
    await writeFile(DATA_MODEL_FILE, await generate(external));
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'aide-data-model-pg-'));
  try {
    const embedded = await startEmbeddedPostgres({ dir, port: 0 });
    try {
      await writeFile(DATA_MODEL_FILE, await generate(embedded.url));
    } finally {
      await embedded.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

run().then(
  () => {
    process.stdout.write(`Wrote ${DATA_MODEL_FILE}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(
      `docs:data-model failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
