// The TypeORM entities describe the database the migrations build: on a freshly migrated database,
// TypeORM's schema builder (what `pnpm db:migration:generate` and `synchronize` would run) has nothing
// to do. Columns (type, length, nullability, default), primary keys, named foreign keys (with ON
// DELETE), unique and plain indexes and named checks are compared. Tables without an entity
// (auth_throttle, idempotency_keys, token_state_replicas) and expression indexes (uq_users_email on lower(email)) are
// outside TypeORM's view and owned by the migrations alone.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../src/database/data-source.js';
import { quoteIdent, withDatabase } from '../../src/database/naming.js';
import { withClient } from '../../src/database/pg-client.js';
import { TEMPLATE_DB } from '../test-users.mjs';

const serverUrl = process.env['AIDE_TEST_SERVER_URL'] as string;
const database = `aide_schema_${randomBytes(6).toString('hex')}`;
let dataSource: DataSource;

beforeAll(async () => {
  // The template is a fresh database with every migration applied (test/global-setup.mjs).
  await withClient(serverUrl, (client) =>
    client.query(`CREATE DATABASE ${quoteIdent(database)} TEMPLATE ${quoteIdent(TEMPLATE_DB)}`),
  );
  dataSource = createDataSource({ url: withDatabase(serverUrl, database), poolSize: 1 });
  await dataSource.initialize();
});
afterAll(async () => {
  await dataSource?.destroy();
  await withClient(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`),
  );
});

describe('entities and migrations', () => {
  it('the migrated database has no pending migration', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
  });

  it('TypeORM finds nothing to change between the entities and the migrated database', async () => {
    const sql = await dataSource.driver.createSchemaBuilder().log();
    const statements = sql.upQueries.map((q) => `${q.query};`);
    // On failure: each statement is what the entities would change in the migrated database. Fix the
    // entity (type, length, nullable, default, @Index/@Check/@ForeignKey name) when the migration is
    // right; when the entity is right, add a migration (up and down) doing what the statement says.
    expect({ statementsTypeOrmWouldRun: statements }).toEqual({ statementsTypeOrmWouldRun: [] });
  });
});
