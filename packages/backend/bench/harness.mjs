// What the bench suites share: rebuilding what they import from dist/, clean-ups that run on success,
// on error and on Ctrl-C (scale, search), a fresh database per run with its clean-ups (lineage,
// provider, openlineage, search --flood), and the API server started on it as a child process.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startBackendServer } from '../test/support/backend-server.mjs';

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
    const { startEmbeddedPostgres } = await dist('database/embedded-postgres.js');
    const dir = mkdtempSync(join(tmpdir(), `aide-bench-${name}-`));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    log('starting embedded PostgreSQL …');
    const handle = await startEmbeddedPostgres({ dir, port: 0 });
    cleanups.push(() => handle.stop());
    serverUrl = handle.url;
  }
  const dbName = `aide_bench_${name}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  cleanups.push(async () => {
    // Kept to look into afterwards (EXPLAIN, sizes): AIDE_BENCH_KEEP_DATABASE=1 on a DATABASE_URL server.
    if (process.env.AIDE_BENCH_KEEP_DATABASE === '1' && process.env.DATABASE_URL) {
      return log(`kept the database ${dbName}`);
    }
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

/**
 * Starts the built API (`dist/main.js`) on a free loopback port against `databaseUrl`, with a fresh
 * JWT secret and data directory, migrating and seeding on start, and the superuser `email`/`password`;
 * `env` adds or overrides variables, `nodeArgs` go before the entry point (e.g. `--cpu-prof`;
 * test/support/backend-server.mjs, which the other packages' tests use too). Pushes onto `cleanups` what stops it. Resolves to its base URL and child process once ready.
 */
export async function startBenchServer(
  name,
  { databaseUrl, email, password, env = {}, nodeArgs = [], cleanups, log },
) {
  log(`starting the ${name} server (migrations, reference data) …`);
  const started = await startBackendServer({ databaseUrl, superuser: { email, password }, env, nodeArgs });
  cleanups.push(started.stop);
  return { baseUrl: started.baseUrl, server: started.child };
}

/** A bench server's access token for the superuser it was started with. */
export async function benchLogin(baseUrl, email, password) {
  const login = await fetch(`${baseUrl}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }),
  });
  if (!login.ok) throw new Error(`login answered ${login.status}`);
  return (await login.json()).access_token;
}

/**
 * The OpenLineage benches' source system (`bench-ol`, postgres14, its events' namespace), written
 * straight into the bench database; `q` runs a statement there and answers its rows.
 */
export async function benchOpenLineageSystem(q, namespace) {
  const [flavor] = await q(`SELECT id FROM system_flavors WHERE code = 'postgres14'`);
  const [system] = await q(
    `INSERT INTO systems (code, name, flavor_id, extra) VALUES ('bench-ol', 'Bench', $1, $2) RETURNING id`,
    [flavor.id, JSON.stringify({ openlineage_namespace: namespace })],
  );
  return system;
}
