// `pnpm bench search`: the search statement (GET /api/v1/search) on a catalogue of N datasets with
// 20 fields each, loaded set-based (generate_series) into a fresh embedded PostgreSQL (or a fresh
// database on DATABASE_URL). Prints p50/p95 per representative search, next to a baseline measured
// in the same run (the least a search can do: the fields matching one word, unranked), and the indexes
// each plan uses (EXPLAIN). Everything it starts is stopped, on success, error or Ctrl-C.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildBackend, cleanupStack } from './harness.mjs';

const BACKEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BACKEND, '..', '..');
const RESULTS = join(REPO, 'bench-results', 'search.json');
const TARGET_P95_MS = 100;
const FIELDS_PER_DATASET = 20;

const USAGE = `pnpm bench search [options]

  --datasets N   datasets to load (default 100000; fields: 20 per dataset)
  --runs N       measured runs per search (default 40, after 5 warm-up runs)
  --no-build     do not rebuild @aide/schemas and @aide/backend
  --keep-db      keep the database (with DATABASE_URL) for EXPLAIN by hand; its name is printed
  --reuse-db DB  measure on DB, a database an earlier --keep-db run loaded (with DATABASE_URL): its
                 pending migrations are run, nothing is loaded, and it is kept
  --flood        issue 22's flood instead: the real server under 32 clients searching, with probes of
                 GET /systems (pnpm bench search --flood --help)
  -h, --help

DATABASE_URL: use that server (a fresh database is created and dropped) instead of an embedded one.`;

const log = (message) => process.stderr.write(`[bench search] ${message}\n`);

// A catalogue's vocabulary: names are made of these words, so searches hit realistic numbers of rows.
const WORDS = `customer order invoice payment product account address email phone country city region
  store supplier shipment warehouse employee department salary contract ticket session event click
  campaign channel device browser refund discount coupon category brand price amount currency tax
  balance ledger journal transaction transfer card merchant loyalty review rating inventory stock
  vendor partner subscription plan`
  .split(/\s+/)
  .filter(Boolean);

/** Words of the vocabulary without their first letter: common trigrams, but no word starts with them. */
const NO_WORD = WORDS.map((w) => w.slice(1))
  .join(' ')
  .slice(0, 200)
  .trim();

/** The searches measured: [label, query]. `system_id` is filled in after loading. */
function searches(systemId) {
  return [
    ['exact field name', { q: 'merchant_rating_7' }],
    ['exact dataset name', { q: 'sales.ledger_refund_4242' }],
    ['prefix', { q: 'subscr' }],
    ['misspelt', { q: 'warehuose_stok' }],
    ['comment word', { q: 'reconciled' }],
    ['two words', { q: 'loyalty campaign' }],
    ['kind=dataset', { q: 'refund', kind: ['dataset'] }],
    ['kind=field, pii=email', { q: 'customer', kind: ['field'], pii: ['email'] }],
    ['system filter', { q: 'payment', system_id: systemId }],
    // ADR 0059: the search page's facet counts, and its lineage and flavor filters.
    ['facets=true', { q: 'payment', facets: true }],
    ['has_lineage=false, flavor', { q: 'payment', has_lineage: false, flavor: ['postgres'] }],
    // Issue 22: one letter behind 199 quotes, and 200 characters of common trigrams matching no word.
    ['quotes, one letter', { q: `${"'".repeat(199)}a` }],
    ['200 chars, no word', { q: NO_WORD }],
  ];
}

export async function load(client, datasets) {
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const word = (expr) => `(${words})[1 + ((${expr}) % ${WORDS.length})]`;
  const systems = Math.max(1, Math.round(datasets / 100));
  await client.query(`INSERT INTO system_kinds (code, name) VALUES ('rdbms', 'Relational')`);
  await client.query(
    `INSERT INTO system_flavors (code, name, kind_id) SELECT 'postgres', 'PostgreSQL', id FROM system_kinds`,
  );
  log(`loading ${systems} systems, ${datasets} datasets, ${datasets * FIELDS_PER_DATASET} fields …`);
  let t = Date.now();
  await client.query(
    `INSERT INTO systems (code, name, flavor_id)
     SELECT 'sys_' || g || '_' || ${word('g')}, initcap(${word('g * 7')}) || ' system ' || g, f.id
     FROM generate_series(1, ${systems}) g, system_flavors f`,
  );
  await client.query(
    `INSERT INTO datasets (system_id, object_name, layer, kind, note)
     SELECT s.id, (ARRAY['sales','hr','ops','finance','web'])[1 + g % 5] || '.' || ${word('g / 7')} || '_' || ${word('g * 13')} || '_' || g,
            (ARRAY['source','raw','core'])[1 + g % 3], 'rdbms',
            CASE WHEN g % 10 = 0 THEN 'Daily ' || ${word('g')} || ' extract, reconciled with the ' || ${word('g * 3')} || ' ledger' END
     FROM generate_series(1, ${datasets}) g
     JOIN systems s ON s.code = 'sys_' || (1 + g % ${systems}) || '_' || ${word(`1 + g % ${systems}`)}`,
  );
  await client.query(
    `INSERT INTO fields (dataset_id, name, note)
     SELECT d.id, ${word('n * 17 + k')} || '_' || ${word('n * 31 + k * 3')} || '_' || k,
            CASE WHEN (n + k) % 25 = 0 THEN 'The ' || ${word('n + k')} || ' as entered by the ' || ${word('k * 5')} END
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM datasets) d,
          generate_series(1, ${FIELDS_PER_DATASET}) k`,
  );
  // 5 % of fields classified; a fifth of those reviewed again since (their current entry is newer).
  await client.query(
    `INSERT INTO field_classifications (field_id, pii_tags)
     SELECT id, CASE WHEN name LIKE '%email%' THEN ARRAY['email'] WHEN name LIKE '%phone%' THEN ARRAY['phone'] ELSE ARRAY['personal'] END
     FROM fields WHERE abs(hashtext(id::text)) % 20 = 0`,
  );
  await client.query(
    `INSERT INTO field_classifications (field_id, pii_tags)
     SELECT field_id, '{}' FROM field_classifications WHERE abs(hashtext(field_id::text)) % 5 = 0`,
  );
  // 1 % of datasets soft-deleted.
  await client.query(`UPDATE datasets SET deleted_at = now() WHERE abs(hashtext(id::text)) % 100 = 0`);
  log(`loaded in ${((Date.now() - t) / 1000).toFixed(1)} s; VACUUM ANALYZE …`);
  t = Date.now();
  await client.query('VACUUM ANALYZE');
  log(`analysed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/** The system of the `system filter` search. */
async function filterSystem(client) {
  const [{ id }] = (await client.query(`SELECT id FROM systems ORDER BY code LIMIT 1 OFFSET 3`)).rows;
  return id;
}

/**
 * The baseline: the least a search can do, any 50 fields whose words match the first word (`$1`, a
 * prefix), unranked. Since 1766270000000 no index holds every field's words: a field with only its
 * name's words is found by that name in the vocabulary (GIN ix_field_names_search, then
 * ix_fields_name_lower), the others in the partial GIN ix_fields_search_noted. The two sets are
 * disjoint and together the fields the full index found; the expressions are the search's own, so
 * the planner proves the indexes. No ranking, no prefix exclusion, no per-name cap, no joins.
 */
function baselineStatement({ fieldDocument, fieldNameOnly, fieldNoted, fieldNameWords }) {
  const f = fieldDocument('f');
  const tsq = `to_tsquery('simple'::regconfig, $1)`;
  return `SELECT o.id FROM (
      (SELECT f.id FROM field_names n JOIN fields f ON ${f.names[0]} = n.name COLLATE "C"
        WHERE ${fieldNameWords('n')} @@ ${tsq} AND ${fieldNameOnly('f')})
      UNION ALL
      (SELECT f.id FROM fields f WHERE ${fieldNoted('f')} AND ${f.tsvector} @@ ${tsq})
    ) o LIMIT 50`;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Runs one search as the API does (SearchService): a transaction with the search's settings, the
 * statement by words; by similar spellings too when the words match nothing.
 */
async function timeSearch(client, statements, settings, lookForSimilar, poolCap) {
  const start = process.hrtime.bigint();
  await client.query('BEGIN');
  await client.query(settings.join('; ')); // one round trip, as SearchRepository.search
  // A filter leaving few fields drives the field branch (SearchRepository.filterDriven).
  let driven = false;
  if (statements.pool) {
    const { rows: counted } = await client.query(statements.pool.sql, statements.pool.params);
    driven = counted[0].n <= poolCap;
  }
  const pick = (pair) => pair[driven ? 1 : 0];
  let { rows } = await client.query(pick(statements.words).sql, pick(statements.words).params);
  const usedSimilar = lookForSimilar(rows.length > 0 ? Number(rows[0].total) : 0);
  if (usedSimilar) {
    ({ rows } = await client.query(pick(statements.similar).sql, pick(statements.similar).params));
  }
  await client.query('COMMIT');
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, rows, usedSimilar, driven };
}

async function measure(fn, runs) {
  for (let i = 0; i < 5; i++) await fn();
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    last = await fn();
    times.push(last.ms);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), last, usedSimilar: last?.usedSimilar };
}

export async function run(argv = process.argv.slice(2)) {
  if (argv.includes('--flood')) {
    const flood = await import('./search-flood.mjs');
    return flood.run(argv.filter((a) => a !== '--flood'));
  }
  let options;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        datasets: { type: 'string', default: '100000' },
        runs: { type: 'string', default: '40' },
        'no-build': { type: 'boolean', default: false },
        'keep-db': { type: 'boolean', default: false },
        'reuse-db': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    options = {
      datasets: Number(values.datasets),
      runs: Number(values.runs),
      build: !values['no-build'],
      keepDb: values['keep-db'] || values['reuse-db'] !== undefined,
      reuseDb: values['reuse-db'],
      help: values.help,
    };
    if (options.reuseDb !== undefined && !/^\w+$/.test(options.reuseDb))
      throw new Error('--reuse-db must name a database (letters, digits, _)');
    if (options.reuseDb !== undefined && !process.env.DATABASE_URL)
      throw new Error('--reuse-db needs DATABASE_URL (the server of the kept database)');
    if (!Number.isInteger(options.datasets) || options.datasets < 100)
      throw new Error('--datasets must be an integer ≥ 100');
    if (!Number.isInteger(options.runs) || options.runs < 1)
      throw new Error('--runs must be a positive integer');
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
    const dist = (path) => import(pathToFileURL(join(BACKEND, 'dist', path)).href);
    const { startEmbeddedPostgres, freePort } = await dist('database/embedded-postgres.js');
    const { withDatabase } = await dist('database/naming.js');
    const { createDataSource } = await dist('database/data-source.js');
    const { SearchRepository, SEARCH_SETTINGS, lookForSimilar, FILTER_POOL_CAP } = await dist(
      'modules/search/search.repository.js',
    );
    const { SearchQuerySchema } = await import('@aide/schemas');

    let serverUrl = process.env.DATABASE_URL;
    let version;
    if (!serverUrl) {
      const dir = mkdtempSync(join(tmpdir(), 'aide-bench-search-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const port = await freePort();
      log(`starting embedded PostgreSQL on port ${port} …`);
      const handle = await startEmbeddedPostgres({ dir, port, onLog: () => {} });
      cleanups.push(() => handle.stop());
      serverUrl = handle.url;
    }
    const dbName = options.reuseDb ?? `aide_bench_search_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    version = (await admin.query('SHOW server_version')).rows[0].server_version;
    if (!options.reuseDb) await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    if (options.keepDb) log(`keeping database ${dbName}`);
    cleanups.push(async () => {
      if (options.keepDb) return;
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).finally(() => c.end());
    });
    const url = withDatabase(serverUrl, dbName);
    const dataSource = createDataSource({ url, poolSize: 1, applicationName: 'aide-bench-search' });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.destroy();

    const client = new pg.Client({ connectionString: url });
    client.on('error', (e) => log(`connection error: ${e.message}`));
    await client.connect();
    cleanups.push(() => client.end());
    if (options.reuseDb) {
      // The catalogue as loaded, with what the pending migrations added.
      const [{ n }] = (await client.query('SELECT count(*)::int AS n FROM datasets')).rows;
      options.datasets = n;
      log(`reusing ${dbName}: ${n} datasets`);
    } else {
      await load(client, options.datasets);
    }
    const systemId = await filterSystem(client);

    const repository = new SearchRepository();
    const baselineSql = baselineStatement(await dist('modules/search/search-documents.js'));
    const rows = [];
    for (const [label, params] of searches(systemId)) {
      const query = SearchQuerySchema.parse({
        q: params.q,
        ...(params.kind ? { kind: params.kind.join(',') } : {}),
        ...(params.pii ? { pii: params.pii.join(',') } : {}),
        ...(params.system_id ? { system_id: params.system_id } : {}),
        ...(params.facets ? { facets: 'true' } : {}),
        ...(params.has_lineage === undefined ? {} : { has_lineage: String(params.has_lineage) }),
        ...(params.flavor ? { flavor: params.flavor.join(',') } : {}),
        size: '50',
      });
      const statements = {
        pool: repository.poolStatement(query),
        words: [repository.statement(query, false, false), repository.statement(query, false, true)],
        similar: [repository.statement(query, true, false), repository.statement(query, true, true)],
      };
      const search = await measure(
        () => timeSearch(client, statements, SEARCH_SETTINGS, lookForSimilar, FILTER_POOL_CAP),
        options.runs,
      );
      log(`${label}: p50 ${search.p50.toFixed(1)} ms, p95 ${search.p95.toFixed(1)} ms`);
      const firstWord = params.q.toLowerCase().match(/[\p{L}\p{N}]+/u)[0];
      // With the search's settings: without them the planner may bet on a sequential scan under LIMIT.
      const baseline = await measure(async () => {
        const start = process.hrtime.bigint();
        await client.query('BEGIN');
        await client.query(SEARCH_SETTINGS.join('; '));
        await client.query(baselineSql, [`'${firstWord}':*`]);
        await client.query('COMMIT');
        return { ms: Number(process.hrtime.bigint() - start) / 1e6 };
      }, options.runs);
      await client.query('BEGIN');
      for (const setting of SEARCH_SETTINGS) await client.query(setting);
      const statement = (search.usedSimilar ? statements.similar : statements.words)[
        search.last.driven ? 1 : 0
      ];
      const explain = async (sql, values) =>
        (await client.query(`EXPLAIN ${sql}`, values)).rows.map((r) => r['QUERY PLAN']).join('\n');
      const plan = await explain(statement.sql, statement.params);
      const baselinePlan = await explain(baselineSql, [`'${firstWord}':*`]);
      await client.query('COMMIT');
      const indexesOf = (p) => [...new Set(p.match(/ix_\w+/g) ?? [])].sort();
      const seqScansOf = (p) => [...new Set((p.match(/Seq Scan on \w+/g) ?? []).map((s) => s.slice(12)))];
      const indexes = indexesOf(plan);
      const seqScans = seqScansOf(plan);
      const top = search.last.rows[0];
      rows.push({
        label,
        query: params,
        total: top ? Number(top.total) : 0,
        top: top ? `${top.kind}:${top.name}` : '',
        p50: search.p50,
        p95: search.p95,
        baselineP50: baseline.p50,
        baselineP95: baseline.p95,
        indexes,
        seqScans,
        baselineIndexes: indexesOf(baselinePlan),
        baselineSeqScans: seqScansOf(baselinePlan),
      });
    }

    const fmt = (n) => n.toFixed(1).padStart(7);
    const out = [
      `PostgreSQL ${version}, ${cpus().length} cores; ${options.datasets} datasets, ${options.datasets * FIELDS_PER_DATASET} fields; ${options.runs} runs each`,
      '',
      `${'search'.padEnd(24)} ${'hits'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'base p50'.padStart(8)} ${'p50/base'.padStart(8)}  verdict  top hit`,
    ];
    for (const r of rows) {
      out.push(
        `${r.label.padEnd(24)} ${String(r.total).padStart(7)} ${fmt(r.p50)} ${fmt(r.p95)} ${fmt(r.baselineP50).padStart(8)} ${(r.p50 / r.baselineP50).toFixed(1).padStart(8)}  ${r.p95 < TARGET_P95_MS ? 'PASS   ' : 'MISS   '}  ${r.top}`,
      );
    }
    const used = (indexes, seqScans) =>
      `${indexes.join(', ')}${seqScans.length ? `  SEQ SCAN: ${seqScans.join(', ')}` : ''}`;
    out.push('', 'indexes used (EXPLAIN):');
    for (const r of rows) out.push(`  ${r.label.padEnd(24)} ${used(r.indexes, r.seqScans)}`);
    const baselineUse = new Set(rows.map((r) => used(r.baselineIndexes, r.baselineSeqScans)));
    out.push(`  ${'baseline'.padEnd(24)} ${[...baselineUse].join(' | ')}`);
    process.stdout.write(`${out.join('\n')}\n`);
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ version, datasets: options.datasets, runs: options.runs, target_p95_ms: TARGET_P95_MS, rows }, null, 2)}\n`,
    );
    return 0;
  } catch (error) {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await cleanup();
  }
}
