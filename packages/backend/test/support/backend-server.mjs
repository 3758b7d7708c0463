// The one way the other packages' tests and benches (sdk, crawler, web) start the real backend: the
// built `dist/main.js` on a free loopback port against a database of the caller's, waited for until
// /health/ready answers 200. Plain JavaScript beside its .d.mts, so callers load it by path with no
// build step, at test time only, as they ran dist/main.js before: nothing imports the backend at
// runtime (DESIGN.md §1).
//
// A suite that starts several backends migrates and seeds one template database once
// (`createTemplateDatabase`) and gives each backend a copy (`createDatabase(…, { template })`): copying
// is a file copy in PostgreSQL, where migrating and seeding take many seconds each time.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

export const BACKEND_DIR = fileURLToPath(new URL('../..', import.meta.url));
const dist = (path) => join(BACKEND_DIR, 'dist', path);
// A busy machine (2 cores shared by several test runs) may take long to start Node, Nest and the pool.
const READY_TIMEOUT_MS = 180_000;

// Here rather than from the backend's embedded-postgres module, which callers would load for this alone.
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function databaseUrl(serverUrl, database) {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(serverUrl, sql) {
  const { withClient } = await import(pathToFileURL(dist('database/pg-client.js')).href);
  await withClient(serverUrl, (client) => client.query(sql));
}

export async function createDatabase(serverUrl, database, { template } = {}) {
  await adminQuery(serverUrl, `CREATE DATABASE ${database}${template ? ` TEMPLATE ${template}` : ''}`);
  return databaseUrl(serverUrl, database);
}

export async function dropDatabase(serverUrl, database) {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}

export async function createTemplateDatabase(serverUrl, database) {
  const url = await createDatabase(serverUrl, database);
  // The backend's own maintenance commands: the same migrations and seeders as on start, no HTTP server.
  for (const command of ['migrate', 'seed']) {
    await promisify(execFile)(process.execPath, [dist('cli.js'), command], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    });
  }
  return url;
}

export async function startPostgres(dir) {
  const url = process.env.DATABASE_URL;
  if (url) return { url, stop: async () => undefined };
  const { startEmbeddedPostgres } = await import(pathToFileURL(dist('database/embedded-postgres.js')).href);
  return startEmbeddedPostgres({ dir, port: 0 });
}

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function waitForReady(baseUrl, child, output) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the backend exited with code ${child.exitCode} before it was ready:\n${output()}`);
    }
    try {
      if ((await fetch(`${baseUrl}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100)); // paces the polling only
  }
  throw new Error(`the backend was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output()}`);
}

export async function startBackendServer({
  databaseUrl: url,
  superuser,
  migrateAndSeed = true,
  env = {},
  nodeArgs = [],
}) {
  const workDir = mkdtempSync(join(tmpdir(), 'aide-backend-'));
  const port = await freePort();
  const jwtSecret = randomBytes(32).toString('hex');
  let output = '';
  const child = spawn(process.execPath, [...nodeArgs, dist('main.js')], {
    cwd: workDir,
    env: {
      ...process.env,
      DATABASE_URL: url,
      AIDE_JWT_SECRET: jwtSecret,
      PORT: String(port),
      HOST: '127.0.0.1',
      AIDE_DATA_DIR: join(workDir, 'data'),
      AIDE_MIGRATE_ON_START: String(migrateAndSeed),
      AIDE_SEED_ON_START: String(migrateAndSeed),
      AIDE_SUPERUSER_EMAIL: superuser.email,
      AIDE_SUPERUSER_PASSWORD: superuser.password,
      AIDE_LOGIN_MAX_PER_IP: '100000',
      LOG_LEVEL: 'warn',
      AIDE_LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const stop = async () => {
    await stopChild(child);
    rmSync(workDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(baseUrl, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, jwtSecret, child, output: () => output, stop };
}
