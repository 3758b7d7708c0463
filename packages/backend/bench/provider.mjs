// `pnpm bench provider`: the bulk load of `AideMetadataProvider` (reference §8.8) on a workspace of N
// dataflows with H schema hints each, against the real server (a child process, as in production):
//   - cold: a new provider's `initialize()` (one snapshot request; the first of the run also makes the
//     server build and keep the snapshot, reported apart);
//   - revalidated: `clearCache()` then `initialize()` (If-None-Match → 304, the models held are reused);
// each with its HTTP request count, and a baseline measured in the same run: the same snapshot
// fetched as bytes only (no JSON parse, no model building).
// Targets (issue 11): cold ≤ 3 requests and ≤ 2 s, revalidated 1 request.
//
//   node scripts/bench.mjs provider [--dataflows N] [--hints H] [--runs R] [--no-build]
//
// DATABASE_URL: use that server (a fresh database is created and dropped) instead of an embedded one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildBackend, freshBenchDatabase, runCleanups, startBenchServer } from './harness.mjs';
import { seedProviderScope } from './provider-seed.mjs';

const BACKEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BACKEND, '..', '..');
const SDK = join(REPO, 'packages', 'sdk');
const PROVIDER = join(REPO, 'packages', 'provider');
const RESULTS = join(REPO, 'bench-results', 'provider.json');
const TARGETS = { coldRequests: 3, coldMs: 2000, revalidatedRequests: 1 };
const EMAIL = 'bench-provider@example.com';
const PASSWORD = 'bench-provider-password-1';
const WORKSPACE = 'bench-provider';

const log = (m) => process.stderr.write(`${m}\n`);
const dist = (path) => import(pathToFileURL(join(BACKEND, 'dist', path)).href);
const p50 = (sorted) => sorted[Math.floor(sorted.length / 2)];

/** Milliseconds of `fn`, run `runs` times, sorted. */
async function time(runs, fn) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

export async function run(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataflows: { type: 'string', default: '10000' },
      hints: { type: 'string', default: '20' },
      runs: { type: 'string', default: '5' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    log('usage: pnpm bench provider [--dataflows N] [--hints H] [--runs R] [--no-build]   (DATABASE_URL)');
    return 0;
  }
  const dataflows = Number(values.dataflows);
  const hints = Number(values.hints);
  const runs = Math.max(1, Number(values.runs));
  if (!Number.isInteger(dataflows) || dataflows < 1 || !Number.isInteger(hints) || hints < 1) {
    log('--dataflows and --hints must be positive integers');
    return 2;
  }
  if (!values['no-build']) buildBackend(REPO, ['@aide/sdk', '@aide/provider']);
  const sdk = await import(pathToFileURL(join(SDK, 'dist', 'index.js')).href);
  const { AideMetadataProvider } = await import(pathToFileURL(join(PROVIDER, 'dist', 'index.js')).href);
  const { Agent } = createRequire(join(SDK, 'package.json'))('undici');

  const cleanups = [];
  try {
    const dbUrl = await freshBenchDatabase('provider', { cleanups, log, dist });

    const { baseUrl } = await startBenchServer('provider', {
      databaseUrl: dbUrl,
      email: EMAIL,
      password: PASSWORD,
      cleanups,
      log,
      dist,
    });

    log(`writing ${dataflows} dataflows × ${hints} hint columns …`);
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    cleanups.push(() => db.end());
    const q = async (sql, params = []) => (await db.query(sql, params)).rows;
    const workspaceId = await seedProviderScope(q, { dataflows, hints });

    // Every HTTP request of the provider's client goes through this counter.
    const requests = [];
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const dispatcher = agent.compose((dispatch) => (options, handler) => {
      requests.push(`${options.method} ${String(options.path).split('?')[0]}`);
      return dispatch(options, handler);
    });
    const client = new sdk.AideClient({ baseUrl, username: EMAIL, password: PASSWORD, dispatcher });
    cleanups.push(() => client.close());
    await client.workspaces.get(workspaceId); // logs in: the token is not part of the bulk load
    const counted = async (fn) => {
      requests.length = 0;
      const start = process.hrtime.bigint();
      await fn();
      return { ms: Number(process.hrtime.bigint() - start) / 1e6, requests: [...requests] };
    };

    let check;
    const load = async () => {
      const provider = new AideMetadataProvider({ client, workspace: WORKSPACE });
      const measured = await counted(() => provider.initialize());
      check = provider;
      return measured;
    };
    const first = await load();
    const flows = await check.getDataflows({ activeOnly: false });
    const hinted = flows.filter((f) => f.transform.schema_hints.length === hints).length;
    if (flows.length !== dataflows || hinted !== dataflows) {
      throw new Error(`loaded ${flows.length} dataflows, ${hinted} with ${hints} hints: the scope is wrong`);
    }
    await check.close();

    const cold = [];
    for (let i = 0; i < runs; i++) {
      cold.push(await load());
      await check.close();
    }
    const provider = new AideMetadataProvider({ client, workspace: WORKSPACE });
    await provider.initialize();
    const revalidated = [];
    for (let i = 0; i < runs; i++) {
      await provider.clearCache();
      revalidated.push(await counted(() => provider.initialize()));
      if ((await provider.getDataflows({ activeOnly: false })).length !== dataflows)
        throw new Error('a revalidated load lost dataflows');
    }
    await provider.close();

    // Baseline: the same snapshot's bytes only (one request, no JSON parse, no models).
    const token = (await client.auth.login()).access_token;
    const bytesMs = await time(runs, async () => {
      const response = await fetch(
        `${baseUrl}/api/v1/workspaces/${WORKSPACE}/datacoolie/snapshot?page_size=25000`,
        {
          headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
        },
      );
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`snapshot answered ${response.status}`);
    });
    const ms = (list) => list.map((m) => m.ms).sort((a, b) => a - b);
    const result = {
      dataflows,
      hints_per_dataflow: hints,
      first_load: { ms: first.ms, requests: first.requests.length },
      cold: {
        p50_ms: p50(ms(cold)),
        max_ms: Math.max(...ms(cold)),
        requests: Math.max(...cold.map((m) => m.requests.length)),
        paths: cold[0].requests,
      },
      revalidated: {
        p50_ms: p50(ms(revalidated)),
        requests: Math.max(...revalidated.map((m) => m.requests.length)),
      },
      baseline_snapshot_bytes_p50_ms: p50(bytesMs),
      targets: TARGETS,
    };
    const line = (label, v) => log(`${label.padEnd(52)} ${v}`);
    log('');
    line(`bulk load, ${dataflows} dataflows × ${hints} hints`, `${runs} runs each`);
    line(
      '  first load (server builds and keeps the snapshot)',
      `${first.ms.toFixed(0)} ms, ${first.requests.length} request(s)`,
    );
    line(
      '  cold (new provider), p50 / max',
      `${result.cold.p50_ms.toFixed(0)} ms / ${result.cold.max_ms.toFixed(0)} ms, ${result.cold.requests} request(s) (target ≤ ${TARGETS.coldRequests}, ≤ ${TARGETS.coldMs} ms)`,
    );
    line(
      '  revalidated (clearCache + 304), p50',
      `${result.revalidated.p50_ms.toFixed(1)} ms, ${result.revalidated.requests} request(s) (target ${TARGETS.revalidatedRequests})`,
    );
    line(
      '  baseline: snapshot bytes only (no parse), p50',
      `${result.baseline_snapshot_bytes_p50_ms.toFixed(0)} ms → cold ×${(result.cold.p50_ms / result.baseline_snapshot_bytes_p50_ms).toFixed(1)}`,
    );
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
    log(`\nresults: ${RESULTS}`);
    return 0;
  } finally {
    await runCleanups(cleanups, log);
  }
}
