// What the bench suites share: rebuilding what they import from dist/, clean-ups that run on success,
// on error and on Ctrl-C (scale, search), a fresh database per run with its clean-ups (lineage,
// provider, openlineage, search --flood), and the API server started on it as a child process.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Rebuilds @aide/schemas and @aide/backend (tsc), and the `also` packages, so that dist/ is the code
 * being measured.
 */
export function buildBackend(repo, also = []) {
  for (const pkg of ['@aide/schemas', '@aide/backend', ...also]) {
    const r = spawnSync('pnpm', ['--filter', pkg, 'build'], {
      cwd: repo,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`pnpm --filter ${pkg} build failed`);
  }
}

/**
 * A stack of clean-ups, run last-in first-out by `cleanup()` and on SIGINT/SIGTERM (then exit 130).
 * `cleanups` is the stack itself: push functions returning promises.
 */
export function cleanupStack(log) {
  const cleanups = [];
  const cleanup = async () => {
    while (cleanups.length > 0)
      await cleanups
        .pop()()
        .catch((e) => log(`clean-up failed: ${e.message}`));
  };
  const onSignal = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return { cleanups, cleanup };
}

/**
 * A fresh database for a bench run: on the server of DATABASE_URL when set, else on a new embedded
 * PostgreSQL. Pushes onto `cleanups` (functions, awaited last-in first-out by `runCleanups`) what drops
 * the database and stops the server. Resolves to the database's URL.
 */
export async function freshBenchDatabase(name, { cleanups, log, dist }) {
  const { withDatabase } = await dist('database/naming.js');
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const { freePort, startEmbeddedPostgres } = await dist('database/embedded-postgres.js');
    const dir = mkdtempSync(join(tmpdir(), `aide-bench-${name}-`));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    log('starting embedded PostgreSQL …');
    const handle = await startEmbeddedPostgres({ dir, port: await freePort() });
    cleanups.push(() => handle.stop());
    serverUrl = handle.url;
  }
  const dbName = `aide_bench_${name}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  });
  return withDatabase(serverUrl, dbName);
}

/** Runs clean-ups last-in first-out; a failing one is logged and the others still run. */
export async function runCleanups(cleanups, log) {
  for (const fn of cleanups.reverse()) {
    try {
      await fn();
    } catch (error) {
      log(`cleanup: ${error?.message ?? error}`);
    }
  }
}

const MAIN = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'dist', 'main.js');

/** Resolves once the server's /health/ready answers 200; fails if it exits first or after 120 s. */
export async function waitForReady(url, child) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((ok) => setTimeout(ok, 200)); // paces the polling only
  }
  throw new Error('the server was not ready within 120 s');
}

/**
 * Starts the built API (`dist/main.js`) on a free loopback port against `databaseUrl`, with a fresh
 * JWT secret and data directory, migrating and seeding on start, and the superuser `email`/`password`;
 * `env` adds or overrides variables. Pushes onto `cleanups` what stops it (SIGTERM) and removes its
 * data directory. Resolves to its base URL and child process once it is ready.
 */
export async function startBenchServer(
  name,
  { databaseUrl, email, password, env = {}, cleanups, log, dist },
) {
  const { freePort } = await dist('database/embedded-postgres.js');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), `aide-bench-${name}-data-`));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const server = spawn(process.execPath, [MAIN], {
    cwd: dataDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      AIDE_JWT_SECRET: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      AIDE_DATA_DIR: join(dataDir, 'data'),
      AIDE_MIGRATE_ON_START: 'true',
      AIDE_SEED_ON_START: 'true',
      AIDE_SUPERUSER_EMAIL: email,
      AIDE_SUPERUSER_PASSWORD: password,
      LOG_LEVEL: 'warn',
      AIDE_LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanups.push(
    () =>
      new Promise((ok) => {
        if (server.exitCode !== null) return ok();
        server.once('exit', ok);
        server.kill('SIGTERM');
      }),
  );
  log('starting the server (migrations, reference data) …');
  await waitForReady(baseUrl, server);
  return { baseUrl, server };
}
