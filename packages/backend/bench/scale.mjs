// `pnpm bench scale`: how the registry's operations cost as the catalogue grows (issue 13 §2). A
// registry of --seed datasets (20 columns each, a third of them with 3 versions, PII tags on some
// columns) is built through the API's own bulk paths (POST /datasets/bulk, POST /schema-versions/bulk),
// then copied set-based, with fresh ids, to each size of --sizes (publishing 100,000 datasets one
// bulk request at a time would take hours on a shared 2-core machine; the copies are row for row what
// those requests wrote). At each size every operation is timed (p50, p99) and its SQL statements
// counted; at the largest size each statement is EXPLAINed and sequential scans of large tables and
// full sorts are reported.
//
//   pnpm bench scale [--sizes 1000,10000,100000] [--seed N] [--runs N] [--no-build]
//
// The API runs in this process (createApp from dist/), so that every statement it sends can be seen.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hash } from '@node-rs/bcrypt';
import pg from 'pg';
import { buildBackend, cleanupStack } from './harness.mjs';

const BACKEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BACKEND, '..', '..');
const RESULTS = join(REPO, 'bench-results', 'scale.json');
const COLUMNS = 20;
const WIDE = 1000; // columns of the version published at each size
const SYSTEMS = 10;
// The seed's layers in turn (one in six without a layer), so that a sort by layer has ties and NULLs.
const LAYERS = ['source', 'cdc', 'kafka', 'raw', 'core', null];
const USER = { email: 'scale@aide.local', password: 'scale-password-1' };
const SECRET = 'scale-bench-secret-that-is-long-enough-0123456789';

const USAGE = `pnpm bench scale [options]
  --sizes LIST   catalogue sizes in datasets, ascending (default 1000,10000,100000)
  --seed N       datasets built through the API's bulk paths, then copied (default 1000)
  --runs N       timed runs of each read (default 30; the 1,000-column publish: 5)
  --no-build     do not rebuild @aide/schemas and @aide/backend
  --keep-db      keep the database (with DATABASE_URL) for EXPLAIN by hand; its name is printed
DATABASE_URL: use that server (a fresh database is created and dropped) instead of an embedded one.`;

const log = (message) => process.stderr.write(`[bench scale] ${message}\n`);

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string', default: '1000,10000,100000' },
      seed: { type: 'string', default: '1000' },
      runs: { type: 'string', default: '30' },
      'no-build': { type: 'boolean', default: false },
      'keep-db': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const seed = Number(values.seed);
  const runs = Number(values.runs);
  if (!Number.isInteger(seed) || seed < 100 || seed % 100 !== 0) throw new Error('--seed: a multiple of 100');
  for (const [i, n] of sizes.entries()) {
    if (!Number.isInteger(n) || n < seed || n % seed !== 0 || (i > 0 && n <= sizes[i - 1]))
      throw new Error('--sizes: ascending multiples of --seed');
  }
  if (!Number.isInteger(runs) || runs < 3) throw new Error('--runs: an integer ≥ 3');
  return { sizes, seed, runs, build: !values['no-build'], keepDb: values['keep-db'], help: values.help };
}

// ---------------------------------------------------------------------------------------------------
// The catalogue

const TYPES = [
  { data_type: 'bigint' },
  { data_type: 'varchar', params: { length: 200 } },
  { data_type: 'text' },
  { data_type: 'numeric', params: { precision: 12, scale: 2 } },
  { data_type: 'timestamptz' },
  { data_type: 'boolean' },
  { data_type: 'integer' },
  { data_type: 'date' },
];

function columns(n, variant = 0) {
  return Array.from({ length: n }, (_, i) => ({
    name: i === 1 ? 'email' : `col_${i}`,
    nullable: i !== 0,
    type: TYPES[(i + variant) % TYPES.length],
  }));
}

class Api {
  constructor(base) {
    this.base = base;
    this.token = undefined;
  }
  /** Signs in (again: copying to 100,000 datasets outlasts an access token's 30 minutes). */
  async login() {
    const response = await fetch(`${this.base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: USER.email, password: USER.password }),
    });
    if (!response.ok) throw new Error(`login: HTTP ${response.status}`);
    this.token = (await response.json()).access_token;
  }
  async call(method, path, body) {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 300)}`);
    return json;
  }
}

/** The seed: SYSTEMS systems, `n` datasets, their versions (bulk paths), PII tags. */
async function buildSeed(api, client, n) {
  const flavor = (await api.call('GET', '/api/v1/system-flavors?code=postgres14')).items[0];
  const systems = [];
  for (let s = 0; s < SYSTEMS; s++) {
    systems.push(
      await api.call('POST', '/api/v1/systems', {
        code: `sys-${s}`,
        name: `System ${s}`,
        flavor_id: flavor.id,
      }),
    );
  }
  const datasets = [];
  for (let from = 0; from < n; from += 500) {
    const items = Array.from({ length: Math.min(500, n - from) }, (_, j) => {
      const i = from + j;
      const name = `sales.ledger_${['refund', 'order', 'invoice', 'payment'][i % 4]}_${i}`;
      return {
        kind: 'rdbms',
        system_id: systems[i % SYSTEMS].id,
        object_name: name,
        layer: LAYERS[i % LAYERS.length],
        schema_name: 'sales',
        table_name: name.split('.')[1],
        is_view: false,
        pk_columns: ['col_0'],
      };
    });
    const result = await api.call('POST', '/api/v1/datasets/bulk', { items });
    for (const item of result.items) {
      if (item.status !== 'created') throw new Error(`bulk create: ${JSON.stringify(item)}`);
      datasets.push(item.dataset.id);
    }
  }
  // Version 1 of every dataset; versions 2 and 3 of every third.
  for (const [version, filter] of [
    [1, () => true],
    [2, (i) => i % 3 === 0],
    [3, (i) => i % 3 === 0],
  ]) {
    const chosen = datasets.filter((_, i) => filter(i));
    for (let from = 0; from < chosen.length; from += 500) {
      const items = chosen.slice(from, from + 500).map((dataset_id) => ({
        dataset_id,
        base_version_num: version === 1 ? null : version - 1,
        columns: columns(COLUMNS + version - 1, version - 1),
      }));
      const result = await api.call('POST', '/api/v1/schema-versions/bulk', { items });
      if (result.summary.failed > 0) throw new Error(`bulk publish: ${JSON.stringify(result.items[0])}`);
    }
  }
  // PII tags on the email column of every other dataset (the append-only history, as the API writes it).
  await client.query(
    `INSERT INTO field_classifications (field_id, pii_tags, reason)
     SELECT f.id, ARRAY['email'], 'bench' FROM fields f JOIN datasets d ON d.id = f.dataset_id
     WHERE f.name = 'email' AND (hashtext(d.id::text) & 1) = 0`,
  );
  return { systems: systems.map((s) => s.id), datasets };
}

/**
 * Copies the seed's rows (datasets and everything hanging from them) as copy number `k`: every id of a
 * copied row becomes md5(id || ':' || k), so references between copied rows follow, and references
 * to rows that are not copied (systems, data types, users) are kept. Names get a `_k<k>` suffix.
 */
async function copySeed(client, seedIds, k, systems) {
  const id = (col) => `md5(${col}::text || ':${k}')::uuid`;
  const cols = async (table) =>
    (
      await client.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = 'public'
         ORDER BY ordinal_position`,
        [table],
      )
    ).rows.map((r) => r.column_name);
  const remap = {
    datasets: {
      id: id('id'),
      object_name: `object_name || '_k${k}'`,
      system_id: `($2::uuid[])[1 + ((hashtext(id::text) & 2147483647) + ${k}) % ${systems.length}]`,
    },
    dataset_rdbms: { id: id('id'), table_name: `table_name || '_k${k}'` },
    fields: { id: id('id'), dataset_id: id('dataset_id'), parent_id: id('parent_id') },
    type_instances: { id: id('id'), parent_id: id('parent_id') },
    dataset_schemas: { id: id('id'), dataset_id: id('dataset_id') },
    field_bindings: {
      id: id('id'),
      field_id: id('field_id'),
      dataset_schema_id: id('dataset_schema_id'),
      type_instance_id: id('type_instance_id'),
    },
    field_classifications: { id: id('id'), field_id: id('field_id') },
  };
  // Rows of the seed, table by table (type instances: those bound in the seed's versions, whole trees).
  const where = {
    datasets: 'id = ANY($1)',
    dataset_rdbms: 'id = ANY($1)',
    fields: 'dataset_id = ANY($1)',
    type_instances: `id IN (WITH RECURSIVE t AS (
        SELECT fb.type_instance_id AS id FROM field_bindings fb JOIN dataset_schemas ds ON ds.id = fb.dataset_schema_id
        WHERE ds.dataset_id = ANY($1) AND fb.type_instance_id IS NOT NULL
        UNION SELECT ti.id FROM type_instances ti JOIN t ON ti.parent_id = t.id) SELECT id FROM t)`,
    dataset_schemas: 'dataset_id = ANY($1)',
    field_bindings: 'dataset_schema_id IN (SELECT id FROM dataset_schemas WHERE dataset_id = ANY($1))',
    field_classifications: 'field_id IN (SELECT id FROM fields WHERE dataset_id = ANY($1))',
  };
  await client.query('BEGIN');
  try {
    for (const table of Object.keys(remap)) {
      const names = await cols(table);
      const exprs = names.map((c) => remap[table][c] ?? `"${c}"`);
      const params = table === 'datasets' ? [seedIds, systems] : [seedIds];
      await client.query(
        `INSERT INTO ${table} (${names.map((c) => `"${c}"`).join(', ')})
         SELECT ${exprs.join(', ')} FROM ${table} WHERE ${where[table]}`,
        params,
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// Measuring

/** Every statement sent through the app's pool while `on`: text and values. */
function statementRecorder(dataSource) {
  const pool = dataSource.driver.master;
  const state = { on: false, statements: [] };
  const wrapped = new WeakSet();
  pool.on('acquire', (c) => {
    if (wrapped.has(c)) return;
    wrapped.add(c);
    const original = c.query.bind(c);
    c.query = (...args) => {
      if (state.on) {
        const [first, second] = args;
        const text = typeof first === 'string' ? first : first?.text;
        const values =
          typeof first === 'string' ? (Array.isArray(second) ? second : []) : (first?.values ?? []);
        state.statements.push({ text, values });
      }
      return original(...args);
    };
  });
  return {
    async during(fn) {
      state.statements = [];
      state.on = true;
      try {
        await fn();
      } finally {
        state.on = false;
      }
      return state.statements;
    },
  };
}

/** The size of an answer: its items (pages), columns (a version) or changes (a diff). */
function answerRows(body) {
  for (const key of ['items', 'columns', 'changes']) if (Array.isArray(body?.[key])) return body[key].length;
  return 1;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Nodes of a plan that read a large relation whole, or sort many rows. */
function planFindings(plan, bigTables) {
  const found = [];
  const indexes = new Set();
  const walk = (node) => {
    if (node['Index Name']) indexes.add(node['Index Name']);
    if (node['Node Type'] === 'Seq Scan' && bigTables.has(node['Relation Name']))
      found.push(`Seq Scan on ${node['Relation Name']} (${node['Plan Rows']} rows est.)`);
    if (node['Node Type'] === 'Sort' && node['Plan Rows'] > 10_000)
      found.push(`Sort of ${node['Plan Rows']} rows est.`);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  return { found, indexes: [...indexes] };
}

// ---------------------------------------------------------------------------------------------------

export async function run(argv = process.argv.slice(2)) {
  let opts;
  try {
    opts = options(argv);
  } catch (error) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { cleanups, cleanup } = cleanupStack(log);
  try {
    if (opts.build) buildBackend(REPO);
    const dist = (path) => import(pathToFileURL(join(BACKEND, 'dist', path)).href);
    const { startEmbeddedPostgres } = await dist('database/embedded-postgres.js');
    const { withDatabase } = await dist('database/naming.js');
    const { createDataSource } = await dist('database/data-source.js');
    const { seedDirectory } = await dist('seeds/type-system.seeder.js');
    const { loadConfig } = await dist('config/config.js');
    const { createApp } = await dist('app.factory.js');
    const { pino } = await import('pino');

    let serverUrl = process.env.DATABASE_URL;
    if (!serverUrl) {
      const dir = mkdtempSync(join(tmpdir(), 'aide-bench-scale-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const embedded = await startEmbeddedPostgres({ dir, port: 0 });
      cleanups.push(() => embedded.stop());
      serverUrl = embedded.url;
    }
    const dbName = `aide_bench_scale_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    if (opts.keepDb) log(`keeping database ${dbName}`);
    cleanups.push(async () => {
      if (opts.keepDb) return;
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    });
    await admin.end();
    const url = withDatabase(serverUrl, dbName);

    const dataSource = createDataSource({ url, poolSize: 10, applicationName: 'aide-bench-scale' });
    await dataSource.initialize();
    cleanups.push(() => dataSource.destroy());
    await dataSource.runMigrations({ transaction: 'each' });
    await seedDirectory(dataSource);
    await dataSource.query(
      `INSERT INTO users (email, hashed_password, full_name, is_superuser) VALUES ($1, $2, 'Scale', true)`,
      [USER.email, await hash(USER.password, 12)],
    );
    const base = loadConfig({
      DATABASE_URL: url,
      AIDE_JWT_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      AIDE_LOG_FORMAT: 'json',
    });
    const app = await createApp(
      { ...base, databaseUrl: url, jwtSecret: SECRET },
      dataSource,
      pino({ level: 'warn' }),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => app.close());
    const address = app.getHttpServer().address();
    const api = new Api(`http://127.0.0.1:${address.port}`);
    await api.login();
    const recorder = statementRecorder(dataSource);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    cleanups.push(() => client.end());

    log(`building the seed: ${opts.seed} datasets through the bulk paths …`);
    const started = performance.now();
    const seed = await buildSeed(api, client, opts.seed);
    const seedSeconds = (performance.now() - started) / 1000;
    log(`seed built in ${seedSeconds.toFixed(0)} s`);

    const results = [];
    let copies = 1;
    for (const size of opts.sizes) {
      const t0 = performance.now();
      for (; copies < size / opts.seed; copies++) await copySeed(client, seed.datasets, copies, seed.systems);
      await client.query('VACUUM ANALYZE');
      const counts = (
        await client.query(
          `SELECT (SELECT count(*) FROM datasets)::int AS datasets, (SELECT count(*) FROM fields)::int AS fields,
                  (SELECT count(*) FROM field_bindings)::int AS bindings, (SELECT count(*) FROM dataset_schemas)::int AS versions`,
        )
      ).rows[0];
      log(
        `size ${size}: ${JSON.stringify(counts)} (copied in ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
      await api.login();

      const system = seed.systems[0];
      const perSystem = Number(
        (
          await client.query('SELECT count(*) FROM datasets WHERE system_id = $1 AND deleted_at IS NULL', [
            system,
          ])
        ).rows[0].count,
      );
      const deepPage = Math.max(1, Math.floor(perSystem / 50 / 2));
      const many = seed.datasets.filter((_, i) => i % 3 === 0)[0]; // one with 3 versions
      // Datasets of their own for the wide publishes, so that the seed (copied to the next size) stays as built.
      let wideTarget = 0;
      const wideDatasets = (
        await api.call('POST', '/api/v1/datasets/bulk', {
          items: Array.from({ length: 8 }, (_, i) => ({
            kind: 'rdbms',
            system_id: seed.systems[1],
            object_name: `wide_${size}_${i}`,
            schema_name: 'wide',
            table_name: `wide_${size}_${i}`,
          })),
        })
      ).items.map((item) => item.dataset.id);
      // The cursor of the deep page of a list, walked to once (keyset paging: the same sort and filter).
      const cursorOf = async (list) => {
        let cursor = null;
        for (let p = 1; p < deepPage; p++) {
          cursor = (await api.call('GET', `${list}&total=none${cursor ? `&cursor=${cursor}` : ''}`))
            .next_cursor;
        }
        return cursor ? `&cursor=${cursor}` : '';
      };
      const bySystem = (sort) => `/api/v1/datasets?system_id=${system}&sort=${sort}&size=50`;
      const byCreated = bySystem('-created_at');
      const deepCursor = await cursorOf(byCreated);
      // The other sorts the list offers (migration 1766230000000): kind, layer, newest-changed first.
      const byKind = bySystem('kind');
      const byUpdated = bySystem('-updated_at');
      const byLayer = bySystem('layer');
      const kindCursor = await cursorOf(byKind);
      const updatedCursor = await cursorOf(byUpdated);
      const operations = [
        ['list by system, first page', () => api.call('GET', byCreated)],
        [`list by system, page ${deepPage}`, () => api.call('GET', `${byCreated}&page=${deepPage}`)],
        [
          `list by system, page ${deepPage} by cursor, total=none`,
          () => api.call('GET', `${byCreated}&total=none${deepCursor}`),
        ],
        ['list by system, total=estimate', () => api.call('GET', `${byCreated}&total=estimate`)],
        ['list by system, sort=kind', () => api.call('GET', byKind)],
        [
          `list by system, sort=kind, page ${deepPage} by cursor`,
          () => api.call('GET', `${byKind}&total=none${kindCursor}`),
        ],
        ['list by system, sort=-updated_at', () => api.call('GET', byUpdated)],
        [
          `list by system, sort=-updated_at, page ${deepPage} by cursor`,
          () => api.call('GET', `${byUpdated}&total=none${updatedCursor}`),
        ],
        ['list by system, sort=layer', () => api.call('GET', byLayer)],
        [
          `list by system, sort=layer, page ${deepPage}`,
          () => api.call('GET', `${byLayer}&page=${deepPage}`),
        ],
        [
          'list all, sort=kind, total=none',
          () => api.call('GET', `/api/v1/datasets?sort=kind&size=50&total=none`),
        ],
        [
          'list all, sort=-updated_at, total=none',
          () => api.call('GET', `/api/v1/datasets?sort=-updated_at&size=50&total=none`),
        ],
        [
          'list all, sort=layer, total=none',
          () => api.call('GET', `/api/v1/datasets?sort=layer&size=50&total=none`),
        ],
        ['list all, first page', () => api.call('GET', `/api/v1/datasets?size=50`)],
        ['list all, total=none', () => api.call('GET', `/api/v1/datasets?size=50&total=none`)],
        ['object_name__like', () => api.call('GET', `/api/v1/datasets?object_name__like=refund_42&size=50`)],
        [
          'GET dataset + current version',
          async () => {
            await api.call('GET', `/api/v1/datasets/${many}`);
            return api.call('GET', `/api/v1/datasets/${many}/schema-versions/3`);
          },
        ],
        ['version history', () => api.call('GET', `/api/v1/datasets/${many}/schema-versions`)],
        ['diff v1 → v3', () => api.call('GET', `/api/v1/datasets/${many}/schema-versions/diff?from=1&to=3`)],
        ['system snapshot, first page', () => api.call('GET', `/api/v1/systems/${system}/snapshot`)],
        ['search', () => api.call('GET', `/api/v1/search?q=ledger_refund`)],
        [
          `publish ${WIDE}-column version`,
          () =>
            api.call(
              'POST',
              `/api/v1/datasets/${wideDatasets[wideTarget++ % wideDatasets.length]}/schema-versions`,
              {
                columns: columns(WIDE, size),
              },
            ),
          5,
        ],
      ];
      const row = { size, counts, perSystem, operations: [] };
      for (const [name, fn, runs = opts.runs] of operations) {
        for (let i = 0; i < Math.min(3, runs); i++) await fn(); // warm-up
        const times = [];
        let statements = 0;
        let answer;
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          statements = (await recorder.during(async () => (answer = await fn()))).length;
          times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        const op = {
          name,
          p50: percentile(times, 50),
          p99: percentile(times, 99),
          statements,
          rows: answerRows(answer),
        };
        if (size === opts.sizes[opts.sizes.length - 1]) {
          const big = new Set([
            'datasets',
            'dataset_rdbms',
            'fields',
            'field_bindings',
            'type_instances',
            'dataset_schemas',
            'field_classifications',
          ]);
          const captured = await recorder.during(fn);
          op.plans = [];
          for (const s of captured) {
            // Reads only (a publish's reads too: EXPLAIN without ANALYZE runs nothing).
            if (!/^\s*(SELECT|WITH)/i.test(s.text ?? '') || /\b(INSERT|UPDATE|DELETE)\b/i.test(s.text))
              continue;
            try {
              const explained = await client.query({
                text: `EXPLAIN (FORMAT JSON) ${s.text}`,
                values: s.values,
              });
              op.plans.push(planFindings(explained.rows[0]['QUERY PLAN'][0].Plan, big));
            } catch (error) {
              op.plans.push({ found: [`EXPLAIN failed: ${error.message}`], indexes: [] });
            }
          }
        }
        row.operations.push(op);
        log(
          `  ${name}: p50 ${op.p50.toFixed(1)} ms, p99 ${op.p99.toFixed(1)} ms, ${statements} statements, ${op.rows} rows answered`,
        );
      }
      results.push(row);
    }

    // Report.
    const names = results[0].operations.map((o) => o.name);
    const out = [
      '',
      `Scale: ${opts.sizes.join(' / ')} datasets (${COLUMNS} columns each; seed ${opts.seed} built in ${seedSeconds.toFixed(0)} s through the bulk paths, then copied)`,
      '',
    ];
    out.push(
      [
        'operation'.padEnd(58),
        ...results.map((r) => `${r.size}: p50 / p99 ms (stmts, rows)`.padStart(40)),
      ].join(''),
    );
    for (const [i, name] of names.entries()) {
      out.push(
        [
          name.replace(/page \d+/, 'deep page').padEnd(58),
          ...results.map((r) => {
            const o = r.operations[i];
            return `${o.p50.toFixed(1)} / ${o.p99.toFixed(1)} (${o.statements}, ${o.rows})`.padStart(40);
          }),
        ].join(''),
      );
    }
    out.push('');
    out.push(
      `Plans at ${opts.sizes[opts.sizes.length - 1]} datasets (sequential scans of large tables, big sorts):`,
    );
    for (const o of results[results.length - 1].operations) {
      if (!o.plans) continue;
      const found = o.plans.flatMap((p) => p.found);
      const indexes = [...new Set(o.plans.flatMap((p) => p.indexes))];
      out.push(
        `  ${o.name}: ${found.length ? found.join('; ') : 'none'}  [indexes: ${indexes.join(', ') || '—'}]`,
      );
    }
    process.stdout.write(`${out.join('\n')}\n\n`);
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ suite: 'scale', date: new Date().toISOString(), command: `pnpm bench scale ${argv.join(' ')}`.trim(), seedSeconds, results }, null, 2)}\n`,
    );
    log(`results written to bench-results/scale.json`);
    return 0;
  } catch (error) {
    process.stderr.write(`\n[bench scale] FAILED: ${error?.stack ?? error}\n`);
    return 1;
  } finally {
    await cleanup();
  }
}
