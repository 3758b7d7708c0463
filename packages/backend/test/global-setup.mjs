// Starts one PostgreSQL for the whole run (embedded, or DATABASE_URL's server when set), migrates a
// template database once and seeds the test users; each test file clones the template.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/bcrypt';
import { createDataSource } from '../dist/database/data-source.js';
import { startEmbeddedPostgres } from '../dist/database/embedded-postgres.js';
import { withDatabase } from '../dist/database/naming.js';
import { withClient } from '../dist/database/pg-client.js';
import { TEST_USERS, TEMPLATE_DB } from './test-users.mjs';

export default async function globalSetup() {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'aide-test-pg-'));
    const embedded = await startEmbeddedPostgres({ dir, port: 0 });
    globalThis.__AIDE_EMBEDDED_PG__ = embedded;
    serverUrl = embedded.url;
  }
  process.env.AIDE_TEST_SERVER_URL = serverUrl;

  await withClient(serverUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  });

  const dataSource = createDataSource({ url: withDatabase(serverUrl, TEMPLATE_DB), poolSize: 1 });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  for (const user of TEST_USERS) {
    await dataSource.query(
      `INSERT INTO users (id, email, hashed_password, full_name, is_superuser, user_type) VALUES ($1, $2, $3, $4, $5, $6)`,
      [user.id, user.email, await hash(user.password, 12), user.full_name, user.is_superuser, user.user_type],
    );
  }
  await dataSource.destroy();
}
