// `pnpm bench crawler --tables N`: the crawler on an N-table × 20-column PostgreSQL database (10
// schemas; a primary key, a unique constraint, defaults, comments, an array column, varied types),
// each phase next to `pg_dump --schema-only` on the same database, measured in the same run:
//   inspect (in-process, and as the user runs it: `aide-crawler inspect --format json -o file`, a
//   child process from start-up to exit) · first crawl + apply · re-crawl with no changes (fingerprints first, ADR 0032; once with
//   a full registry read for comparison; once more each way with a PII-tagged column per dataset),
// with the catalog queries and registry requests of each phase and the process's peak memory.
// The registry is the real backend (dist/main.js, started by ../backend/test/support/backend-server.mjs)
// on a database of its own on the same server.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startBackendServer } from '../../backend/test/support/backend-server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CRAWLER = join(HERE, '..');
const ROOT = join(CRAWLER, '..', '..');
const require = createRequire(join(CRAWLER, 'package.json'));
const pg = require('pg');

const HELP = `usage: pnpm bench crawler [--tables N] [--runs R] [--no-build] [--profile] [--keep]
                          [--database NAME] [--inspect-only]

  --tables N        tables in the generated database (default 1000), 20 columns each, in 10 schemas
  --runs R          timed repetitions of each phase; the median is reported (default 3)
  --no-build        use the existing dist/ of schemas, sdk, backend and crawler
  --profile         run the backend under node --cpu-prof (profiles in bench-results/profiles/)
  --keep            keep the source and registry databases (their names are printed), e.g. for EXPLAIN
  --database NAME   the source database: generated when it does not exist, never dropped (reused by
                    the next run with the same NAME and --tables; a 10,000-table one takes minutes)
  --inspect-only    pg_dump, inspect and the whole-process inspect only: no backend, no crawls

The PostgreSQL server is AIDE_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres);
pg_dump must be on PATH. Results are printed and written to bench-results/crawler.json.`;

const COLUMN_TYPES = [
  'bigint NOT NULL',
  "varchar(40) NOT NULL DEFAULT ''",
  'text',
  'integer DEFAULT 0',
  'numeric(12,2)',
  'boolean NOT NULL DEFAULT false',
  'timestamptz DEFAULT now()',
  'date',
  'jsonb',
  'uuid',
  'text[]',
  'smallint',
  'double precision',
  'character(3)',
  'bytea',
  'interval',
  'inet',
  'time',
  'real',
  'varchar(200)',
];

/** The DDL of table `t` in schema `s`: 20 columns, PK, a unique constraint, comments. */
function tableDdl(schema, table) {
  const columns = COLUMN_TYPES.map((type, i) => `c${String(i).padStart(2, '0')} ${type}`);
  return (
    `CREATE TABLE ${schema}.${table} (${columns.join(', ')}, PRIMARY KEY (c00), UNIQUE (c01, c03));\n` +
    `COMMENT ON TABLE ${schema}.${table} IS 'bench table ${table}';\n` +
    `COMMENT ON COLUMN ${schema}.${table}.c02 IS 'free text';\n`
  );
}

/** Tables created per statement batch: each takes about six locks, and the lock table is shared. */
const TABLES_PER_BATCH = 200;

async function buildDatabase(url, tables) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const perSchema = Math.ceil(tables / 10);
    for (let s = 0; s < 10; s++) {
      const schema = `bench_${s}`;
      await client.query(`CREATE SCHEMA ${schema}`);
      const count = Math.max(0, Math.min(perSchema, tables - s * perSchema));
      for (let from = 0; from < count; from += TABLES_PER_BATCH) {
        let sql = '';
        for (let t = from; t < Math.min(count, from + TABLES_PER_BATCH); t++)
          sql += tableDdl(schema, `t${t}`);
        await client.query(sql);
      }
    }
  } finally {
    await client.end();
  }
}

async function admin(sql, serverUrl) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function databaseExists(serverUrl, database) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

function withDatabase(serverUrl, database) {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function startBackend(databaseUrl, profile) {
  const profileDir = join(ROOT, 'bench-results', 'profiles');
  if (profile) mkdirSync(profileDir, { recursive: true });
  const username = 'bench@example.com';
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const server = await startBackendServer({
    databaseUrl,
    superuser: { email: username, password },
    nodeArgs: profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
  });
  return { baseUrl: server.baseUrl, username, password, stop: server.stop };
}

/**
 * One more re-crawl, alone in a fresh Node process, to measure the crawler's own peak memory (the
 * bench process also holds the first crawl's report and the apply's input). Returns its maxRSS in MB.
 */
function crawlerPeakMemoryMb(env, crawlOptions) {
  const script = `
    const { crawl } = await import(${JSON.stringify(pathToFileURL(join(CRAWLER, 'dist', 'index.js')).href)});
    const io = { stdout: () => undefined, stderr: () => undefined, env: process.env };
    const result = await crawl(JSON.parse(process.env.AIDE_BENCH_CRAWL_OPTIONS), io);
    if (result.report.datasets.length !== 0) throw new Error('the re-crawl found differences');
    process.stdout.write(String(process.resourceUsage().maxRSS / 1024));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...env, AIDE_BENCH_CRAWL_OPTIONS: JSON.stringify(crawlOptions) },
    encoding: 'utf8',
  });
  return Number(out.trim());
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(runs, fn) {
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    last = await fn(i);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { ms: median(times), times, last };
}

/** `fns` run in turn, `runs` rounds: each one's median, and the median ratio of the second to the first per round. */
async function takingTurns(runs, fns) {
  const [first, second] = Object.keys(fns);
  const results = Object.fromEntries(Object.keys(fns).map((name) => [name, { times: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const [name, fn] of Object.entries(fns)) {
      const start = process.hrtime.bigint();
      await fn(i);
      results[name].times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  for (const result of Object.values(results)) result.ms = median(result.times);
  const ratios = results[second].times.map((ms, i) => ms / results[first].times[i]);
  return { ...results, processRatio: median(ratios) };
}

const silentIo = (env) => ({ stdout: () => undefined, stderr: () => undefined, env });

export async function run(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      tables: { type: 'string', default: '1000' },
      runs: { type: 'string', default: '3' },
      'no-build': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      database: { type: 'string' },
      'inspect-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const tables = Number(values.tables);
  const runs = Number(values.runs);
  if (!Number.isInteger(tables) || tables < 10 || !Number.isInteger(runs) || runs < 1) {
    process.stderr.write(`--tables must be an integer ≥ 10 and --runs ≥ 1\n\n${HELP}\n`);
    return 2;
  }
  const inspectOnly = values['inspect-only'];
  if (values.database !== undefined && !/^[a-z_][a-z0-9_]*$/.test(values.database)) {
    process.stderr.write(`--database must be a lower-case SQL identifier\n\n${HELP}\n`);
    return 2;
  }
  if (!values['no-build']) {
    for (const pkg of inspectOnly
      ? ['schemas', 'sdk', 'crawler']
      : ['schemas', 'sdk', 'backend', 'crawler']) {
      execFileSync('pnpm', ['--filter', `@aide/${pkg}`, 'build'], { cwd: ROOT, stdio: 'ignore' });
    }
  }
  const { inspectDatabase, crawl, apply } = await import(
    pathToFileURL(join(CRAWLER, 'dist', 'index.js')).href
  );

  const serverUrl = process.env.AIDE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const reused = values.database !== undefined;
  const sourceDb = values.database ?? `aide_bench_source_${suffix}`;
  const registryDb = `aide_bench_registry_${suffix}`;
  const dir = mkdtempSync(join(tmpdir(), 'aide-bench-crawler-'));
  let backend;
  try {
    const sourceUrl = withDatabase(serverUrl, sourceDb);
    if (!reused || !(await databaseExists(serverUrl, sourceDb))) {
      process.stdout.write(`Building a ${tables}-table × 20-column database in 10 schemas…\n`);
      await admin(`CREATE DATABASE ${sourceDb}`, serverUrl);
      await buildDatabase(sourceUrl, tables);
      await admin(`VACUUM ANALYZE`, sourceUrl);
    }
    const inspect = await timed(runs, () => inspectDatabase({ connectionUrl: sourceUrl }));
    if (inspect.last.tables.length !== tables) {
      throw new Error(`${sourceDb} has ${inspect.last.tables.length} tables, not ${tables}`);
    }
    // pg_dump and the whole process as a user runs it (issue 23 §6: start-up, inspection, the JSON
    // file, exit; no registry settings, inspect needs none) take turns, so that both see the same
    // load: on a shared machine the load moves within a minute, and the ratio is per round.
    const { pgDump, inspectProcess, processRatio } = await takingTurns(runs, {
      pgDump: () => {
        execFileSync('pg_dump', ['--schema-only', '--dbname', sourceUrl, '--file', join(dir, 'dump.sql')]);
      },
      inspectProcess: () => {
        execFileSync(
          process.execPath,
          [join(CRAWLER, 'dist', 'bin.js'), 'inspect', '--format', 'json', '-o', join(dir, 'inspect.json')],
          { env: { PATH: process.env.PATH ?? '', AIDE_CRAWLER_CONNECTION_URL: sourceUrl }, stdio: 'ignore' },
        );
      },
    });
    const ratio = (ms) => (ms / pgDump.ms).toFixed(2);
    const inspectRows = [
      ['pg_dump --schema-only', pgDump.ms, '1.00', '', ''],
      ['inspect', inspect.ms, ratio(inspect.ms), inspect.last.summary.catalog_queries, 0],
      [
        '  (whole process, JSON)',
        inspectProcess.ms,
        // The median of the per-round ratios (the two take turns), not the ratio of the medians.
        processRatio.toFixed(2),
        inspect.last.summary.catalog_queries,
        0,
      ],
    ];
    const header = [
      `crawler bench: ${tables} tables × 20 columns, PostgreSQL ${inspect.last.server.version}, median of ${runs}`,
      '',
      `${'phase'.padEnd(24)}${'ms'.padStart(10)}${'× pg_dump'.padStart(11)}${'catalog q'.padStart(11)}${'registry req'.padStart(14)}`,
    ];
    const tableLine = ([phase, ms, r, q, req]) =>
      `${phase.padEnd(24)}${ms.toFixed(0).padStart(10)}${String(r).padStart(11)}${String(q).padStart(11)}${String(req).padStart(14)}`;
    const turnsLine =
      `pg_dump and the whole process taking turns: ${pgDump.times.map((t) => t.toFixed(0)).join(', ')} / ` +
      `${inspectProcess.times.map((t) => t.toFixed(0)).join(', ')} ms; median ratio per round ${processRatio.toFixed(2)} ×`;
    const inspectResults = {
      tables,
      runs,
      pg_dump_ms: pgDump.ms,
      pg_dump_runs_ms: pgDump.times,
      inspect_ms: inspect.ms,
      inspect_process_ms: inspectProcess.ms,
      inspect_process_runs_ms: inspectProcess.times,
      inspect_process_ratio: processRatio,
    };
    if (inspectOnly) {
      process.stdout.write(`${[...header, ...inspectRows.map(tableLine)].join('\n')}\n`);
      process.stdout.write(`${turnsLine}\n`);
      mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
      writeFileSync(
        join(ROOT, 'bench-results', 'crawler.json'),
        JSON.stringify({ ...inspectResults, inspect_only: true }, null, 2),
      );
      return 0;
    }
    await admin(`CREATE DATABASE ${registryDb}`, serverUrl);
    backend = await startBackend(withDatabase(serverUrl, registryDb), values.profile);
    const env = {
      AIDE_METASTORE_URL: backend.baseUrl,
      AIDE_METASTORE_USER: backend.username,
      AIDE_METASTORE_PASSWORD: backend.password,
      AIDE_CRAWLER_CONNECTION_URL: sourceUrl,
    };
    const io = silentIo(env);

    // The system the crawls are for.
    const { AideClient } = await import(pathToFileURL(require.resolve('@aide/sdk')).href);
    const client = new AideClient({
      baseUrl: backend.baseUrl,
      username: backend.username,
      password: backend.password,
    });
    const flavor = (await client.systemFlavors.list({ code: 'postgres14', size: 1 })).items[0];
    await client.systems.create({ code: 'bench_pg', name: 'bench', flavor_id: flavor.id });
    await client.close();

    const report = join(dir, 'report.json');
    const crawlOptions = { systemCode: 'bench_pg', format: 'json', output: report };
    const firstStart = process.hrtime.bigint();
    const first = await crawl(crawlOptions, io);
    const firstCrawlMs = Number(process.hrtime.bigint() - firstStart) / 1e6;
    const applyStart = process.hrtime.bigint();
    const applied = await apply(report, {}, io);
    const applyMs = Number(process.hrtime.bigint() - applyStart) / 1e6;
    if (applied.exitCode !== 0 || applied.result.summary.create !== tables) {
      throw new Error(`apply did not create every dataset: ${JSON.stringify(applied.result.summary)}`);
    }
    const recrawl = await timed(runs, () => crawl({ ...crawlOptions, output: join(dir, 're.json') }, io));
    const again = recrawl.last;
    if (again.report.datasets.length !== 0) {
      throw new Error(`the re-crawl found ${again.report.datasets.length} differences after apply`);
    }
    // The same re-crawl reading every version in full (the path before ADR 0032), once, for comparison.
    const fullStart = process.hrtime.bigint();
    const fullRead = await crawl(
      { ...crawlOptions, output: join(dir, 'full.json'), fullRegistryRead: true },
      io,
    );
    const fullReadMs = Number(process.hrtime.bigint() - fullStart) / 1e6;
    if (fullRead.report.datasets.length !== 0) {
      throw new Error(`the full-read re-crawl found ${fullRead.report.datasets.length} differences`);
    }
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    const crawlerRssMb = crawlerPeakMemoryMb(env, { ...crawlOptions, output: join(dir, 'alone.json') });

    // The tables above have no PII tags. With one tagged column in every dataset, the snapshot parses
    // and re-serialises each stored version to put the current tags in (ADR 0029); the fingerprints
    // ignore tags. One re-crawl each way, after tagging column c02 of every dataset.
    await admin(
      `INSERT INTO field_classifications (field_id, pii_tags)
       SELECT id, ARRAY['contact'] FROM fields WHERE name = 'c02' AND parent_id IS NULL`,
      withDatabase(serverUrl, registryDb),
    );
    const piiTimed = async (fullRegistryRead) => {
      const start = process.hrtime.bigint();
      const outcome = await crawl({ ...crawlOptions, output: join(dir, 'pii.json'), fullRegistryRead }, io);
      if (outcome.report.datasets.length !== 0)
        throw new Error('PII tags made the re-crawl find differences');
      return { ms: Number(process.hrtime.bigint() - start) / 1e6, outcome };
    };
    const piiFull = await piiTimed(true);
    const piiLight = await piiTimed(false);

    const rows = [
      ...inspectRows,
      [
        'first crawl + apply',
        firstCrawlMs + applyMs,
        ratio(firstCrawlMs + applyMs),
        first.catalogQueries,
        first.registryRequests + applied.registryRequests,
      ],
      ['re-crawl, no changes', recrawl.ms, ratio(recrawl.ms), again.catalogQueries, again.registryRequests],
      [
        '  (full registry read)',
        fullReadMs,
        ratio(fullReadMs),
        fullRead.catalogQueries,
        fullRead.registryRequests,
      ],
    ];
    const lines = [
      ...header,
      ...rows.map(tableLine),
      '',
      turnsLine,
      `first crawl ${firstCrawlMs.toFixed(0)} ms, apply ${applyMs.toFixed(0)} ms; re-crawl runs ` +
        `${recrawl.times.map((t) => t.toFixed(0)).join(', ')} ms; the last one's phases: ` +
        `inspect ${again.timings.inspect.toFixed(0)} ms, registry fingerprints ${again.timings.registry.toFixed(0)} ms, ` +
        `versions read ${again.versionsRead} (${again.timings.fetch.toFixed(0)} ms), diff ${again.timings.diff.toFixed(0)} ms; ` +
        `the full registry read's: inspect ${fullRead.timings.inspect.toFixed(0)} ms, snapshot ` +
        `${fullRead.timings.registry.toFixed(0)} ms, diff ${fullRead.timings.diff.toFixed(0)} ms`,
      `registry requests per 500 datasets on re-crawl: ${((again.registryRequests * 500) / tables).toFixed(2)}; ` +
        `peak memory: a re-crawl alone in its own process ${crawlerRssMb.toFixed(0)} MB, ` +
        `the whole bench process ${peakRssMb.toFixed(0)} MB`,
      `with a PII-tagged column in every dataset: re-crawl ${piiLight.ms.toFixed(0)} ms (versions read ` +
        `${piiLight.outcome.versionsRead}); full registry read ${piiFull.ms.toFixed(0)} ms, its snapshot ` +
        `${piiFull.outcome.timings.registry.toFixed(0)} ms (${fullRead.timings.registry.toFixed(0)} ms untagged)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
    writeFileSync(
      join(ROOT, 'bench-results', 'crawler.json'),
      JSON.stringify(
        {
          ...inspectResults,
          first_crawl_ms: firstCrawlMs,
          apply_ms: applyMs,
          recrawl_ms: recrawl.ms,
          recrawl_phases_ms: again.timings,
          recrawl_versions_read: again.versionsRead,
          recrawl_full_read_ms: fullReadMs,
          recrawl_full_read_phases_ms: fullRead.timings,
          catalog_queries: { inspect: inspect.last.summary.catalog_queries, recrawl: again.catalogQueries },
          registry_requests: {
            first_crawl: first.registryRequests,
            apply: applied.registryRequests,
            recrawl: again.registryRequests,
            recrawl_full_read: fullRead.registryRequests,
          },
          pii_tagged: {
            recrawl_ms: piiLight.ms,
            full_read_ms: piiFull.ms,
            full_read_phases_ms: piiFull.outcome.timings,
          },
          peak_rss_mb: peakRssMb,
          crawler_peak_rss_mb: crawlerRssMb,
        },
        null,
        2,
      ),
    );
    return 0;
  } catch (error) {
    process.stderr.write(`crawler bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await backend?.stop();
    if (values.keep) {
      process.stdout.write(`kept the databases ${sourceDb} and ${registryDb}\n`);
    } else {
      if (!reused) {
        await admin(`DROP DATABASE IF EXISTS ${sourceDb} WITH (FORCE)`, serverUrl).catch(() => undefined);
      }
      await admin(`DROP DATABASE IF EXISTS ${registryDb} WITH (FORCE)`, serverUrl).catch(() => undefined);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
