// Starts the real backend once for the whole run: an embedded PostgreSQL (or the server of
// DATABASE_URL, in a database of its own), then `node ../backend/dist/main.js` on a free port (through
// ../backend/test/support/backend-server.mjs, as the crawler and web tests), migrated,
// seeded with the reference data (flavors, data types, casts), with a known superuser. Test files reach
// it through the AIDE_SDK_TEST_* environment variables.
// It also packs @aide/schemas and @aide/sdk (AIDE_SDK_TEST_TARBALLS), for test/package.test.ts.
// @aide/provider's tests start their backend with it too (its test/global-setup.mjs imports this one).
// The backend must be built first (`pnpm --filter @aide/backend build`, done by this package's test script).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import globalTeardown from './global-teardown.mjs';
import { packWorkspacePackages } from './pack.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// AIDE_SDK_TEST_BACKEND_DIR points at another built backend checkout (default: the workspace's).
const backendDir = process.env.AIDE_SDK_TEST_BACKEND_DIR ?? join(here, '..', '..', 'backend');
const backendMain = join(backendDir, 'dist', 'main.js');

export const SUPERUSER_EMAIL = 'sdk-admin@example.com';
export const SUPERUSER_PASSWORD = 'sdk-admin-password-1';

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
  const { createDatabase, startBackendServer, startPostgres } = await import(
    pathToFileURL(join(backendDir, 'test', 'support', 'backend-server.mjs')).href
  );

  const state = { tempDir: mkdtempSync(join(tmpdir(), 'aide-sdk-test-')) };
  globalThis.__AIDE_SDK_TEST__ = state;

  // The tarballs of @aide/schemas and @aide/sdk as `pnpm pack` makes them (its prepack is a clean build
  // of dist/), for test/package.test.ts. Packed before any test file runs: packing rebuilds dist/.
  packWorkspacePackages(['schemas', 'sdk'], join(state.tempDir, 'tarballs'));

  // A directory of its own: as root, PostgreSQL runs as the `postgres` user, which must own it.
  if (!process.env.DATABASE_URL) state.pgDir = mkdtempSync(join(tmpdir(), 'aide-sdk-test-pg-'));
  state.postgres = await startPostgres(state.pgDir);
  state.database = `aide_sdk_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  state.server = await startBackendServer({
    databaseUrl: await createDatabase(state.postgres.url, state.database),
    superuser: { email: SUPERUSER_EMAIL, password: SUPERUSER_PASSWORD },
    env: {
      AIDE_LOGIN_MAX_PER_IP: '10000',
      // Low, so the rate-limit test reaches the account throttle after a few failed logins.
      AIDE_LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
    },
  });

  process.env.AIDE_SDK_TEST_BASE_URL = state.server.baseUrl;
  process.env.AIDE_SDK_TEST_USERNAME = SUPERUSER_EMAIL;
  process.env.AIDE_SDK_TEST_PASSWORD = SUPERUSER_PASSWORD;
  process.env.AIDE_SDK_TEST_JWT_SECRET = state.server.jwtSecret;
}
