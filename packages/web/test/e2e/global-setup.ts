// Starts the real backend for the browser tests: an embedded PostgreSQL (or DATABASE_URL's server, in
// a database of its own), then `node ../backend/dist/main.js` (../backend/test/support/backend-server.mjs) serving this package's dist/ at /ui,
// migrated and seeded, with a known superuser and a small catalogue made through @aide/sdk.
// The package's test script builds the backend, the SDK and the UI first.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AideClient } from '@aide/sdk';
import type { TestProject } from 'vitest/node';
import {
  type BackendServer,
  createDatabase,
  dropDatabase,
  startBackendServer,
  startPostgres,
} from '../../../backend/test/support/backend-server.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const webDist = join(here, '..', '..', 'dist');
export const ADMIN = { email: 'web-admin@example.com', password: 'web-admin-password-1' };
export const READER = { email: 'web-reader@example.com', password: 'web-reader-password-1' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    admin: { email: string; password: string };
    reader: { email: string; password: string };
    datasetName: string;
  }
}

/**
 * A small catalogue: versions to compare, a lineage hop with a column link (orders.id to
 * orders_copy.id), and a regular (non-superuser) user.
 */
async function seed(baseUrl: string): Promise<string> {
  // fetch: the undici alias of vite.config.ts applies here too.
  const client = new AideClient({ baseUrl, username: ADMIN.email, password: ADMIN.password, fetch });
  const flavor = (await client.systemFlavors.list({ code: 'postgres14' })).items[0];
  if (!flavor) throw new Error('the seeded flavor postgres14 is missing');
  const system = await client.systems.create({
    code: 'shop_pg',
    name: 'Shop database',
    flavor_id: flavor.id,
  });
  const dataset = (name: string, layer: 'source' | 'raw') =>
    client.datasets.create({
      kind: 'rdbms',
      system_id: system.id,
      object_name: `public.${name}`,
      schema_name: 'public',
      table_name: name,
      layer,
    });
  const orders = await dataset('orders', 'source');
  const first = await client.datasets.publishSchemaVersion(orders.id, {
    columns: [
      { name: 'id', nullable: false, type: { data_type: 'integer' } },
      { name: 'customer_email', type: { data_type: 'text' } },
      { name: 'amount', type: { data_type: 'integer' } },
    ],
  });
  await client.datasets.publishSchemaVersion(orders.id, {
    columns: [
      { name: 'id', nullable: false, type: { data_type: 'bigint' } },
      { name: 'customer_email', type: { data_type: 'text' } },
      { name: 'placed_at', type: { data_type: 'timestamp' } },
    ],
  });
  const copy = await dataset('orders_copy', 'raw');
  const copyVersion = await client.datasets.publishSchemaVersion(copy.id, {
    columns: [{ name: 'id', nullable: false, type: { data_type: 'bigint' } }],
  });
  const current = await client.datasets.schemaVersions(orders.id);
  const link = await client.datasetLinks.create({
    source_dataset_id: orders.id,
    target_dataset_id: copy.id,
    source_schema_id: current[0]?.dataset_schema_id ?? first.version.dataset_schema_id,
    target_schema_id: copyVersion.version.dataset_schema_id,
  });
  const idOf = async (datasetId: string, num: number) =>
    (await client.datasets.schemaVersion(datasetId, num)).columns.find((c) => c.name === 'id')?.field_id ??
    '';
  await client.datasetLinks.addFieldLink(link.id, {
    source_field_id: await idOf(orders.id, current[0]?.version_num ?? 2),
    target_field_id: await idOf(copy.id, copyVersion.version.version_num),
  });
  await client.users.create({ email: READER.email, password: READER.password, is_superuser: false });
  for (let i = 0; i < 30; i++) await dataset(`events_${String(i).padStart(2, '0')}`, 'raw');
  await client.close();
  return orders.object_name;
}

export default async function setup(project: TestProject) {
  if (!existsSync(join(webDist, 'index.html')))
    throw new Error(`${webDist} is not built: run vite build first`);
  const tempDir = mkdtempSync(join(tmpdir(), 'aide-web-test-'));
  const postgres = await startPostgres(join(tempDir, 'pg'));
  const database = `aide_web_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  let server: BackendServer | undefined;
  const teardown = async () => {
    await server?.stop();
    await dropDatabase(postgres.url, database);
    await postgres.stop();
    rmSync(tempDir, { recursive: true, force: true });
  };
  try {
    server = await startBackendServer({
      databaseUrl: await createDatabase(postgres.url, database),
      superuser: ADMIN,
      env: { AIDE_WEB_DIR: webDist },
    });
    const datasetName = await seed(server.baseUrl);
    project.provide('baseUrl', server.baseUrl);
    project.provide('admin', ADMIN);
    project.provide('reader', READER);
    project.provide('datasetName', datasetName);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
