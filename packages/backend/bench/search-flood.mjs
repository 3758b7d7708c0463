// `pnpm bench search --flood`: issue 22 item 4's scenario. The real server (dist/main.js, its default
// pool of 20) on a catalogue of N datasets × 20 fields (the search bench's, 2,400 → 48,000 fields),
// flooded with `GET /search?q=customer` by C clients for D seconds (autocannon, in a process of its
// own: bench/load.mjs). Meanwhile one client reads `GET /systems` in a loop, and another alternates a
// pathological search (a one-letter word behind 199 quotes) and a page far past the end
// (`page=1000000`). Prints, per probe, the statuses and p50/max latency, quiet and under the flood;
// and the flood's statuses. The server runs with the environment's AIDE_* settings (e.g.
// AIDE_SEARCH_CONCURRENCY), so a limit can be measured at other values.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildBackend, cleanupStack, freshBenchDatabase, startBenchServer } from './harness.mjs';
import { load } from './search.mjs';

const BACKEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BACKEND, '..', '..');
const RESULTS = join(REPO, 'bench-results', 'search-flood.json');
const EMAIL = 'bench-flood@example.com';
const PASSWORD = 'bench-flood-password-1';
/** The issue's target: every `GET /systems` during the flood answers 200 within this. */
const TARGET_MS = 2000;

const USAGE = `pnpm bench search --flood [options]

  --datasets N     datasets to load (default 2400, i.e. 48,000 fields)
  --connections N  flooding clients (default 32)
  --duration S     seconds of flood (default 20)
  --pool N         the server's AIDE_DB_POOL_SIZE (default 20)
  --no-build       do not rebuild @aide/schemas and @aide/backend
  --reuse-db DB    flood DB, a database \`pnpm bench search --keep-db\` loaded (with DATABASE_URL): its
                   pending migrations are run, nothing is loaded, and it is kept
  -h, --help

DATABASE_URL: use that server (a fresh database is created and dropped) instead of an embedded one.
Other AIDE_* variables of the environment are passed to the server.`;

const log = (message) => process.stderr.write(`[bench search --flood] ${message}\n`);
const dist = (path) => import(pathToFileURL(join(BACKEND, 'dist', path)).href);

const PATHOLOGICAL = `${"'".repeat(199)}a`;
const PROBES = {
  systems: '/api/v1/systems',
  pathological: `/api/v1/search?q=${encodeURIComponent(PATHOLOGICAL)}`,
  deepPage: '/api/v1/search?q=customer&page=1000000',
};

/** One timed GET: its status (0 when the request failed) and milliseconds. */
async function timedGet(url, token) {
  const start = process.hrtime.bigint();
  let status = 0;
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    status = response.status;
  } catch {
    // counted as status 0
  }
  return { status, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** GETs `paths` in turn until `until()` is true (at least `min` rounds). */
async function probeLoop(base, token, paths, until, min = 1) {
  const samples = Object.fromEntries(paths.map((p) => [p, []]));
  for (let round = 0; round < min || !until(); round++) {
    for (const path of paths) samples[path].push(await timedGet(`${base}${PROBES[path]}`, token));
  }
  return samples;
}

function summarise(samples) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const statuses = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  return {
    n: samples.length,
    statuses,
    p50: ms[Math.floor(ms.length / 2)] ?? 0,
    max: ms.at(-1) ?? 0,
    over_target: samples.filter((s) => s.status !== 200 || s.ms > TARGET_MS).length,
  };
}

/** The flood: bench/load.mjs (autocannon) in a process of its own; resolves to its summary. */
function flood(options) {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [join(BACKEND, 'bench', 'load.mjs'), JSON.stringify(options)], {
      cwd: BACKEND,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) =>
      code === 0 ? ok(JSON.parse(out.trim().split('\n').at(-1))) : fail(new Error(`load.mjs exited ${code}`)),
    );
  });
}

export async function run(argv = process.argv.slice(2)) {
  let options;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        datasets: { type: 'string', default: '2400' },
        connections: { type: 'string', default: '32' },
        duration: { type: 'string', default: '20' },
        pool: { type: 'string', default: '20' },
        'no-build': { type: 'boolean', default: false },
        'reuse-db': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    options = {
      datasets: Number(values.datasets),
      connections: Number(values.connections),
      duration: Number(values.duration),
      pool: Number(values.pool),
      build: !values['no-build'],
      reuseDb: values['reuse-db'],
      help: values.help,
    };
    if (options.reuseDb !== undefined && !/^\w+$/.test(options.reuseDb))
      throw new Error('--reuse-db must name a database (letters, digits, _)');
    if (options.reuseDb !== undefined && !process.env.DATABASE_URL)
      throw new Error('--reuse-db needs DATABASE_URL (the server of the kept database)');
    for (const key of ['datasets', 'connections', 'duration', 'pool']) {
      if (!Number.isInteger(options[key]) || options[key] < 1)
        throw new Error(`--${key} must be a positive integer`);
    }
  } catch (error) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  const { cleanups, cleanup } = cleanupStack(log);
  try {
    if (options.build) buildBackend(REPO);
    const { createDataSource } = await dist('database/data-source.js');
    const { withDatabase } = await dist('database/naming.js');
    const url = options.reuseDb
      ? withDatabase(process.env.DATABASE_URL, options.reuseDb)
      : await freshBenchDatabase('flood', { cleanups, log, dist });
    const dataSource = createDataSource({ url, poolSize: 1, applicationName: 'aide-bench-flood' });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.destroy();
    const client = new pg.Client({ connectionString: url });
    client.on('error', (e) => log(`connection error: ${e.message}`));
    await client.connect();
    const version = (await client.query('SHOW server_version')).rows[0].server_version;
    if (options.reuseDb) {
      options.datasets = (await client.query('SELECT count(*)::int AS n FROM datasets')).rows[0].n;
      log(`reusing ${options.reuseDb}: ${options.datasets} datasets`);
    } else {
      await load(client, options.datasets);
    }
    await client.end();

    // Migrated above; seeding adds the reference data only (no fields to search).
    const { baseUrl: base } = await startBenchServer('flood', {
      databaseUrl: url,
      email: EMAIL,
      password: PASSWORD,
      env: { AIDE_DB_POOL_SIZE: String(options.pool), LOG_LEVEL: 'error' },
      cleanups,
      log,
      dist,
    });
    const login = await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: EMAIL, password: PASSWORD }).toString(),
    });
    if (!login.ok) throw new Error(`login: HTTP ${login.status}`);
    const token = (await login.json()).access_token;

    log('quiet probes …');
    const quiet = await probeLoop(base, token, Object.keys(PROBES), () => true, 20);

    log(`flood: ${options.connections} clients × ${options.duration} s of GET /search?q=customer …`);
    let flooding = true;
    const flooded = flood({
      url: `${base}/api/v1/search?q=customer`,
      connections: options.connections,
      duration: options.duration,
      headers: { authorization: `Bearer ${token}` },
      timeout: 30,
    }).finally(() => (flooding = false));
    // Let the flood take hold before probing (autocannon opens its connections first).
    await new Promise((ok) => setTimeout(ok, 500));
    const [systems, others, floodResult] = await Promise.all([
      probeLoop(base, token, ['systems'], () => !flooding),
      probeLoop(base, token, ['pathological', 'deepPage'], () => !flooding),
      flooded,
    ]);
    const underFlood = { ...systems, ...others };

    const rows = Object.keys(PROBES).map((name) => ({
      probe: name,
      path: PROBES[name],
      quiet: summarise(quiet[name]),
      flood: summarise(underFlood[name]),
    }));
    const fmt = (n) => n.toFixed(1).padStart(8);
    const statuses = (s) =>
      Object.entries(s)
        .map(([code, n]) => `${code}×${n}`)
        .join(' ');
    const out = [
      `PostgreSQL ${version}, ${cpus().length} cores; ${options.datasets} datasets, ${options.datasets * 20} fields; ` +
        `pool ${options.pool}; flood ${options.connections} clients × ${options.duration} s of q=customer`,
      `server settings: ${
        Object.entries(process.env)
          .filter(([k]) => k.startsWith('AIDE_SEARCH_'))
          .map(([k, v]) => `${k}=${v}`)
          .join(' ') || 'defaults'
      }`,
      '',
      `${'probe'.padEnd(14)} ${'quiet p50'.padStart(9)} ${'quiet max'.padStart(9)}  ${'flood n'.padStart(7)} ${'p50 ms'.padStart(8)} ${'max ms'.padStart(8)}  statuses under flood`,
    ];
    for (const r of rows) {
      out.push(
        `${r.probe.padEnd(14)} ${fmt(r.quiet.p50).padStart(9)} ${fmt(r.quiet.max).padStart(9)}  ${String(r.flood.n).padStart(7)} ${fmt(r.flood.p50)} ${fmt(r.flood.max)}  ${statuses(r.flood.statuses)}`,
      );
    }
    const systemsRow = rows[0].flood;
    out.push(
      '',
      `flood: ${floodResult.requests} requests, statuses ${statuses(Object.fromEntries(Object.entries(floodResult.statuses ?? {}).map(([k, v]) => [k, v.count])))}, ` +
        `${floodResult.errors} errors, ${floodResult.timeouts} timeouts, 2xx p99 ${floodResult.p99} ms`,
      `GET /systems under the flood: ${systemsRow.over_target} of ${systemsRow.n} not 200 within ${TARGET_MS} ms — ${
        systemsRow.over_target === 0 ? 'PASS' : 'MISS'
      }`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ version, ...options, target_ms: TARGET_MS, rows, flood: { ...floodResult, latencies: undefined } }, null, 2)}\n`,
    );
    return 0;
  } catch (error) {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await cleanup();
  }
}
