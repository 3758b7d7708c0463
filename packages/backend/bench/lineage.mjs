// `pnpm bench lineage`: the lineage reads at scale, each with its query count and a baseline measured
// in the same run (DESIGN §10):
//   - the downstream graph of depth 5 on a 10,000-dataset, 30,000-link graph with cycles, vs a
//     primary-key read of one dataset (target: p50 under 50 ms);
//   - the bulk compat report over 1,000 links (5 field links each, every report computed), vs the
//     single query that reads those links' field rows (target: under 1 s, queries independent of N);
//   - against the real server (lineage-intake.mjs, issue 27): OpenLineage intake throughput with 8
//     concurrent clients vs a GET of a dataset (target ≥ 500 events/s), and the job graph of depth 5 at
//     10,000 job and dataset nodes vs the same GET (target p50 ≤ 20 ms).
//
//   node scripts/bench.mjs lineage [--runs N] [--clients C] [--events E] [--warmup W]
//                                  [--only graph|intake|jobs] [--no-build] [--profile]
//
// --profile: the server runs under node --cpu-prof (bench-results/profiles/lineage-api.cpuprofile).
//
// DATABASE_URL: use that server (a fresh database is created and dropped) instead of an embedded one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildBackend, freshBenchDatabase, runCleanups } from './harness.mjs';
import { printIntakeAndJobGraph, runIntakeAndJobGraph } from './lineage-intake.mjs';

const BACKEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BACKEND, '..', '..');
const RESULTS = join(REPO, 'bench-results', 'lineage.json');
const PROFILES = join(REPO, 'bench-results', 'profiles');
const TARGETS = { graphP50Ms: 50, compatMs: 1000 };
const N = 10_000;
const LINKS = 1_000;
const FIELDS_PER_LINK = 5;

const log = (m) => process.stderr.write(`${m}\n`);
const dist = (path) => import(pathToFileURL(join(BACKEND, 'dist', path)).href);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Times `fn` `runs` times after two warm-up calls; milliseconds sorted. */
async function time(runs, fn) {
  for (let i = 0; i < 2; i++) await fn(i);
  const out = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

/** Counts the statements sent through the DataSource's pool while `fn` runs. */
function queryCounter(dataSource) {
  const state = { on: false, n: 0 };
  const wrapped = new WeakSet();
  dataSource.driver.master.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const original = client.query.bind(client);
    client.query = (...args) => {
      if (state.on) state.n += 1;
      return original(...args);
    };
  });
  return async (fn) => {
    state.n = 0;
    state.on = true;
    try {
      await fn();
    } finally {
      state.on = false;
    }
    return state.n;
  };
}

async function buildGraph(q, systemId) {
  await q(
    `INSERT INTO datasets (system_id, object_name, kind, layer)
     SELECT $1, 'graph.n' || i, 'rdbms', 'raw' FROM generate_series(0, $2 - 1) i`,
    [systemId, N],
  );
  await q(
    `INSERT INTO dataset_schemas (dataset_id, version_num) SELECT id, 1 FROM datasets WHERE object_name LIKE 'graph.n%'`,
  );
  await q(
    `WITH node AS (
       SELECT substr(d.object_name, 8)::int AS i, d.id, s.id AS schema_id
       FROM datasets d JOIN dataset_schemas s ON s.dataset_id = d.id WHERE d.object_name LIKE 'graph.n%')
     INSERT INTO dataset_links (source_dataset_id, target_dataset_id, source_schema_id, target_schema_id)
     SELECT a.id, b.id, a.schema_id, b.schema_id FROM node a CROSS JOIN generate_series(1, 3) k
     JOIN node b ON b.i = (a.i + 1 + ((a.i::bigint * 7919 + k * 104729) % ($1 - 1))) % $1`,
    [N],
  );
}

/** 1,000 links between 2,000 datasets, each with 5 bound columns per side and 5 field links. */
async function buildCompat(q, systemId) {
  const types = await q(
    `SELECT dt.id, dt.code FROM data_types dt JOIN system_flavors f ON f.id = dt.system_flavor_id
     WHERE f.code = 'postgres14' AND dt.code IN ('integer', 'bigint', 'text', 'varchar', 'numeric')`,
  );
  const id = Object.fromEntries(types.map((t) => [t.code, t.id]));
  await q(
    `INSERT INTO datasets (system_id, object_name, kind, layer)
     SELECT $1, 'compat.' || side || '.' || i, 'rdbms', CASE side WHEN 's' THEN 'source' ELSE 'raw' END
     FROM generate_series(1, $2) i CROSS JOIN unnest(ARRAY['s', 't']) side`,
    [systemId, LINKS],
  );
  await q(
    `INSERT INTO dataset_schemas (dataset_id, version_num) SELECT id, 1 FROM datasets WHERE object_name LIKE 'compat.%'`,
  );
  await q(
    `INSERT INTO fields (dataset_id, name)
     SELECT d.id, 'c' || c FROM datasets d CROSS JOIN generate_series(1, $1) c WHERE d.object_name LIKE 'compat.%'`,
    [FIELDS_PER_LINK],
  );
  // Column c1 integer, c2 varchar(255) (varchar(50) on the target: narrowing), c3 text, c4 numeric(12,2),
  // c5 integer → bigint on the target (a cast rule between them is consulted).
  await q(
    `WITH f AS (
       SELECT f.id AS field_id, substr(f.name, 2)::int AS c, d.object_name LIKE 'compat.t.%' AS target, s.id AS schema_id
       FROM fields f JOIN datasets d ON d.id = f.dataset_id JOIN dataset_schemas s ON s.dataset_id = d.id
       WHERE d.object_name LIKE 'compat.%'),
     ti AS (
       INSERT INTO type_instances (data_type_id, type_params, note)
       SELECT CASE f.c WHEN 1 THEN $1::uuid WHEN 2 THEN $2::uuid WHEN 3 THEN $3::uuid WHEN 4 THEN $4::uuid
                       ELSE CASE WHEN f.target THEN $5::uuid ELSE $1::uuid END END,
              CASE f.c WHEN 2 THEN jsonb_build_object('length', CASE WHEN f.target THEN 50 ELSE 255 END)
                       WHEN 4 THEN '{"precision": 12, "scale": 2}'::jsonb END,
              f.field_id::text
       FROM f RETURNING id, note)
     INSERT INTO field_bindings (field_id, dataset_schema_id, position, type_instance_id)
     SELECT f.field_id, f.schema_id, f.c - 1, ti.id FROM f JOIN ti ON ti.note = f.field_id::text`,
    [id.integer, id.varchar, id.text, id.numeric, id.bigint],
  );
  await q(`UPDATE type_instances SET note = NULL WHERE note IS NOT NULL`);
  await q(
    `INSERT INTO cast_rules (source_data_type_id, target_data_type_id, safety) VALUES ($1, $2, 'safe')
     ON CONFLICT DO NOTHING`,
    [id.integer, id.bigint],
  );
  await q(
    `INSERT INTO dataset_links (source_dataset_id, target_dataset_id, source_schema_id, target_schema_id)
     SELECT s.id, t.id, ss.id, ts.id FROM generate_series(1, $1) i
     JOIN datasets s ON s.object_name = 'compat.s.' || i JOIN datasets t ON t.object_name = 'compat.t.' || i
     JOIN dataset_schemas ss ON ss.dataset_id = s.id JOIN dataset_schemas ts ON ts.dataset_id = t.id`,
    [LINKS],
  );
  await q(
    `INSERT INTO field_links (dataset_link_id, source_field_id, target_field_id)
     SELECT l.id, sf.id, tf.id FROM dataset_links l
     JOIN fields sf ON sf.dataset_id = l.source_dataset_id JOIN fields tf ON tf.dataset_id = l.target_dataset_id AND tf.name = sf.name
     JOIN datasets d ON d.id = l.source_dataset_id WHERE d.object_name LIKE 'compat.%'`,
  );
}

export async function run(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '30' },
      clients: { type: 'string', default: '8' },
      events: { type: 'string', default: '2000' },
      warmup: { type: 'string', default: '200' },
      only: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    log(
      'usage: pnpm bench lineage [--runs N] [--clients C] [--events E] [--warmup W] [--only graph|intake|jobs] [--no-build] [--profile]' +
        '   (DATABASE_URL: use that server)',
    );
    return 0;
  }
  const runs = Number(values.runs);
  if (values.only !== undefined && !['graph', 'intake', 'jobs'].includes(values.only)) {
    log('--only must be graph, intake or jobs');
    return 2;
  }
  if (!values['no-build']) buildBackend(REPO);
  const { createDataSource } = await dist('database/data-source.js');
  const { seedDirectory } = await dist('seeds/type-system.seeder.js');
  const { LineageGraphRepository } = await dist('modules/lineage/lineage-graph.repository.js');
  const { CompatRepository } = await dist('modules/dataset-links/compat.repository.js');
  const { TypeInstancesRepository } = await dist('modules/type-instances/type-instances.repository.js');
  const { DatasetLinkCompatService } = await dist('modules/dataset-links/dataset-link-compat.service.js');

  const cleanups = [];
  try {
    const line = (label, v) => log(`${label.padEnd(44)} ${v}`);
    let result = {};
    if (values.only === undefined || values.only === 'graph') {
      const dbUrl = await freshBenchDatabase('lineage', { cleanups, log, dist });
      const dataSource = createDataSource({ url: dbUrl, poolSize: 4 });
      await dataSource.initialize();
      cleanups.push(() => dataSource.destroy());
      await dataSource.runMigrations({ transaction: 'each' });
      await seedDirectory(dataSource);
      const q = (sql, params = []) => dataSource.query(sql, params);
      const [flavor] = await q(`SELECT id FROM system_flavors WHERE code = 'postgres14'`);
      const [system] = await q(
        `INSERT INTO systems (code, name, flavor_id) VALUES ('bench', 'Bench', $1) RETURNING id`,
        [flavor.id],
      );
      log(`building the ${N}-node graph and ${LINKS} compat links …`);
      await buildGraph(q, system.id);
      await buildCompat(q, system.id);
      await q('VACUUM ANALYZE');
      const count = queryCounter(dataSource);

      const roots = (
        await q(`SELECT id FROM datasets WHERE object_name LIKE 'graph.n%' ORDER BY object_name LIMIT $1`, [
          runs + 2,
        ])
      ).map((r) => r.id);
      const graphs = new LineageGraphRepository(dataSource);
      const graphQuery = { direction: 'downstream', depth: 5, page: 1, size: 500 };
      let nodes = 0;
      const graphMs = await time(runs, async (i) => {
        nodes = (await graphs.page('datasets', roots[i], graphQuery)).total_nodes;
      });
      const pkMs = await time(runs, (i) => q('SELECT * FROM datasets WHERE id = $1', [roots[i]]));
      const graphQueries = await count(() => graphs.page('datasets', roots[0], graphQuery));

      const service = new DatasetLinkCompatService(
        new CompatRepository(dataSource),
        new TypeInstancesRepository(dataSource),
      );
      const [compatSystem] = [system.id];
      const everyLink = { status__in: ['ok', 'warn', 'error'], system_id: compatSystem, page: 1, size: 100 };
      let total = 0;
      const compatRuns = Math.max(3, Math.floor(runs / 5));
      // The graph's 30,000 links have no field links: restrict the bulk report to the compat datasets' system
      // by asking for links of one side's datasets through the status filter, which computes all of them.
      await q(
        `UPDATE dataset_links SET deleted_at = now() WHERE source_dataset_id IN (SELECT id FROM datasets WHERE object_name LIKE 'graph.n%')`,
      );
      const compatMs = await time(compatRuns, async () => {
        total = (await service.summaries(everyLink)).total;
      });
      const linkIds = (await q(`SELECT id FROM dataset_links WHERE deleted_at IS NULL`)).map((r) => r.id);
      const rawMs = await time(compatRuns, () => new CompatRepository(dataSource).fieldRows(linkIds));
      const compatQueries = await count(() => service.summaries(everyLink));
      const tenQueries = await count(() =>
        service.summaries({ ...everyLink, dataset_id: undefined, size: 10, status__in: undefined }),
      );

      const p50 = (a) => percentile(a, 50);
      result = {
        graph: {
          nodes,
          p50_ms: p50(graphMs),
          p95_ms: percentile(graphMs, 95),
          baseline_pk_p50_ms: p50(pkMs),
          ratio: p50(graphMs) / p50(pkMs),
          queries: graphQueries,
          target_p50_ms: TARGETS.graphP50Ms,
        },
        compat: {
          links: total,
          field_links: total * FIELDS_PER_LINK,
          p50_ms: p50(compatMs),
          baseline_field_rows_p50_ms: p50(rawMs),
          ratio: p50(compatMs) / p50(rawMs),
          queries: compatQueries,
          queries_for_a_page_of_10: tenQueries,
          target_ms: TARGETS.compatMs,
        },
      };
      log('');
      line(`graph downstream depth 5 (${N} nodes, ${N * 3} links)`, `${nodes} nodes reached`);
      line(
        '  p50 / p95',
        `${result.graph.p50_ms.toFixed(1)} ms / ${result.graph.p95_ms.toFixed(1)} ms (target p50 < ${TARGETS.graphP50Ms} ms)`,
      );
      line(
        '  baseline: PK read of one dataset, p50',
        `${result.graph.baseline_pk_p50_ms.toFixed(2)} ms → ratio ×${result.graph.ratio.toFixed(1)}`,
      );
      line('  queries', String(graphQueries));
      line(
        `bulk compat over ${total} links`,
        `${total * FIELDS_PER_LINK} field links, every report computed`,
      );
      line('  p50', `${result.compat.p50_ms.toFixed(1)} ms (target < ${TARGETS.compatMs} ms)`);
      line(
        '  baseline: one read of their field rows, p50',
        `${result.compat.baseline_field_rows_p50_ms.toFixed(1)} ms → ratio ×${result.compat.ratio.toFixed(1)}`,
      );
      line('  queries (all links / a page of 10)', `${compatQueries} / ${tenQueries}`);
    }
    if (values.only !== 'graph') {
      // A database of its own: the server migrates and seeds it at start.
      const dbUrl = await freshBenchDatabase('lineage_server', { cleanups, log, dist });
      Object.assign(
        result,
        await runIntakeAndJobGraph({
          dbUrl,
          cleanups,
          log,
          dist,
          clients: Number(values.clients),
          events: Number(values.events),
          warmup: Number(values.warmup),
          runs,
          only: values.only,
          profileDir: values.profile ? PROFILES : undefined,
        }),
      );
      if (values.profile) log(`CPU profile of the server: ${PROFILES}/lineage-api.cpuprofile`);
      log('');
      printIntakeAndJobGraph(result, line);
    }
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
    log(`\nresults: ${RESULTS}`);
    return 0;
  } finally {
    await runCleanups(cleanups, log);
  }
}
