// `pnpm bench api`: API GET-by-id throughput, side by side with a bare node:http + pg handler and with
// pgbench on the same row of the same database, in one run (DESIGN §10). Absolute numbers on a shared
// machine are noise; the ratios are the result.
//
//   node scripts/bench.mjs api [--duration S] [--warmup S] [--connections N] [--quick]
//                              [--slices N] [--only pgbench,bare,bare-user,api] [--no-build] [--profile]
//                              [--no-pin] [--api-entry FILE]
//
// The measured time of each server is cut into slices run alternately (bare, API, API, bare, …), so
// a burst of foreign load on a shared machine hits both sides alike; totals and percentiles are
// computed over all slices.
//
// The load generator (autocannon) runs in a process of its own (bench/load.mjs). On a machine with
// two or more CPUs and `taskset`, the server under test gets the last CPU to itself and the load
// generator and the embedded PostgreSQL the others: the ratio then compares what each server spends
// per request, instead of how the machine's cores were shared out (docs/benchmarks.md, "CPU
// placement").
//
// Environment (flags win): AIDE_BENCH_DURATION, AIDE_BENCH_WARMUP, AIDE_BENCH_CONNECTIONS,
// AIDE_BENCH_SLICES, AIDE_DB_POOL_SIZE (pool of both servers, default 20), DATABASE_URL (use that
// server instead of an embedded PostgreSQL; a fresh database is created on it and dropped after).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hash } from '@node-rs/bcrypt';
import pg from 'pg';

const BACKEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BACKEND, '..', '..');
const RESULTS = join(REPO, 'bench-results', 'api.json');

// Issue 13: API / bare ≥ 0.8 in req/s, API p99 ≤ 1.5 × bare p99, no errors.
const TARGETS = { ratio: 0.8, p99Ratio: 1.5 };
const MEASUREMENTS = ['pgbench', 'bare', 'bare-user', 'api'];
const USER = { email: 'bench@aide.local', password: 'bench-password-1' };

/** A failure to run (as opposed to a missed target): exit code 1. */
class BenchError extends Error {}

// ---------------------------------------------------------------------------------------------------
// Options

function readOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      slices: { type: 'string' },
      only: { type: 'string' },
      quick: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      'api-entry': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const env = process.env;
  const num = (name, value, fallback, min = 1) => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new BenchError(`${name} must be a whole number ≥ ${min}, got "${value}"`);
    return n;
  };
  const duration = num('--duration', values.duration ?? env.AIDE_BENCH_DURATION, values.quick ? 3 : 10);
  const only = new Set(
    (values.only ?? MEASUREMENTS.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const name of only) {
    if (!MEASUREMENTS.includes(name)) throw new BenchError(`--only: unknown measurement "${name}"`);
  }
  return {
    help: values.help,
    duration,
    warmup: num('--warmup', values.warmup ?? env.AIDE_BENCH_WARMUP, values.quick ? 2 : duration, 0),
    connections: num('--connections', values.connections ?? env.AIDE_BENCH_CONNECTIONS, 32),
    slices: Math.min(duration, num('--slices', values.slices ?? env.AIDE_BENCH_SLICES, values.quick ? 3 : 5)),
    poolSize: num('AIDE_DB_POOL_SIZE', env.AIDE_DB_POOL_SIZE, 20),
    only,
    build: !values['no-build'],
    profile: values.profile,
    pin: !values['no-pin'],
    apiEntry: values['api-entry'] ?? 'dist/main.js',
    databaseUrl: env.DATABASE_URL || undefined,
  };
}

const USAGE = `pnpm bench api [options]
  --duration S      measured seconds per server and for pgbench (default 10; AIDE_BENCH_DURATION)
  --warmup S        warm-up seconds per server (default = duration; pgbench ≤ 5; AIDE_BENCH_WARMUP)
  --connections N   concurrent connections / pgbench clients (default 32; AIDE_BENCH_CONNECTIONS)
  --slices N        cut each measured run into N alternating slices (default 5; AIDE_BENCH_SLICES)
  --quick           --duration 3 --warmup 2 --slices 3
  --only LIST       subset of pgbench,bare,bare-user,api
  --no-build        do not rebuild the backend
  --profile         run the servers under node --cpu-prof (bench-results/profiles/<server>.cpuprofile)
  --no-pin          do not place the servers and the load generator on separate CPUs (taskset)
  --api-entry FILE  the API's entry point, relative to packages/backend (default dist/main.js): another
                    build to compare, e.g. one compiled from an older commit
Environment: DATABASE_URL (an existing server to use), AIDE_DB_POOL_SIZE (default 20).`;

// ---------------------------------------------------------------------------------------------------
// Clean-up: everything started registers its undo here; it runs on success, error and Ctrl-C.

const cleanups = [];
const children = new Set();
const tempDirs = new Set();

function onCleanup(fn) {
  cleanups.push(fn);
}

async function cleanupAll() {
  while (cleanups.length > 0) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch (error) {
      process.stderr.write(
        `clean-up step failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
}

// Last resort, synchronous: whatever is still alive or on disk when the process exits.
process.on('exit', () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

let interrupted = false;
function onSignal(signal) {
  if (interrupted) return;
  interrupted = true;
  process.stderr.write(`\n${signal}: cleaning up…\n`);
  const code = signal === 'SIGINT' ? 130 : 143;
  const timer = setTimeout(() => process.exit(code), 15_000);
  timer.unref();
  void cleanupAll().finally(() => process.exit(code));
}

function makeTempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  onCleanup(() => {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  });
  return dir;
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new BenchError(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------------
// Helpers

const log = (message) => process.stderr.write(`[bench api] ${message}\n`);

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** tsc -b style: the build is stale when a source (or the manifest) is newer than everything in dist/. */
function isStale(pkgDir, marker) {
  if (!existsSync(join(pkgDir, marker))) return true;
  const built = newestMtime(join(pkgDir, 'dist'));
  return newestMtime(join(pkgDir, 'src')) > built || statSync(join(pkgDir, 'package.json')).mtimeMs > built;
}

function pnpmBuild(filter) {
  log(`building ${filter} …`);
  const result = spawnSync('pnpm', ['--filter', filter, 'build'], {
    cwd: REPO,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.error) throw new BenchError(`pnpm --filter ${filter} build: ${result.error.message}`);
  if (result.status !== 0)
    throw new BenchError(`pnpm --filter ${filter} build failed (exit ${result.status})`);
}

function build() {
  const schemas = join(REPO, 'packages', 'schemas');
  if (isStale(schemas, 'dist/index.js')) pnpmBuild('@aide/schemas');
  if (isStale(BACKEND, 'dist/main.js')) pnpmBuild('@aide/backend');
  else log('backend build is up to date');
}

// CPU placement (--no-pin turns it off): the server under test on the last CPU, everything else (the
// load generator, the embedded PostgreSQL, pgbench's server side) on the others. On a 2-core machine
// with everything floating, the load generator's and PostgreSQL's work per request is paid out of the
// same two cores as the server's: the faster server pays more of it per second, and the ratio is
// pulled towards 1 (docs/benchmarks.md).
let placement; // { server: '1', rest: '0' } or undefined

function choosePlacement(options) {
  const n = cpus().length;
  if (!options.pin || n < 2 || process.platform !== 'linux') return undefined;
  if (spawnSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' }).status !== 0) return undefined;
  return { server: String(n - 1), rest: n === 2 ? '0' : `0-${n - 2}` };
}

/** The command line of `args` (a Node script) run on `cpus`, or as it is without a placement. */
function onCpus(cpuList, file, args) {
  return cpuList ? ['taskset', ['-c', cpuList, file, ...args]] : [file, args];
}

/** Moves a running process and all its threads to `cpuList` (best effort: it may have exited). */
function moveToCpus(pid, cpuList) {
  spawnSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
}

/** Starts a Node child process; keeps the tail of its output for error messages. */
function startChild(name, args, env, cpuList) {
  const [file, argv] = onCpus(cpuList, process.execPath, args);
  const child = spawn(file, argv, { cwd: BACKEND, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const tail = [];
  let warnings = 0;
  const partial = { stdout: '', stderr: '' };
  const collect = (stream, chunk) => {
    const lines = (partial[stream] + chunk.toString('utf8')).split('\n');
    partial[stream] = lines.pop() ?? '';
    for (const line of lines) {
      if (!line) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
      // JSON log lines at warn (40) or above written while serving count as server-side errors.
      if (line.startsWith('{')) {
        try {
          if (JSON.parse(line).level >= 40) warnings++;
        } catch {
          /* not JSON */
        }
      }
    }
  };
  child.stdout.on('data', (chunk) => collect('stdout', chunk));
  child.stderr.on('data', (chunk) => collect('stderr', chunk));
  const exited = new Promise((resolveExit) =>
    child.on('exit', (code, signal) => resolveExit({ code, signal })),
  );
  const handle = {
    name,
    child,
    exited,
    tail: () => [...tail, partial.stdout, partial.stderr].filter(Boolean).join('\n'),
    get warnings() {
      return warnings;
    },
    resetWarnings() {
      warnings = 0;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        try {
          await withTimeout(exited, 10_000, `${name} shutdown`);
        } catch {
          child.kill('SIGKILL');
          await exited;
        }
      }
      children.delete(child);
    },
  };
  onCleanup(() => handle.stop());
  return handle;
}

async function waitForHttp(handle, url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    if (handle.child.exitCode !== null || handle.child.signalCode !== null) {
      throw new BenchError(`${handle.name} exited before it was ready:\n${handle.tail()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new BenchError(
    `${handle.name} not ready at ${url} after ${timeoutMs} ms (${lastError}):\n${handle.tail()}`,
  );
}

async function getJson(url, token) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (!response.ok) throw new BenchError(`GET ${url}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

// CPU accounting (Linux /proc): where the work of a request goes (server, PostgreSQL, load generator).
const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime + cutime + cstime (reaped children count too), and the parent pid. */
function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

let postmasterPid; // known for the embedded cluster; otherwise every `postgres` process is counted

/**
 * CPU milliseconds so far of: one server process, PostgreSQL (the postmaster and its backends,
 * exited ones included), this process, and the whole machine. The load generator reports its own
 * (bench/load.mjs, without its start-up).
 */
function cpuSnapshot(serverPid) {
  let postgres = 0;
  if (process.platform === 'linux') {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const p = procStat(entry);
      if (p?.comm !== 'postgres') continue;
      if (postmasterPid === undefined || Number(entry) === postmasterPid || p.ppid === postmasterPid) {
        postgres += p.ticks;
      }
    }
  }
  const machine =
    process.platform === 'linux'
      ? readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
      : [];
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    server: serverPid ? (procStat(serverPid)?.ticks ?? 0) * TICK_MS : 0,
    postgres: postgres * TICK_MS,
    self: (usage.user + usage.system) / 1000,
    machineBusy: machine.length
      ? (machine.reduce((a, b) => a + b, 0) - machine[3] - (machine[4] ?? 0)) * TICK_MS
      : 0,
  };
}

function cpuDelta(before, after, requests) {
  const per = (ms) => (requests > 0 ? Math.round((ms * 1000) / requests) : NaN); // µs per request
  const wall = after.at - before.at;
  return {
    serverUsPerReq: per(after.server - before.server),
    postgresUsPerReq: per(after.postgres - before.postgres),
    loadGenUsPerReq: per(after.self - before.self),
    serverCpuPct: Math.round((100 * (after.server - before.server)) / wall),
    postgresCpuPct: Math.round((100 * (after.postgres - before.postgres)) / wall),
    loadGenCpuPct: Math.round((100 * (after.self - before.self)) / wall),
    machineCpuPct: Math.round((100 * (after.machineBusy - before.machineBusy)) / wall),
  };
}

// ---------------------------------------------------------------------------------------------------
// Database

async function startDatabase(options) {
  if (options.databaseUrl) return { serverUrl: options.databaseUrl, embedded: false, version: undefined };
  const { startEmbeddedPostgres } = await import(
    pathToFileURL(join(BACKEND, 'dist/database/embedded-postgres.js')).href
  );
  const dir = makeTempDir('aide-bench-pg-');
  const port = await freePort();
  log(`starting embedded PostgreSQL on port ${port} …`);
  const pgLog = [];
  const handle = await startEmbeddedPostgres({
    dir,
    port,
    onLog: (m) => {
      pgLog.push(m);
      if (pgLog.length > 40) pgLog.shift();
    },
  }).catch((error) => {
    throw new BenchError(
      `embedded PostgreSQL failed to start: ${error?.message ?? error}\n${pgLog.join('')}`,
    );
  });
  try {
    postmasterPid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
  } catch {
    postmasterPid = undefined;
  }
  // Backends forked from now on inherit the postmaster's CPUs; those already running are moved too.
  if (placement && postmasterPid) {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (pid === postmasterPid || procStat(entry)?.ppid === postmasterPid) moveToCpus(pid, placement.rest);
    }
  }
  // Registered after the temp dir, so it runs before the directory is removed.
  onCleanup(() => withTimeout(handle.stop(), 15_000, 'PostgreSQL stop'));
  return { serverUrl: handle.url, embedded: true };
}

async function prepareDatabase(serverUrl, embedded, { withDatabase }, { createDataSource }) {
  const dbName = `aide_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const version = (await admin.query('SHOW server_version')).rows[0].server_version;
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  // An embedded cluster is thrown away whole; on a given server the database is dropped.
  if (!embedded)
    onCleanup(async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    });

  const url = withDatabase(serverUrl, dbName);
  const dataSource = createDataSource({ url, poolSize: 1, applicationName: 'aide-bench-setup' });
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const [user] = await dataSource.query(
      `INSERT INTO users (email, hashed_password, full_name, is_superuser, user_type)
       VALUES ($1, $2, 'Bench superuser', true, 'regular') RETURNING id`,
      [USER.email, await hash(USER.password, 12)],
    );
    const [kind] = await dataSource.query(
      `INSERT INTO system_kinds (code, name, created_by, updated_by) VALUES ('rdbms', 'Relational database', $1, $1) RETURNING id`,
      [user.id],
    );
    const [flavor] = await dataSource.query(
      `INSERT INTO system_flavors (code, name, vendor, versions, kind_id, created_by, updated_by)
       VALUES ('postgresql', 'PostgreSQL', 'PostgreSQL Global Development Group', '{16,17}', $1, $2, $2) RETURNING id`,
      [kind.id, user.id],
    );
    // 1,000 systems so the lookup goes through the index of a real table; the measured one is in the middle.
    await dataSource.query(
      `INSERT INTO systems (code, name, tags, extra, flavor_id, created_by, updated_by)
       SELECT 'system-' || g, 'System ' || g, ARRAY['bench', 'pg'], jsonb_build_object('n', g), $1, $2, $2
       FROM generate_series(1, 1000) g`,
      [flavor.id, user.id],
    );
    // A soft-deleted twin must stay invisible (checked once before measuring).
    await dataSource.query(
      `UPDATE systems SET deleted_at = now(), deleted_by = $1 WHERE code = 'system-1000'`,
      [user.id],
    );
    const [system] = await dataSource.query(`SELECT id FROM systems WHERE code = 'system-500'`);
    const [deleted] = await dataSource.query(`SELECT id FROM systems WHERE code = 'system-1000'`);
    await dataSource.query('VACUUM ANALYZE');
    return { url, dbName, version, systemId: system.id, deletedId: deleted.id };
  } finally {
    await dataSource.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------
// Measurements

/**
 * One run of the load generator (bench/load.mjs, a child process on the non-server CPUs): resolves
 * with its summary, exact 2xx latencies included when `exact`.
 */
function runLoad(opts, exact) {
  return new Promise((resolveRun, reject) => {
    const [file, argv] = onCpus(placement?.rest, process.execPath, [
      'bench/load.mjs',
      JSON.stringify({ ...opts, exact }),
    ]);
    const child = spawn(file, argv, { cwd: BACKEND, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const out = [];
    let err = '';
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', (error) => reject(new BenchError(`load generator: ${error.message}`)));
    // 'close', not 'exit': stdout is read to its end, and the child has been reaped (its CPU time is
    // in this process's cutime/cstime when the slice's second snapshot is taken).
    child.on('close', (code) => {
      children.delete(child);
      if (code !== 0) return reject(new BenchError(`load generator exited with ${code}:\n${err}`));
      try {
        resolveRun(JSON.parse(Buffer.concat(out).toString('utf8')));
      } catch (error) {
        reject(new BenchError(`load generator output: ${error.message}`));
      }
    });
  });
}

/** One HTTP target (bare or API): warm-up once, then any number of measured slices, then totals. */
function httpTarget(name, url, token, options, server) {
  const common = {
    url,
    connections: options.connections,
    headers: { authorization: `Bearer ${token}` },
    timeout: 10,
  };
  const latencies = [];
  const totals = { seconds: 0, requests: 0, ok: 0, non2xx: 0, errors: 0, timeouts: 0, warnings: 0 };
  const cpu = { server: 0, postgres: 0, self: 0, machineBusy: 0, at: 0 };
  const slices = [];
  return {
    name,
    async warmUp() {
      if (options.warmup > 0) await runLoad({ ...common, duration: options.warmup }, false);
    },
    async slice(seconds) {
      server?.resetWarnings();
      const before = cpuSnapshot(server?.child.pid);
      // Exact per-response times (ms, sub-millisecond) for percentiles over all slices.
      const r = await runLoad({ ...common, duration: seconds }, true);
      const after = cpuSnapshot(server?.child.pid);
      for (const k of Object.keys(cpu)) cpu[k] += after[k] - before[k];
      cpu.self += r.cpuMs; // the load generator's, on top of this process's (small) share
      for (const ms of r.latencies) latencies.push(ms);
      totals.seconds += r.duration;
      totals.requests += r.requests;
      totals.ok += r.ok;
      totals.non2xx += r.non2xx;
      totals.errors += r.errors;
      totals.timeouts += r.timeouts;
      totals.warnings += server?.warnings ?? 0;
      slices.push({ rps: Math.round(r.ok / r.duration), p99: r.p99 });
    },
    result() {
      latencies.sort((a, b) => a - b);
      const round2 = (x) => Math.round(x * 100) / 100;
      return {
        name,
        kind: 'http',
        rps: totals.ok / totals.seconds,
        p50: round2(percentile(latencies, 50)),
        p90: round2(percentile(latencies, 90)),
        p99: round2(percentile(latencies, 99)),
        avg: round2(latencies.reduce((a, b) => a + b, 0) / latencies.length),
        max: round2(latencies[latencies.length - 1]),
        requests: totals.requests,
        ok: totals.ok,
        non2xx: totals.non2xx,
        errors: totals.errors,
        timeouts: totals.timeouts,
        serverWarnings: totals.warnings,
        durationS: round2(totals.seconds),
        cpu: cpuDelta({ server: 0, postgres: 0, self: 0, machineBusy: 0, at: 0 }, cpu, totals.requests),
        slices,
      };
    },
  };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measurePgbench(dbUrl, systemId, options, workDir) {
  const u = new URL(dbUrl);
  const script = join(workDir, 'get-system.sql');
  // pgbench's \set takes numbers only, so the uuid comes in with -D; -M prepared binds it as $1,
  // the same parameterised statement the servers send.
  writeFileSync(
    script,
    'SELECT id, created_at, updated_at, created_by, updated_by, note, row_version, deleted_at, code, name, is_active, tags, extra, flavor_id, credential_ref_id\n' +
      '  FROM systems WHERE id = :id AND deleted_at IS NULL;\n',
  );
  const logDir = join(workDir, 'pgbench-log');
  mkdirSync(logDir, { recursive: true });
  const env = {
    ...process.env,
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username || 'postgres'),
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
    ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}),
  };
  const base = [
    '-n',
    '-M',
    'prepared',
    '-c',
    String(options.connections),
    '-j',
    '2',
    '-D',
    `id=${systemId}`,
    '-f',
    script,
  ];
  const runOnce = (seconds, logged) =>
    new Promise((resolveRun, reject) => {
      const args = [
        ...base,
        '-T',
        String(seconds),
        ...(logged ? ['-l', '--sampling-rate=0.1', '--log-prefix', join(logDir, 'tx')] : []),
      ];
      // pgbench is a client like the servers: it gets their CPU, PostgreSQL keeps its own.
      const [file, argv] = onCpus(placement?.server, 'pgbench', args);
      const child = spawn(file, argv, { env, cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      child.on('error', (error) => reject(new BenchError(`pgbench: ${error.message}`)));
      child.on('exit', (code) => {
        children.delete(child);
        if (code === 0) resolveRun(out);
        else reject(new BenchError(`pgbench exited with ${code}:\n${out}`));
      });
    });
  if (options.warmup > 0) await runOnce(Math.max(1, Math.min(options.warmup, 5)), false);
  const before = cpuSnapshot();
  const out = await runOnce(options.duration, true);
  const after = cpuSnapshot();
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1] ?? NaN);
  if (!Number.isFinite(tps)) throw new BenchError(`cannot read tps from pgbench output:\n${out}`);
  const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
  const processed = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? NaN);
  const avg = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? NaN);
  const latencies = [];
  for (const file of readdirSync(logDir)) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      const us = Number(line.split(' ')[2]);
      if (line && Number.isFinite(us)) latencies.push(us / 1000);
    }
  }
  latencies.sort((a, b) => a - b);
  const round2 = (x) => Math.round(x * 100) / 100;
  return {
    name: 'pgbench (prepared SELECT)',
    kind: 'sql',
    rps: tps,
    p50: round2(percentile(latencies, 50)),
    p90: round2(percentile(latencies, 90)),
    p99: round2(percentile(latencies, 99)),
    avg,
    requests: processed,
    ok: processed,
    non2xx: 0,
    errors: failed,
    timeouts: 0,
    serverWarnings: 0,
    durationS: options.duration,
    cpu: (({ postgresUsPerReq, postgresCpuPct, machineCpuPct }) => ({
      postgresUsPerReq,
      postgresCpuPct,
      machineCpuPct,
    }))(cpuDelta(before, after, processed)),
    sampledLatencies: latencies.length,
  };
}

// ---------------------------------------------------------------------------------------------------
// Report

function machineFacts(pgVersion) {
  const pgbench = spawnSync('pgbench', ['--version'], { encoding: 'utf8' });
  return {
    nproc: cpus().length,
    loadAverage: loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    postgres: pgVersion,
    pgbench: pgbench.stdout?.trim() || 'not found',
    platform: `${process.platform} ${process.arch}`,
  };
}

function formatTable(rows) {
  const header = ['measurement', 'req/s (tps)', 'p50 ms', 'p99 ms', 'errors'];
  const fmt = (x, digits = 0) =>
    Number.isFinite(x)
      ? x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
      : '—';
  const body = rows.map((r) => [
    r.name,
    fmt(r.rps),
    fmt(r.p50, r.kind === 'sql' ? 2 : 1),
    fmt(r.p99, r.kind === 'sql' ? 2 : 1),
    `${r.errors + r.timeouts + r.non2xx}${r.non2xx ? ` (${r.non2xx} non-2xx)` : ''}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Main

export async function run(argv = process.argv.slice(2)) {
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let options;
  try {
    options = readOptions(argv);
  } catch (error) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  try {
    if (options.build) build();
    placement = choosePlacement(options);
    log(
      placement
        ? `CPU placement: servers and pgbench on CPU ${placement.server}, load generator and PostgreSQL on ${placement.rest}`
        : 'CPU placement: none (every process on every CPU)',
    );
    const naming = await import(pathToFileURL(join(BACKEND, 'dist/database/naming.js')).href);
    const dataSourceModule = await import(pathToFileURL(join(BACKEND, 'dist/database/data-source.js')).href);

    const workDir = makeTempDir('aide-bench-');
    const { serverUrl, embedded } = await startDatabase(options);
    const db = await prepareDatabase(serverUrl, embedded, naming, dataSourceModule);
    log(`database ${db.dbName} ready (PostgreSQL ${db.version}), system ${db.systemId}`);

    const secret = randomBytes(48).toString('base64url');
    const serverEnv = {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      AIDE_JWT_SECRET: secret,
      AIDE_DB_POOL_SIZE: String(options.poolSize),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AIDE_LOG_FORMAT: 'json',
      AIDE_MIGRATE_ON_START: 'false',
      AIDE_SEED_ON_START: 'false',
      AIDE_ACCESS_TOKEN_TTL_MINUTES: '1440',
      AIDE_DATA_DIR: workDir,
    };

    // The API (always started: it issues the token both servers verify).
    const apiPort = await freePort();
    const profileDir = join(REPO, 'bench-results', 'profiles');
    if (options.profile) {
      rmSync(profileDir, { recursive: true, force: true });
      mkdirSync(profileDir, { recursive: true });
    }
    // Each server's V8 CPU profile, written when it exits cleanly (SIGTERM at the end of the run).
    const profiled = (name) =>
      options.profile
        ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${name}.cpuprofile`]
        : [];
    const apiArgs = [...profiled('api'), options.apiEntry];
    const api = startChild('api', apiArgs, { ...serverEnv, PORT: String(apiPort) }, placement?.server);
    const apiBase = `http://127.0.0.1:${apiPort}`;
    await waitForHttp(api, `${apiBase}/health/ready`);
    const login = await fetch(`${apiBase}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: USER.email, password: USER.password, grant_type: 'password' }),
    });
    const loginBody = await login.json().catch(() => ({}));
    if (!login.ok || typeof loginBody.access_token !== 'string') {
      throw new BenchError(`login failed: HTTP ${login.status} ${JSON.stringify(loginBody)}`);
    }
    const token = loginBody.access_token;
    const apiUrl = `${apiBase}/api/v1/systems/${db.systemId}`;

    // The bare baseline, and the same with the guard's user-row read (informational).
    const barePort = await freePort();
    const bare = startChild(
      'bare',
      [...profiled('bare'), 'bench/bare-server.mjs'],
      { ...serverEnv, PORT: String(barePort) },
      placement?.server,
    );
    const bareBase = `http://127.0.0.1:${barePort}`;
    const bareUrl = `${bareBase}/api/v1/systems/${db.systemId}`;
    await waitForHttp(bare, `${bareBase}/health`, 30_000);
    const bareUserPort = await freePort();
    const bareUser = startChild(
      'bare-user',
      [...profiled('bare-user'), 'bench/bare-server.mjs'],
      { ...serverEnv, PORT: String(bareUserPort), BARE_USER_ROW: '1' },
      placement?.server,
    );
    const bareUserBase = `http://127.0.0.1:${bareUserPort}`;
    const bareUserUrl = `${bareUserBase}/api/v1/systems/${db.systemId}`;
    await waitForHttp(bareUser, `${bareUserBase}/health`, 30_000);

    // Both answer the same row, and neither shows a soft-deleted one.
    const fromApi = await getJson(apiUrl, token);
    const fromBare = await getJson(bareUrl, token);
    const fromBareUser = await getJson(bareUserUrl, token);
    if (fromApi.id !== db.systemId || fromBare.id !== db.systemId || fromBareUser.id !== db.systemId)
      throw new BenchError('the servers did not return the seeded system');
    const apiKeys = Object.keys(fromApi).sort().join(',');
    const bareKeys = Object.keys(fromBare).sort().join(',');
    if (apiKeys !== bareKeys)
      throw new BenchError(`the bare row differs from the API's:\n  api:  ${apiKeys}\n  bare: ${bareKeys}`);
    for (const base of [apiBase, bareBase, bareUserBase]) {
      const response = await fetch(`${base}/api/v1/systems/${db.deletedId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (response.status !== 404)
        throw new BenchError(`${base}: a soft-deleted system answered HTTP ${response.status}`);
    }

    const results = {};
    if (options.only.has('pgbench')) {
      log(
        `pgbench: ${options.connections} clients, ${options.warmup > 0 ? `${Math.min(options.warmup, 5)} s warm-up + ` : ''}${options.duration} s …`,
      );
      results.pgbench = await measurePgbench(db.url, db.systemId, options, workDir);
    }
    const targets = [];
    if (options.only.has('bare'))
      targets.push(['bare', httpTarget('bare (node:http + pg + jose)', bareUrl, token, options, bare)]);
    if (options.only.has('bare-user')) {
      targets.push([
        'bare-user',
        httpTarget('bare + user-row read (2 queries)', bareUserUrl, token, options, bareUser),
      ]);
    }
    if (options.only.has('api'))
      targets.push(['api', httpTarget('API (NestJS + TypeORM)', apiUrl, token, options, api)]);
    if (targets.length > 0) {
      const sliceS = Math.max(1, Math.round(options.duration / options.slices));
      for (const [which, target] of targets) {
        if (options.warmup > 0)
          log(`${which}: warm-up ${options.warmup} s, ${options.connections} connections …`);
        await target.warmUp();
      }
      log(`measuring: ${options.slices} × ${sliceS} s per server, alternating …`);
      for (let i = 0; i < options.slices; i++) {
        // Forward, then backward (ABBA…): no side always runs right after the same other one.
        const order = i % 2 === 0 ? targets : [...targets].reverse();
        for (const [, target] of order) await target.slice(sliceS);
      }
      for (const [which, target] of targets) results[which] = target.result();
    }

    if (options.profile) {
      await Promise.all([api.stop(), bare.stop(), bareUser.stop()]); // --cpu-prof writes on a clean exit
      log(`CPU profiles written to ${relative(REPO, profileDir)}/`);
    }

    // Report.
    const rows = MEASUREMENTS.filter((k) => results[k]).map((k) => results[k]);
    const ratio = results.api && results.bare ? results.api.rps / results.bare.rps : undefined;
    const apiVsPg = results.api && results.pgbench ? results.api.rps / results.pgbench.rps : undefined;
    const p99Ratio = results.api && results.bare ? results.api.p99 / results.bare.p99 : undefined;
    // Server CPU per request, bare / API: the same comparison as req/s, read from /proc instead of
    // from throughput, so it holds even when the server was not the bottleneck.
    const cpuRatio =
      results.api?.cpu && results.bare?.cpu
        ? results.bare.cpu.serverUsPerReq / results.api.cpu.serverUsPerReq
        : undefined;
    const verdicts = {
      ratio: ratio === undefined ? undefined : ratio >= TARGETS.ratio,
      p99Ratio: p99Ratio === undefined ? undefined : p99Ratio <= TARGETS.p99Ratio,
      zeroErrors: rows.every((r) => r.errors + r.timeouts + r.non2xx === 0),
    };
    const facts = machineFacts(db.version);
    const mark = (ok) => (ok === undefined ? 'n/a' : ok ? 'PASS' : 'MISS');

    const out = [];
    out.push('');
    out.push(
      `API GET /api/v1/systems/{id}: ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s measured per server (${options.slices} alternating slices)`,
    );
    out.push(
      `machine: ${facts.nproc} × ${facts.cpu}, Node ${facts.node}, PostgreSQL ${facts.postgres}${embedded ? ' (embedded)' : ''}, pool ${options.poolSize}, load average ${facts.loadAverage}`,
    );
    out.push(
      placement
        ? `placement: servers and pgbench on CPU ${placement.server}; load generator and PostgreSQL on CPU ${placement.rest}`
        : 'placement: none (--no-pin, one CPU, or no taskset)',
    );
    out.push('');
    out.push(formatTable(rows));
    out.push('');
    if (ratio !== undefined)
      out.push(
        `ratio API / bare (req/s):     ${ratio.toFixed(2)}   target ≥ ${TARGETS.ratio}   ${mark(verdicts.ratio)}`,
      );
    if (p99Ratio !== undefined)
      out.push(
        `ratio API p99 / bare p99:     ${p99Ratio.toFixed(2)}   target ≤ ${TARGETS.p99Ratio}   ${mark(verdicts.p99Ratio)}   (${results.api.p99} ms / ${results.bare.p99} ms)`,
      );
    out.push(
      `errors (all measurements):    ${rows.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0)}   target 0   ${mark(verdicts.zeroErrors)}`,
    );
    if (cpuRatio !== undefined)
      out.push(`ratio server CPU/req bare/API: ${cpuRatio.toFixed(2)}   (info: the same, from /proc)`);
    if (apiVsPg !== undefined) out.push(`ratio API / pgbench (info):   ${apiVsPg.toFixed(2)}`);
    const apiVsBareUser =
      results.api && results['bare-user'] ? results.api.rps / results['bare-user'].rps : undefined;
    if (apiVsBareUser !== undefined)
      out.push(
        `ratio API / bare+user (info): ${apiVsBareUser.toFixed(2)}   (same two queries: framework + ORM cost only)`,
      );
    if (results.bare && results.pgbench)
      out.push(`ratio bare / pgbench (info):  ${(results.bare.rps / results.pgbench.rps).toFixed(2)}`);
    const cpuRows = rows.filter((r) => r.cpu && r.kind === 'http');
    if (cpuRows.length > 0) {
      out.push('');
      out.push('CPU per request (µs): server process / PostgreSQL / load generator; machine busy %');
      const width = Math.max(...cpuRows.map((r) => r.name.length));
      for (const r of cpuRows) {
        out.push(
          `  ${r.name.padEnd(width)} ${r.cpu.serverUsPerReq} / ${r.cpu.postgresUsPerReq} / ${r.cpu.loadGenUsPerReq}   (server ${r.cpu.serverCpuPct}%, pg ${r.cpu.postgresCpuPct}%, machine ${r.cpu.machineCpuPct}% of ${facts.nproc * 100}%)`,
        );
      }
    }
    if (results.api?.serverWarnings)
      out.push(`API log lines at warn or above during the measured run: ${results.api.serverWarnings}`);
    process.stdout.write(`${out.join('\n')}\n\n`);

    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(
      RESULTS,
      `${JSON.stringify(
        {
          suite: 'api',
          date: new Date().toISOString(),
          command: `pnpm bench api ${argv.join(' ')}`.trim(),
          machine: facts,
          settings: {
            connections: options.connections,
            warmupS: options.warmup,
            durationS: options.duration,
            slices: options.slices,
            poolSize: options.poolSize,
            embeddedPostgres: embedded,
          },
          results,
          placement: placement ?? null,
          ratios: {
            apiOverBare: ratio,
            apiP99OverBareP99: p99Ratio,
            serverCpuPerRequestBareOverApi: cpuRatio,
            apiOverBareUser: apiVsBareUser,
            apiOverPgbench: apiVsPg,
          },
          targets: { apiOverBareMin: TARGETS.ratio, apiP99OverBareP99Max: TARGETS.p99Ratio, errors: 0 },
          verdicts,
        },
        null,
        2,
      )}\n`,
    );
    log(`results written to ${relative(REPO, RESULTS)}`);
    return 0;
  } catch (error) {
    if (interrupted) return 130;
    process.stderr.write(
      `\n[bench api] FAILED: ${error instanceof BenchError ? error.message : (error?.stack ?? String(error))}\n`,
    );
    return 1;
  } finally {
    if (!interrupted) await cleanupAll();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  run().then((code) => process.exit(code));
}
