// The server-side half of `pnpm bench lineage` (issue 27 §4), against the real server as a child process:
//   - intake throughput: C concurrent clients (default 8) posting realistic RunEvents (a START then a
//     COMPLETE per run; 1–10 inputs and 1–10 outputs, mostly registered datasets with schema and
//     columnLineage facets, some unknown; jobType and sql job facets; nominalTime, sometimes parent) to
//     `POST /api/v1/lineage` with an API key as `Authorization: Bearer`, against the same clients doing an
//     authenticated `GET /api/v1/datasets/{id}` (target ≥ 500 events/s);
//   - the job graph at 10,000 nodes (6,000 datasets, 4,000 jobs of 1–3 inputs and 1–3 outputs, cycles),
//     `GET /api/v1/lineage/graph?node=…&depth=5` from job and dataset roots, against a primary-key read
//     (target p50 ≤ 20 ms).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { benchLogin, benchOpenLineageSystem, startBenchServer } from './harness.mjs';

export const INTAKE_TARGETS = { eventsPerSecond: 500, graphP50Ms: 20 };
const EMAIL = 'bench-lineage@example.com';
const PASSWORD = 'bench-lineage-password-1';
const NAMESPACE = 'postgres://db:5432';
const REGISTERED = 2_000;
const COLUMNS = ['id', 'amount', 'label', 'created_at'];
const GRAPH = { datasets: 6_000, unregistered: 600, jobs: 4_000 };

/** CPU time (user + system) of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time of this database's PostgreSQL backends (the server's pool and ours), in ms, when local. */
async function databaseCpuMs(q) {
  const pids = await q(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  let total = 0;
  for (const { pid } of pids) {
    try {
      total += cpuMsOf(pid);
    } catch {
      return NaN; // PostgreSQL on another machine, or a backend gone meanwhile
    }
  }
  return total;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

/** A deterministic pseudo-random sequence (the same events in every run). */
function lcg(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** `REGISTERED` datasets `public.t_<i>` with a published version of four integer columns. */
async function seedRegistered(q, systemId) {
  const [integer] = await q(
    `SELECT dt.id FROM data_types dt JOIN system_flavors f ON f.id = dt.system_flavor_id
     WHERE f.code = 'postgres14' AND dt.code = 'integer'`,
  );
  await q(
    `INSERT INTO datasets (system_id, object_name, kind, layer)
     SELECT $1, 'public.t_' || i, 'rdbms', 'raw' FROM generate_series(1, $2) i`,
    [systemId, REGISTERED],
  );
  await q(
    `INSERT INTO dataset_schemas (dataset_id, version_num) SELECT id, 1 FROM datasets WHERE object_name LIKE 'public.t\\_%'`,
  );
  await q(
    `INSERT INTO fields (dataset_id, name, origin)
     SELECT d.id, c, 'mapped' FROM datasets d CROSS JOIN unnest($1::text[]) c WHERE d.object_name LIKE 'public.t\\_%'`,
    [COLUMNS],
  );
  await q(
    `WITH f AS (
       SELECT f.id AS field_id, s.id AS schema_id, array_position($2::text[], f.name) - 1 AS pos FROM fields f
       JOIN datasets d ON d.id = f.dataset_id JOIN dataset_schemas s ON s.dataset_id = d.id
       WHERE d.object_name LIKE 'public.t\\_%'),
     ti AS (INSERT INTO type_instances (data_type_id, note) SELECT $1, f.field_id::text FROM f RETURNING id, note)
     INSERT INTO field_bindings (field_id, dataset_schema_id, position, type_instance_id)
     SELECT f.field_id, f.schema_id, f.pos, ti.id FROM f JOIN ti ON ti.note = f.field_id::text`,
    [integer.id, COLUMNS],
  );
  await q(`UPDATE type_instances SET note = NULL WHERE note IS NOT NULL`);
}

const schemaFacet = {
  _producer: 'https://example.com/bench',
  _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json',
  fields: COLUMNS.map((name) => ({ name, type: 'integer' })),
};

/**
 * The jobs' fixed inputs and outputs (a job runs the same datasets every time, as a scheduled job does):
 * 1–10 of each, one in ten unknown to the registry, an output never one of the job's inputs.
 */
function jobsOf(count) {
  const rnd = lcg(27);
  const dataset = () => (rnd(10) === 0 ? `staging.unknown_${rnd(5000)}` : `public.t_${1 + rnd(REGISTERED)}`);
  return Array.from({ length: count }, (_, j) => {
    const inputs = [...new Set(Array.from({ length: 1 + rnd(10) }, dataset))];
    const outputs = [...new Set(Array.from({ length: 1 + rnd(10) }, dataset))].filter(
      (n) => !inputs.includes(n),
    );
    if (outputs.length === 0) outputs.push(`public.t_${1 + ((j * 7) % REGISTERED)}`);
    return { name: `etl.job_${j}`, inputs, outputs, parent: j % 3 === 0 };
  });
}

function runEvents(job, n) {
  const runId = randomUUID();
  const start = new Date(Date.UTC(2026, 11, 1) + n * 60_000);
  const event = (eventType, time) => ({
    eventType,
    eventTime: time.toISOString(),
    producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.26.0/integration/airflow',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: {
      runId,
      facets: {
        nominalTime: {
          _producer: 'https://example.com/bench',
          _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/NominalTimeRunFacet.json',
          nominalStartTime: start.toISOString(),
        },
        ...(job.parent && {
          parent: {
            _producer: 'https://example.com/bench',
            _schemaURL: 'https://openlineage.io/spec/facets/1-1-0/ParentRunFacet.json',
            run: { runId: randomUUID() },
            job: { namespace: 'airflow', name: 'nightly_dag' },
          },
        }),
      },
    },
    job: {
      namespace: 'airflow',
      name: job.name,
      facets: {
        jobType: {
          _producer: 'https://example.com/bench',
          _schemaURL: 'https://openlineage.io/spec/facets/2-0-3/JobTypeJobFacet.json',
          processingType: 'BATCH',
          integration: 'AIRFLOW',
          jobType: 'TASK',
        },
        sql: {
          _producer: 'https://example.com/bench',
          _schemaURL: 'https://openlineage.io/spec/facets/1-1-0/SQLJobFacet.json',
          query: `INSERT INTO ${job.outputs[0]} SELECT id, amount, label, created_at FROM ${job.inputs[0]}`,
        },
      },
    },
    inputs: job.inputs.map((name) => ({ namespace: NAMESPACE, name, facets: { schema: schemaFacet } })),
    outputs: job.outputs.map((name) => ({
      namespace: NAMESPACE,
      name,
      facets: {
        schema: schemaFacet,
        columnLineage: {
          _producer: 'https://example.com/bench',
          _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
          fields: Object.fromEntries(
            COLUMNS.slice(0, 3).map((field) => [
              field,
              {
                inputFields: job.inputs
                  .slice(0, 2)
                  .map((input) => ({ namespace: NAMESPACE, name: input, field })),
              },
            ]),
          ),
        },
      },
    })),
  });
  return [event('START', start), event('COMPLETE', new Date(start.getTime() + 30_000))];
}

/**
 * `clients` loops, each sending `perClient` requests one after the other (`request(client, i)` returns
 * whether the answer was the expected one); the wall time, each request's time, the failures.
 */
async function closedLoop(clients, perClient, request) {
  const times = [];
  let failures = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < perClient; i++) {
        const t = process.hrtime.bigint();
        if (!(await request(c, i))) failures += 1;
        times.push(ms(t));
      }
    }),
  );
  const wall = ms(start);
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    wall_ms: wall,
    per_second: (times.length / wall) * 1000,
    p50_ms: percentile(times, 50),
    p95_ms: percentile(times, 95),
    failures,
  };
}

/** The bare intake (bench/bare-intake-server.mjs) on `dbUrl`, started and waited for; its base URL. */
async function startBareIntake(dbUrl, cleanups) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./bare-intake-server.mjs', import.meta.url))],
    {
      env: { ...process.env, DATABASE_URL: dbUrl, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  cleanups.push(() => child.kill('SIGTERM'));
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`the bare intake exited with ${code}`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, child };
}

async function intake({ baseUrl, server, key, q, clients, events, warmup, log, dbUrl, cleanups }) {
  const post = async (event, base = baseUrl) => {
    const r = await fetch(`${base}/api/v1/lineage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    const body = await r.text();
    if (r.status !== 201 && r.status !== 200) log(`  intake answered ${r.status}: ${body.slice(0, 300)}`);
    return r.status === 201;
  };
  // Each client runs its own jobs (no two clients run one job at once, as a scheduler would not).
  const jobs = jobsOf(clients * 50);
  let runNumber = 0;
  const phase = (runsPerClient, base = baseUrl) =>
    closedLoop(
      clients,
      runsPerClient * 2,
      (() => {
        const pending = Array.from({ length: clients }, () => []);
        return (c, i) => {
          if (pending[c].length === 0) {
            const job = jobs[c * 50 + (Math.floor(i / 2) % 50)];
            pending[c].push(...runEvents(job, runNumber++));
          }
          return post(pending[c].shift(), base);
        };
      })(),
    );
  log(`intake: warm-up ${warmup} events, then ${events} measured, ${clients} clients …`);
  await phase(Math.ceil(warmup / clients / 2));
  // Statistics of a registry in service: the tables the intake writes were empty at the last ANALYZE,
  // and autovacuum (a minute's naptime, a busy shared server) had not analysed them within a run, so
  // their plans read every active link of the table (EXPLAIN of DatasetLinkBatch.linkEvery).
  await q('ANALYZE');
  const cpuBefore = cpuMsOf(server.pid);
  const dbCpuBefore = await databaseCpuMs(q);
  const [walBefore] = await q('SELECT pg_current_wal_lsn() AS lsn');
  const clientCpuBefore = process.cpuUsage();
  const measured = await phase(Math.ceil(events / clients / 2));
  const clientCpu = process.cpuUsage(clientCpuBefore);
  // Write-ahead log written meanwhile (the whole server's: read on a quiet one), per event.
  const [wal] = await q('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::float8 AS bytes', [walBefore.lsn]);
  const serverCpuMs = cpuMsOf(server.pid) - cpuBefore;
  const dbCpuMs = (await databaseCpuMs(q)) - dbCpuBefore;

  // The same clients and events against the bare intake: the most they can send on this machine.
  const bare = await startBareIntake(dbUrl, cleanups);
  await phase(Math.ceil(warmup / clients / 2), bare.baseUrl);
  const bareCpuBefore = cpuMsOf(bare.child.pid);
  const bareDbCpuBefore = await databaseCpuMs(q);
  const bareMeasured = await phase(Math.ceil(events / clients / 2), bare.baseUrl);
  bareMeasured.database_cpu_ms_per_request =
    ((await databaseCpuMs(q)) - bareDbCpuBefore) / bareMeasured.requests;
  bareMeasured.server_cpu_ms_per_request = (cpuMsOf(bare.child.pid) - bareCpuBefore) / bareMeasured.requests;
  bare.child.kill('SIGTERM');

  const ids = (await q(`SELECT id FROM datasets WHERE object_name LIKE 'public.t\\_%' LIMIT 500`)).map(
    (r) => r.id,
  );
  const get = async (c, i) => {
    const r = await fetch(`${baseUrl}/api/v1/datasets/${ids[(c * 61 + i) % ids.length]}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await r.arrayBuffer();
    return r.status === 200;
  };
  await closedLoop(clients, Math.ceil(warmup / clients), get);
  const getCpuBefore = cpuMsOf(server.pid);
  const getDbCpuBefore = await databaseCpuMs(q);
  const baseline = await closedLoop(clients, Math.ceil(events / clients), get);
  baseline.server_cpu_ms_per_request = (cpuMsOf(server.pid) - getCpuBefore) / baseline.requests;
  baseline.database_cpu_ms_per_request = ((await databaseCpuMs(q)) - getDbCpuBefore) / baseline.requests;
  const [counts] = await q(
    `SELECT (SELECT count(*)::int FROM lineage_runs) AS runs, (SELECT count(*)::int FROM lineage_jobs) AS jobs,
            (SELECT count(*)::int FROM lineage_job_versions) AS job_versions,
            (SELECT count(*)::int FROM dataset_links) AS dataset_links,
            (SELECT count(*)::int FROM openlineage_events) AS events,
            (SELECT count(*)::int FROM lineage_observed_schemas) AS observed_schemas`,
  );
  const sizes = jobs.map((j) => j.inputs.length + j.outputs.length);
  return {
    clients,
    events: measured.requests,
    events_per_second: measured.per_second,
    p50_ms: measured.p50_ms,
    p95_ms: measured.p95_ms,
    failures: measured.failures,
    server_cpu_ms_per_event: serverCpuMs / measured.requests,
    // The 8 clients themselves (this process: building, sending and reading events), on the same cores.
    client_cpu_ms_per_event: (clientCpu.user + clientCpu.system) / 1000 / measured.requests,
    server_core_share: serverCpuMs / measured.wall_ms,
    database_cpu_ms_per_event: dbCpuMs / measured.requests,
    wal_bytes_per_event: wal.bytes / measured.requests,
    database_core_share: dbCpuMs / measured.wall_ms,
    datasets_per_event_avg: sizes.reduce((a, b) => a + b, 0) / sizes.length,
    datasets_per_event_max: Math.max(...sizes),
    baseline_get_dataset: baseline,
    ratio: measured.per_second / baseline.per_second,
    baseline_bare_intake: bareMeasured,
    bare_ratio: measured.per_second / bareMeasured.per_second,
    stored: counts,
    target_events_per_second: INTAKE_TARGETS.eventsPerSecond,
  };
}

/** 6,000 datasets (5,400 registered, 600 known by name only) and 4,000 jobs of 1–3 inputs and outputs. */
async function seedJobGraph(q, systemId) {
  const registered = GRAPH.datasets - GRAPH.unregistered;
  await q(
    `INSERT INTO datasets (system_id, object_name, kind, layer)
     SELECT $1, 'jg.d' || i, 'rdbms', 'raw' FROM generate_series(0, $2 - 1) i`,
    [systemId, registered],
  );
  await q(
    `INSERT INTO lineage_jobs (namespace, name, facets_time)
     SELECT 'jobgraph', 'job_' || i, now() FROM generate_series(0, $1 - 1) i`,
    [GRAPH.jobs],
  );
  // Node i of the datasets: registered (`dataset:<id>`) below `registered`, else known by name only.
  // Job j reads 1–3 and writes 1–3 datasets spread pseudo-randomly over all 6,000: cycles everywhere.
  // Every fifth job's first input is one of 100 shared datasets (dimension tables: 8 readers each), so
  // that a walk of depth 5 reaches hundreds of nodes rather than dozens.
  await q(
    `WITH ds AS (
       SELECT i, CASE WHEN i < $2 THEN 'dataset:' || d.id ELSE 'dataset:' || $3::text || '/jg.u' || i END AS key,
              d.id, CASE WHEN i < $2 THEN d.object_name ELSE 'jg.u' || i END AS name
       FROM generate_series(0, $1 - 1) i LEFT JOIN datasets d ON d.object_name = 'jg.d' || i),
     jobs AS (SELECT substr(name, 5)::int AS j, id FROM lineage_jobs WHERE namespace = 'jobgraph'),
     edges AS (
       SELECT DISTINCT jobs.id AS job_id, r.role,
              CASE WHEN r.role = 'input' AND k = 1 AND jobs.j % 5 = 0 THEN (jobs.j / 5) % 100
                   ELSE (jobs.j::bigint * 7919 + k * 104729 + CASE r.role WHEN 'input' THEN 0 ELSE 3307 END) % $1
              END AS i
       FROM jobs CROSS JOIN (VALUES ('input'), ('output')) r(role)
       CROSS JOIN generate_series(1, 3) k
       WHERE k <= 1 + (jobs.j + CASE r.role WHEN 'input' THEN 0 ELSE 1 END) % 3)
     INSERT INTO lineage_job_datasets (job_id, role, dataset_key, namespace, name, dataset_id)
     SELECT e.job_id, e.role, ds.key, $3::text, ds.name, ds.id FROM edges e JOIN ds ON ds.i = e.i
     ON CONFLICT DO NOTHING`,
    [GRAPH.datasets, registered, NAMESPACE],
  );
}

async function timeSequential(runs, fn) {
  for (let i = 0; i < 3; i++) await fn(i);
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    out.push(ms(t));
  }
  return out.sort((a, b) => a - b);
}

async function jobGraph({ baseUrl, token, q, runs, log }) {
  const jobIds = (
    await q(`SELECT id FROM lineage_jobs WHERE namespace = 'jobgraph' ORDER BY name LIMIT $1`, [runs + 3])
  ).map((r) => r.id);
  const datasetIds = (
    await q(`SELECT id FROM datasets WHERE object_name LIKE 'jg.d%' ORDER BY object_name LIMIT $1`, [
      runs + 3,
    ])
  ).map((r) => r.id);
  const [{ nodes, edges }] = await q(
    `SELECT (SELECT count(*)::int FROM lineage_jobs WHERE namespace = 'jobgraph')
          + (SELECT count(DISTINCT dataset_key)::int FROM lineage_job_datasets jd JOIN lineage_jobs j ON j.id = jd.job_id
             WHERE j.namespace = 'jobgraph') AS nodes,
            (SELECT count(*)::int FROM lineage_job_datasets jd JOIN lineage_jobs j ON j.id = jd.job_id
             WHERE j.namespace = 'jobgraph') AS edges`,
  );
  const get = async (path) => {
    const r = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await r.json();
    if (r.status !== 200)
      throw new Error(`${path} answered ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  };
  const reached = { job: 0, dataset: 0 };
  const graphOf = (kind, ids, direction) =>
    timeSequential(runs, async (i) => {
      const body = await get(`/api/v1/lineage/graph?node=${kind}:${ids[i]}&direction=${direction}&depth=5`);
      reached[kind] = Math.max(reached[kind], body.total_nodes ?? 0);
    });
  log(`job graph: ${nodes} nodes, ${edges} edges; ${runs} reads per root kind …`);
  const jobBoth = await graphOf('job', jobIds, 'both');
  const jobDown = await graphOf('job', jobIds, 'downstream');
  const datasetBoth = await graphOf('dataset', datasetIds, 'both');
  const httpPk = await timeSequential(runs, (i) => get(`/api/v1/datasets/${datasetIds[i]}`));
  const sqlPk = await timeSequential(runs, (i) => q('SELECT * FROM datasets WHERE id = $1', [datasetIds[i]]));
  const stats = (sorted) => ({ p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95) });
  const base = percentile(httpPk, 50);
  return {
    nodes,
    edges,
    runs,
    max_nodes_reached: reached,
    job_both: { ...stats(jobBoth), ratio: percentile(jobBoth, 50) / base },
    job_downstream: { ...stats(jobDown), ratio: percentile(jobDown, 50) / base },
    dataset_both: { ...stats(datasetBoth), ratio: percentile(datasetBoth, 50) / base },
    baseline_http_get_dataset: stats(httpPk),
    baseline_sql_pk: stats(sqlPk),
    target_p50_ms: INTAKE_TARGETS.graphP50Ms,
  };
}

/**
 * Starts the server on `dbUrl` (under `--cpu-prof` into `profileDir` when given), seeds, and runs the
 * intake and job-graph measurements.
 */
export async function runIntakeAndJobGraph({
  dbUrl,
  cleanups,
  log,
  dist,
  clients,
  events,
  warmup,
  runs,
  only,
  profileDir,
}) {
  const { baseUrl, server } = await startBenchServer('lineage', {
    databaseUrl: dbUrl,
    email: EMAIL,
    password: PASSWORD,
    // The server's V8 CPU profile, written when it exits cleanly (SIGTERM at the end of the run).
    nodeArgs: profileDir
      ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', 'lineage-api.cpuprofile']
      : [],
    cleanups,
    log,
    dist,
  });
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  cleanups.push(() => db.end());
  const q = async (sql, params = []) => (await db.query(sql, params)).rows;
  const system = await benchOpenLineageSystem(q, NAMESPACE);
  const token = await benchLogin(baseUrl, EMAIL, PASSWORD);
  const json = async (path, body) => {
    const r = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
    return r.json();
  };
  const workspace = await json('/api/v1/workspaces', { code: 'bench-lineage', name: 'Bench lineage' });
  const { key } = await json('/api/v1/api-keys', {
    name: 'bench-openlineage',
    workspace_ids: [workspace.id],
    scopes: ['catalogue:read', 'catalogue:write'],
  });

  const result = {};
  if (only !== 'jobs') {
    log(`registering ${REGISTERED} datasets with a published version …`);
    await seedRegistered(q, system.id);
    await q('ANALYZE');
    result.intake = await intake({ baseUrl, server, key, q, clients, events, warmup, log, dbUrl, cleanups });
  }
  if (only !== 'intake') {
    log(`building the job graph (${GRAPH.datasets} datasets, ${GRAPH.jobs} jobs) …`);
    await seedJobGraph(q, system.id);
    await q('VACUUM ANALYZE');
    result.job_graph = await jobGraph({ baseUrl, token, q, runs, log });
  }
  return result;
}

/** Prints what `runIntakeAndJobGraph` measured. */
export function printIntakeAndJobGraph(result, line) {
  const { intake: i, job_graph: g } = result;
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  if (i) {
    line(
      `OpenLineage intake, ${i.clients} clients`,
      `${i.events} events (START + COMPLETE), ${i.datasets_per_event_avg.toFixed(1)} datasets per event avg, ${i.datasets_per_event_max} max`,
    );
    line(
      '  events/s, p50 / p95',
      `${i.events_per_second.toFixed(0)} events/s, ${i.p50_ms.toFixed(1)} / ${i.p95_ms.toFixed(1)} ms, ${i.failures} failed` +
        `  → ${verdict(i.events_per_second >= INTAKE_TARGETS.eventsPerSecond && i.failures === 0)} (≥ ${INTAKE_TARGETS.eventsPerSecond})`,
    );
    const b = i.baseline_get_dataset;
    line(
      '  baseline: GET /datasets/{id}, same clients',
      `${b.per_second.toFixed(0)} req/s, ${b.p50_ms.toFixed(1)} / ${b.p95_ms.toFixed(1)} ms → ratio ×${i.ratio.toFixed(3)}`,
    );
    const bare = i.baseline_bare_intake;
    line(
      '  baseline: bare intake (parse, one INSERT)',
      `${bare.per_second.toFixed(0)} events/s, ${bare.p50_ms.toFixed(1)} / ${bare.p95_ms.toFixed(1)} ms, CPU per event: its server ${bare.server_cpu_ms_per_request.toFixed(2)} ms, PostgreSQL ${bare.database_cpu_ms_per_request.toFixed(2)} ms → ratio ×${i.bare_ratio.toFixed(3)}`,
    );
    line(
      '  server CPU per event / per GET',
      `${i.server_cpu_ms_per_event.toFixed(2)} ms / ${b.server_cpu_ms_per_request.toFixed(2)} ms (server busy ${(i.server_core_share * 100).toFixed(0)} % of a core during the intake)`,
    );
    line(
      '  PostgreSQL CPU per event / per GET',
      `${i.database_cpu_ms_per_event.toFixed(2)} ms / ${b.database_cpu_ms_per_request.toFixed(2)} ms (its backends busy ${(i.database_core_share * 100).toFixed(0)} % of a core during the intake)`,
    );
    line(
      "  the clients' own CPU per event",
      `${i.client_cpu_ms_per_event.toFixed(2)} ms (this process; at ${INTAKE_TARGETS.eventsPerSecond} events/s they alone would take ${((i.client_cpu_ms_per_event * INTAKE_TARGETS.eventsPerSecond) / 1000).toFixed(2)} cores of ${availableParallelism()})`,
    );
    line(
      '  write-ahead log per event',
      `${(i.wal_bytes_per_event / 1024).toFixed(1)} KiB (the server's, during the intake)`,
    );
    line('  stored', JSON.stringify(i.stored));
  }
  if (g) {
    line(
      `job graph depth 5 (${g.nodes} nodes, ${g.edges} edges)`,
      `up to ${JSON.stringify(g.max_nodes_reached)} nodes reached`,
    );
    const row = (label, s) =>
      line(
        `  ${label}, p50 / p95`,
        `${s.p50_ms.toFixed(1)} / ${s.p95_ms.toFixed(1)} ms, ×${s.ratio.toFixed(1)} the GET  → ${verdict(s.p50_ms <= g.target_p50_ms)} (p50 ≤ ${g.target_p50_ms} ms)`,
      );
    row('job root, both', g.job_both);
    row('job root, downstream', g.job_downstream);
    row('dataset root, both', g.dataset_both);
    line(
      '  baseline: GET /datasets/{id}; SQL PK read',
      `${g.baseline_http_get_dataset.p50_ms.toFixed(2)} ms; ${g.baseline_sql_pk.p50_ms.toFixed(2)} ms p50`,
    );
  }
}
