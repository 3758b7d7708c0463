// `pnpm bench translate` (issue 25 §3), against the real server (a child process, as in production):
//   - translation of a 500-column PostgreSQL version into each target (DDL, Avro, JSON Schema,
//     Protobuf, Parquet), p50 per target, against the least possible work measured in the same run: a
//     read of the same version (`GET /datasets/{id}/schema-versions/{n}`);
//   - the compatibility check of a would-be version against a FULL_TRANSITIVE history of 100 versions
//     (accepted, and refused), p50, against the same check under NONE (the route's own work: the body
//     resolved, nothing compared) and under FULL (the latest version only).
// Target (issue 25): the FULL_TRANSITIVE check ≤ 20 ms p50.
//
//   node scripts/bench.mjs translate [--columns N] [--versions V] [--runs R] [--no-build]
//
// DATABASE_URL: use that server (a fresh database is created and dropped) instead of an embedded one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildBackend, freshBenchDatabase, runCleanups, startBenchServer } from './harness.mjs';

const BACKEND = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(BACKEND, '..', '..');
const RESULTS = join(REPO, 'bench-results', 'translate.json');
const CHECK_TARGET_MS = 20;
const EMAIL = 'bench-translate@example.com';
const PASSWORD = 'bench-translate-password-1';
const TARGETS = [
  ['postgres14', 'ddl'],
  ['mysql8', 'ddl'],
  ['sqlite3', 'ddl'],
  ['hive3', 'ddl'],
  ['spark_sql', 'ddl'],
  ['iceberg_v2', 'ddl'],
  ['avro', 'avro'],
  ['json_schema', 'json_schema'],
  ['protobuf', 'protobuf'],
  ['storage_files', 'parquet'],
];

const log = (m) => process.stderr.write(`${m}\n`);
const dist = (path) => import(pathToFileURL(join(BACKEND, 'dist', path)).href);
const p50 = (sorted) => sorted[Math.floor(sorted.length / 2)];

/** A spread of PostgreSQL types, scalar and nested, cycled over the columns. */
const TYPE_CYCLE = [
  { data_type: 'integer' },
  { data_type: 'bigint' },
  { data_type: 'varchar', params: { length: 200 } },
  { data_type: 'text' },
  { data_type: 'numeric', params: { precision: 12, scale: 2 } },
  { data_type: 'timestamptz' },
  { data_type: 'date' },
  { data_type: 'boolean' },
  { data_type: 'uuid' },
  { data_type: 'jsonb' },
  { data_type: 'double' },
  { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
  { data_type: 'bytea' },
  { data_type: 'smallint' },
];

const wideColumns = (n) =>
  Array.from({ length: n }, (_, i) => ({
    name: i === 0 ? 'id' : `c${String(i).padStart(3, '0')}`,
    nullable: i !== 0,
    type: i === 0 ? { data_type: 'bigint' } : TYPE_CYCLE[i % TYPE_CYCLE.length],
    ...(i % 25 === 3 ? { comment: `column ${i}` } : {}),
  }));

export async function run(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      columns: { type: 'string', default: '500' },
      versions: { type: 'string', default: '100' },
      runs: { type: 'string', default: '30' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    log('usage: pnpm bench translate [--columns N] [--versions V] [--runs R] [--no-build]   (DATABASE_URL)');
    return 0;
  }
  const columns = Number(values.columns);
  const versions = Number(values.versions);
  const runs = Math.max(3, Number(values.runs));
  if (!Number.isInteger(columns) || columns < 2 || !Number.isInteger(versions) || versions < 2) {
    log('--columns and --versions must be integers ≥ 2');
    return 2;
  }
  if (!values['no-build']) buildBackend(REPO);

  const cleanups = [];
  try {
    const dbUrl = await freshBenchDatabase('translate', { cleanups, log, dist });
    const { baseUrl } = await startBenchServer('translate', {
      databaseUrl: dbUrl,
      email: EMAIL,
      password: PASSWORD,
      cleanups,
      log,
      dist,
    });
    const login = await fetch(`${baseUrl}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: EMAIL, password: PASSWORD, grant_type: 'password' }),
    });
    const { access_token: token } = await login.json();
    const call = async (method, path, body, expect = [200, 201]) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!expect.includes(response.status)) {
        throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
      }
      return text === '' ? null : JSON.parse(text);
    };
    const timed = async (fn) => {
      await fn(); // warm: plans, caches
      const out = [];
      for (let i = 0; i < runs; i++) {
        const start = process.hrtime.bigint();
        await fn();
        out.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      return out.sort((a, b) => a - b);
    };

    const flavors = await call('GET', '/api/v1/system-flavors?code=postgres14');
    const system = await call('POST', '/api/v1/systems', {
      code: 'bench_translate',
      name: 'Bench translate',
      flavor_id: flavors.items[0].id,
    });
    const dataset = async (name) =>
      call('POST', '/api/v1/datasets', {
        kind: 'rdbms',
        system_id: system.id,
        object_name: `public.${name}`,
        schema_name: 'public',
        table_name: name,
        is_view: false,
      });

    // Translation of a wide version.
    log(`publishing a ${columns}-column version …`);
    const wide = await dataset('wide');
    await call('POST', `/api/v1/datasets/${wide.id}/schema-versions`, {
      columns: wideColumns(columns),
      primary_key: { name: 'wide_pkey', columns: ['id'] },
    });
    const readMs = await timed(() => call('GET', `/api/v1/datasets/${wide.id}/schema-versions/1`));
    const translations = [];
    for (const [flavor, format] of TARGETS) {
      const path = `/api/v1/datasets/${wide.id}/versions/1/translate?flavor=${flavor}&format=${format}`;
      const sample = await call('GET', path);
      const ms = await timed(() => call('GET', path));
      translations.push({
        flavor,
        format,
        p50_ms: p50(ms),
        bytes: sample.content.length,
        lossy_columns: sample.columns.filter((c) => c.fidelity === 'lossy').length,
        omissions: sample.omissions.length,
      });
    }

    // The check against a history of `versions` versions, each adding a nullable column.
    log(`publishing ${versions} versions …`);
    const history = await dataset('history');
    const base = wideColumns(50);
    const versionColumns = (k) => [
      ...base,
      ...Array.from({ length: k }, (_, i) => ({
        name: `added_${i}`,
        nullable: true,
        type: { data_type: 'text' },
      })),
    ];
    for (let k = 0; k < versions; k++) {
      await call('POST', `/api/v1/datasets/${history.id}/schema-versions`, { columns: versionColumns(k) });
    }
    const accepted = { columns: versionColumns(versions) };
    // Refused under FULL_TRANSITIVE: a column of the first version made NOT NULL and another narrowed.
    const refused = {
      columns: versionColumns(versions).map((c) =>
        c.name === 'c002'
          ? { ...c, type: { data_type: 'varchar', params: { length: 20 } } }
          : c.name === 'c001'
            ? { ...c, nullable: false }
            : c,
      ),
    };
    const check = (body) => call('POST', `/api/v1/datasets/${history.id}/schema-versions/check`, body);
    const setLevel = (level) => call('PUT', `/api/v1/datasets/${history.id}/compatibility`, { level });
    const checks = {};
    for (const level of ['NONE', 'FULL', 'FULL_TRANSITIVE']) {
      await setLevel(level);
      const verdict = await check(accepted);
      const refusal = await check(refused);
      if (!verdict.accepted || (level !== 'NONE' && refusal.accepted)) {
        throw new Error(`${level}: the check does not give the expected verdicts`);
      }
      checks[level] = {
        compared_versions: verdict.compared_versions.length,
        violations_when_refused: refusal.violations.length,
        accepted_p50_ms: p50(await timed(() => check(accepted))),
        refused_p50_ms: p50(await timed(() => check(refused))),
      };
    }

    const result = {
      columns,
      versions,
      runs,
      baseline_read_version_p50_ms: p50(readMs),
      translations,
      checks,
      target_check_p50_ms: CHECK_TARGET_MS,
    };
    const line = (label, v) => log(`${label.padEnd(58)} ${v}`);
    const ratio = (ms, baseline) => `×${(ms / baseline).toFixed(2)}`;
    log('');
    line(`translate a ${columns}-column version, p50 of ${runs} runs`, '');
    line(
      '  baseline: read the version (GET …/schema-versions/1)',
      `${result.baseline_read_version_p50_ms.toFixed(1)} ms`,
    );
    for (const t of translations) {
      line(
        `  → ${t.flavor} (${t.format})`,
        `${t.p50_ms.toFixed(1)} ms ${ratio(t.p50_ms, result.baseline_read_version_p50_ms)}, ${t.bytes} B, ${t.lossy_columns} lossy, ${t.omissions} omissions`,
      );
    }
    log('');
    line(`check a would-be version against ${versions} versions, p50`, '');
    const none = checks.NONE.accepted_p50_ms;
    for (const [level, c] of Object.entries(checks)) {
      line(
        `  ${level} (${c.compared_versions} compared), accepted / refused`,
        `${c.accepted_p50_ms.toFixed(1)} ms ${ratio(c.accepted_p50_ms, none)} / ${c.refused_p50_ms.toFixed(1)} ms (${c.violations_when_refused} violations)`,
      );
    }
    const transitive = checks.FULL_TRANSITIVE;
    const verdict = (ms) => `${ms.toFixed(1)} ms ${ms <= CHECK_TARGET_MS ? 'met' : 'MISSED'}`;
    line(
      `  FULL_TRANSITIVE ≤ ${CHECK_TARGET_MS} ms p50: accepted / refused`,
      `${verdict(transitive.accepted_p50_ms)} / ${verdict(transitive.refused_p50_ms)} (a refusal adds the impact analysis)`,
    );
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
    log(`\nresults: ${RESULTS}`);
    return 0;
  } finally {
    await runCleanups(cleanups, log);
  }
}
