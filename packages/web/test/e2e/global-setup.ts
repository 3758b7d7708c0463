// Starts the real backend for the browser tests: an embedded PostgreSQL (or DATABASE_URL's server, in
// a database of its own), then `node ../backend/dist/main.js` serving this package's dist/ at /ui,
// migrated and seeded, with a known superuser and a small catalogue made through @aide/sdk.
// The package's test script builds the backend, the SDK and the UI first.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AideClient } from '@aide/sdk';
import type { TestProject } from 'vitest/node';

const here = fileURLToPath(new URL('.', import.meta.url));
const backendDir = join(here, '..', '..', '..', 'backend');
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

async function waitForReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`backend exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`backend not ready within 60 s:\n${output()}`);
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
  const requireFromBackend = createRequire(join(backendDir, 'package.json'));
  const pg = requireFromBackend('pg') as {
    Client: new (options: { connectionString: string }) => {
      connect(): Promise<void>;
      query(sql: string): Promise<unknown>;
      end(): Promise<void>;
    };
  };
  const dist = (path: string) => import(pathToFileURL(join(backendDir, 'dist', path)).href);
  const { freePort, startEmbeddedPostgres } = await dist('database/embedded-postgres.js');
  const { withDatabase } = await dist('database/naming.js');
  const tempDir = mkdtempSync(join(tmpdir(), 'aide-web-test-'));
  let embedded: { url: string; stop(): Promise<void> } | undefined;
  const start = startEmbeddedPostgres as (o: {
    dir: string;
    port: number;
  }) => Promise<{ url: string; stop(): Promise<void> }>;
  let serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) {
    embedded = await start({ dir: join(tempDir, 'pg'), port: await freePort() });
    serverUrl = embedded.url;
  }
  const database = `aide_web_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [join(backendDir, 'dist', 'main.js')], {
    cwd: tempDir,
    env: {
      ...process.env,
      DATABASE_URL: withDatabase(serverUrl, database),
      AIDE_JWT_SECRET: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      AIDE_DATA_DIR: join(tempDir, 'data'),
      AIDE_MIGRATE_ON_START: 'true',
      AIDE_SEED_ON_START: 'true',
      AIDE_SUPERUSER_EMAIL: ADMIN.email,
      AIDE_SUPERUSER_PASSWORD: ADMIN.password,
      AIDE_WEB_DIR: webDist,
      AIDE_LOGIN_MAX_PER_IP: '10000',
      LOG_LEVEL: 'warn',
      AIDE_LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const teardown = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).finally(() => c.end());
    await embedded?.stop();
    rmSync(tempDir, { recursive: true, force: true });
  };
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForReady(baseUrl, child, () => output);
    const datasetName = await seed(baseUrl);
    project.provide('baseUrl', baseUrl);
    project.provide('admin', ADMIN);
    project.provide('reader', READER);
    project.provide('datasetName', datasetName);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
