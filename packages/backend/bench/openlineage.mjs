// `pnpm bench openlineage`: the cost of one OpenLineage RunEvent against the real server (a child process,
// as in production; issue 22), each with the liveness of the server while it is handled:
//   - N unknown inputs × N unknown outputs (default 1,000 × 1,000, about 72 KB), then the same event
//     again (a replay: the stored answer);
//   - K known inputs × K known outputs (default 150 × 150: 22,500 pairs, every dataset with a published
//     version), first (links created) and with a new run id (links confirmed).
// Per event: status, response time, response body size, `/health/live` polled back to back meanwhile
// (count, max, p50), and the server's resident memory (VmRSS) before and after and its peak (VmHWM).
// Targets (issue 22): the unknown event answered in < 5 s with a body < 1 MB, health < 1 s throughout.
//
//   node scripts/bench.mjs openlineage [--unknown N] [--known K] [--max-pairs P] [--no-build]
//
// --max-pairs sets AIDE_OPENLINEAGE_MAX_DATASET_PAIRS on the server (default: the server's default,
// under which the 150 × 150 event is refused with 413).
// DATABASE_URL: use that server (a fresh database is created and dropped) instead of an embedded one.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  benchLogin,
  benchOpenLineageSystem,
  buildBackend,
  freshBenchDatabase,
  runCleanups,
  startBenchServer,
} from './harness.mjs';

const BACKEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BACKEND, '..', '..');
const RESULTS = join(REPO, 'bench-results', 'openlineage.json');
const TARGETS = { unknownMs: 5000, unknownBodyBytes: 1_000_000, healthMs: 1000 };
const EMAIL = 'bench-openlineage@example.com';
const PASSWORD = 'bench-openlineage-password-1';
const NAMESPACE = 'postgres://db:5432';

const log = (m) => process.stderr.write(`${m}\n`);
const dist = (path) => import(pathToFileURL(join(BACKEND, 'dist', path)).href);

/** The server's resident and peak memory in MB (Linux /proc). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss_mb: kb('VmRSS') / 1024, peak_mb: kb('VmHWM') / 1024 };
}

/** K datasets `public.<prefix>_<i>` with a published version (one bound integer column each). */
async function seedKnown(q, systemId, prefix, k) {
  const [integer] = await q(
    `SELECT dt.id FROM data_types dt JOIN system_flavors f ON f.id = dt.system_flavor_id
     WHERE f.code = 'postgres14' AND dt.code = 'integer'`,
  );
  await q(
    `INSERT INTO datasets (system_id, object_name, kind, layer)
     SELECT $1, 'public.' || $2 || '_' || i, 'rdbms', 'raw' FROM generate_series(1, $3) i`,
    [systemId, prefix, k],
  );
  const like = `public.${prefix}\\_%`;
  await q(
    `INSERT INTO dataset_schemas (dataset_id, version_num) SELECT id, 1 FROM datasets WHERE object_name LIKE $1`,
    [like],
  );
  await q(
    `INSERT INTO fields (dataset_id, name, origin) SELECT id, 'id', 'mapped' FROM datasets WHERE object_name LIKE $1`,
    [like],
  );
  await q(
    `WITH f AS (
       SELECT f.id AS field_id, s.id AS schema_id FROM fields f
       JOIN datasets d ON d.id = f.dataset_id JOIN dataset_schemas s ON s.dataset_id = d.id
       WHERE d.object_name LIKE $1),
     ti AS (INSERT INTO type_instances (data_type_id, note) SELECT $2, f.field_id::text FROM f RETURNING id, note)
     INSERT INTO field_bindings (field_id, dataset_schema_id, position, type_instance_id)
     SELECT f.field_id, f.schema_id, 0, ti.id FROM f JOIN ti ON ti.note = f.field_id::text`,
    [like, integer.id],
  );
  await q(`UPDATE type_instances SET note = NULL WHERE note IS NOT NULL`);
}

function eventOf(inputs, outputs, runId = randomUUID()) {
  return {
    eventType: 'COMPLETE',
    eventTime: new Date().toISOString(),
    producer: 'https://example.com/bench',
    run: { runId },
    job: { namespace: 'bench', name: 'amplification' },
    inputs: inputs.map((name) => ({ namespace: NAMESPACE, name })),
    outputs: outputs.map((name) => ({ namespace: NAMESPACE, name })),
  };
}

/** Posts `event` while `/health/live` is polled back to back; what both saw. */
async function measure(baseUrl, token, pid, label, event) {
  const body = JSON.stringify(event);
  const before = memoryOf(pid);
  const health = [];
  let done = false;
  const poll = (async () => {
    while (!done) {
      const start = process.hrtime.bigint();
      const r = await fetch(`${baseUrl}/health/live`);
      await r.arrayBuffer();
      health.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  })();
  const start = process.hrtime.bigint();
  const response = await fetch(`${baseUrl}/api/v1/lineage/openlineage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  const answer = Buffer.from(await response.arrayBuffer());
  const bytes = answer.byteLength;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  done = true;
  await poll;
  const after = memoryOf(pid);
  const sorted = [...health].sort((a, b) => a - b);
  const result = {
    label,
    request_bytes: Buffer.byteLength(body),
    status: response.status,
    ms,
    body_bytes: bytes,
    health_polls: sorted.length,
    health_max_ms: sorted.at(-1) ?? 0,
    health_p50_ms: sorted[Math.floor(sorted.length / 2)] ?? 0,
    rss_before_mb: before.rss_mb,
    rss_after_mb: after.rss_mb,
    peak_rss_mb: after.peak_mb,
  };
  const mb = (n) => `${(n / 1e6).toFixed(n < 1e6 ? 3 : 1)} MB`;
  log(
    `${label.padEnd(40)} ${String(result.status).padEnd(4)} ${ms.toFixed(0).padStart(7)} ms  body ${mb(bytes).padStart(10)}` +
      `  health max ${result.health_max_ms.toFixed(0).padStart(5)} ms (${result.health_polls} polls)` +
      `  RSS ${before.rss_mb.toFixed(0)} → ${after.rss_mb.toFixed(0)} MB (peak ${after.peak_mb.toFixed(0)})`,
  );
  if (!response.ok) {
    const { error_code, detail, details } = JSON.parse(answer.toString('utf8'));
    result.error = { error_code, detail, details };
    log(`${''.padEnd(40)} ${error_code}: ${detail} ${JSON.stringify(details ?? {}).slice(0, 300)}`);
  }
  return result;
}

export async function run(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      unknown: { type: 'string', default: '1000' },
      known: { type: 'string', default: '150' },
      'max-pairs': { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    log(
      'usage: pnpm bench openlineage [--unknown N] [--known K] [--max-pairs P] [--no-build]   (DATABASE_URL)',
    );
    return 0;
  }
  const unknown = Number(values.unknown);
  const known = Number(values.known);
  if (!Number.isInteger(unknown) || unknown < 1 || !Number.isInteger(known) || known < 1) {
    log('--unknown and --known must be positive integers');
    return 2;
  }
  if (!values['no-build']) buildBackend(REPO);

  const cleanups = [];
  try {
    const dbUrl = await freshBenchDatabase('openlineage', { cleanups, log, dist });
    const { baseUrl, server } = await startBenchServer('openlineage', {
      databaseUrl: dbUrl,
      email: EMAIL,
      password: PASSWORD,
      env: values['max-pairs'] ? { AIDE_OPENLINEAGE_MAX_DATASET_PAIRS: values['max-pairs'] } : {},
      cleanups,
      log,
      dist,
    });

    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    cleanups.push(() => db.end());
    const q = async (sql, params = []) => (await db.query(sql, params)).rows;
    const system = await benchOpenLineageSystem(q, NAMESPACE);
    log(`registering ${known} + ${known} datasets with a published version …`);
    await seedKnown(q, system.id, 'src', known);
    await seedKnown(q, system.id, 'dst', known);
    await q('ANALYZE');

    const token = await benchLogin(baseUrl, EMAIL, PASSWORD);
    const names = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

    log('');
    const unknownEvent = eventOf(names('i', unknown), names('o', unknown));
    const results = [
      await measure(baseUrl, token, server.pid, `${unknown} × ${unknown} unknown`, unknownEvent),
      await measure(baseUrl, token, server.pid, `${unknown} × ${unknown} unknown, replayed`, unknownEvent),
      await measure(
        baseUrl,
        token,
        server.pid,
        `${known} × ${known} known (links created)`,
        eventOf(names('public.src_', known), names('public.dst_', known)),
      ),
      await measure(
        baseUrl,
        token,
        server.pid,
        `${known} × ${known} known (new run: confirmed)`,
        eventOf(names('public.src_', known), names('public.dst_', known)),
      ),
    ];
    const [{ n: links }] = await q(
      `SELECT count(*)::int AS n FROM dataset_links WHERE note = 'OpenLineage: bench amplification'`,
    );
    log(`dataset links written: ${links}`);
    const result = {
      unknown,
      known,
      max_pairs: values['max-pairs'] ?? 'default',
      links,
      results,
      targets: TARGETS,
    };
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
    log(`\nresults: ${RESULTS}`);
    return 0;
  } finally {
    await runCleanups(cleanups, log);
  }
}
