// Translation round trips on real engines (issue 25 §2, ADR 0049): a PostgreSQL database crawled into
// the registry, each table's version translated into mysql8 and sqlite3 DDL by the registry, the DDL
// executed on MariaDB (a database per PostgreSQL schema) and SQLite (a file per schema), those crawled
// back into the registry, and every table compared with what the translation promised: the same
// columns in the same order, the same nullability, each type the cast's target (or the engine's own
// spelling of it, listed below with why), the primary and unique keys it did not report as omitted.
//
// Without AIDE_TEST_SAMPLE_PG_URLS it runs on the repository's fixture (postgres-realistic.sql). With
// it, on each database listed (pagila, dvdrental…, which are not in the repository):
//
//   AIDE_TEST_SAMPLE_PG_URLS=postgresql://postgres@127.0.0.1/pagila,postgresql://postgres@127.0.0.1/dvdrental
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SchemaVersion, SnapshotDataset, Translation } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadSqliteEngine } from '../src/connection/sqlite-engine.js';
import { ExitCode } from '../src/errors.js';
import { main } from '../src/program.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { connectMysql, type TestMysql } from './helpers/mysql.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';

const sampleUrls = (process.env['AIDE_TEST_SAMPLE_PG_URLS'] ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');

/**
 * The engine's own spelling of a type the DDL named, as its catalog answers it back: the same type, not
 * a loss of the cast. MySQL/MariaDB write out or leave out their defaults (the mysql8 seed notes them):
 * fractional seconds 0, decimal (10,0). Anything else that differs fails the test.
 */
const ENGINE_SPELLING: Record<'mysql8' | 'sqlite3', (type: string) => string> = {
  mysql8: (type) =>
    type
      .replace(/^(time|datetime|timestamp)\(0\)$/, '$1')
      .replace(/^decimal$/, 'decimal(10,0)')
      .replace(/^decimal\((\d+)\)$/, 'decimal($1,0)'),
  sqlite3: (type) => type,
};

let backend: TestBackend;
let mysql: TestMysql;
let tmp: string;

beforeAll(async () => {
  backend = await startBackend('translate');
  mysql = await connectMysql('tr');
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-translate-'));
}, 180_000);

afterAll(async () => {
  await mysql?.drop();
  await backend?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { ...backend.env },
  });
  return { code, stdout, stderr };
}

/** crawl + apply of a whole source into a new system of the flavor. */
async function crawlInto(system: string, flavor: string, url: string, extra: string[] = []): Promise<void> {
  await backend.createSystem(system, flavor);
  const report = join(tmp, `${system}.json`);
  const crawled = await run([
    'crawl',
    '--system-code',
    system,
    '--connection-url',
    url,
    ...extra,
    '--format',
    'json',
    '-o',
    report,
  ]);
  expect(crawled.code).toBe(ExitCode.OK);
  const applied = await run(['apply', report]);
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(ExitCode.OK);
}

/** Every dataset of a system with its current version. */
async function snapshotOf(code: string): Promise<SnapshotDataset[]> {
  const client = backend.client();
  try {
    const system = (await client.systems.list({ code, size: 1 })).items[0];
    if (system === undefined) throw new Error(`no system ${code}`);
    const items: SnapshotDataset[] = [];
    for await (const page of client.systems.snapshot(system.id)) items.push(...page.items);
    return items;
  } finally {
    await client.close();
  }
}

function tableOf(item: SnapshotDataset): { schema: string; table: string } {
  const d = item.dataset as { schema_name?: string; table_name?: string };
  return { schema: d.schema_name as string, table: d.table_name as string };
}

/** A table as the comparison reads it: columns in order, keys as column lists. */
interface Shape {
  columns: { name: string; nullable: boolean; type: string | null }[];
  primary_key: string[] | null;
  unique: string[][];
}

const sortedKeys = (keys: string[][]) => keys.map((k) => k.join(',')).sort();

/** What the translation promised: the columns it typed, the keys it did not omit. */
function promised(source: SchemaVersion, t: Translation): Shape {
  const omitted = (kind: string, key: { name: string | null; columns: string[] }) =>
    t.omissions.some((o) => o.kind === kind && o.path === (key.name ?? key.columns.join(', ')));
  // The translation lists each column, its nested fields after it: match the columns in order.
  let at = 0;
  const columns: Shape['columns'] = [];
  for (const c of source.columns) {
    while (t.columns[at]?.path !== c.name) at++;
    const type = t.columns[at].target_type;
    const left = t.omissions.some((o) => o.kind === 'column' && o.path === c.name);
    if (type !== null && !left) columns.push({ name: c.name, nullable: c.nullable, type });
  }
  return {
    columns,
    primary_key:
      source.primary_key && !omitted('primary_key', source.primary_key) ? source.primary_key.columns : null,
    unique: source.unique_constraints.filter((u) => !omitted('unique', u)).map((u) => u.columns),
  };
}

function crawledBack(version: SchemaVersion, flavor: 'mysql8' | 'sqlite3', expected: Shape): Shape {
  return {
    columns: version.columns.map((c, i) => {
      const want = expected.columns[i]?.type;
      const same = want !== undefined && want !== null && ENGINE_SPELLING[flavor](want) === c.rendered_type;
      return { name: c.name, nullable: c.nullable, type: same ? want : c.rendered_type };
    }),
    primary_key: version.primary_key?.columns ?? null,
    unique: version.unique_constraints.map((u) => u.columns),
  };
}

async function execSqlite(file: string, ddl: string): Promise<void> {
  const db = (await loadSqliteEngine()).open(file, { readonly: false });
  try {
    db.exec(ddl);
  } finally {
    db.close();
  }
}

let sourceCount = 0;

for (const given of sampleUrls.length > 0 ? sampleUrls : [null])
  describe(`PostgreSQL ${given ?? 'fixture postgres-realistic.sql'} translated to MariaDB and SQLite`, () => {
    const n = ++sourceCount;
    let db: TestPgDatabase | undefined;
    let url: string;

    beforeAll(async () => {
      if (given === null) {
        db = await createPgDatabase('translate');
        await db.exec(readFileSync(new URL('./fixtures/postgres-realistic.sql', import.meta.url), 'utf8'));
        url = db.url;
      } else {
        url = given;
      }
    });

    afterAll(async () => {
      await db?.drop();
    });

    it('crawls back equal up to the declared losses', async () => {
      await crawlInto(`pg_${n}`, 'postgres14', url);
      const sources = await snapshotOf(`pg_${n}`);
      expect(sources.length).toBeGreaterThan(0);
      const schemas = [...new Set(sources.map((s) => tableOf(s).schema))].sort();
      const client = backend.client();
      const translations = new Map<string, { mysql8: Translation; sqlite3: Translation }>();
      try {
        for (const item of sources) {
          const version = item.version as SchemaVersion;
          const [mysql8, sqlite3] = [
            await client.datasets.translateSchemaVersion(item.dataset.id, version.version_num, {
              flavor: 'mysql8',
            }),
            await client.datasets.translateSchemaVersion(item.dataset.id, version.version_num, {
              flavor: 'sqlite3',
            }),
          ];
          translations.set(item.dataset.id, { mysql8, sqlite3 });
        }
      } finally {
        await client.close();
      }

      // The DDL runs: MariaDB a database per schema, SQLite a file per schema; no foreign keys are
      // emitted (an omission), so any order does.
      const database = (schema: string) => `${mysql.prefix}_${n}_${schemas.indexOf(schema)}`;
      const file = (schema: string) => join(tmp, `${n}_${schemas.indexOf(schema)}.db`);
      for (const schema of schemas)
        await mysql.exec(`CREATE DATABASE \`${database(schema)}\` CHARACTER SET utf8mb4`);
      for (const item of sources) {
        const { schema, table } = tableOf(item);
        const t = translations.get(item.dataset.id)!;
        try {
          await mysql.exec(`USE \`${database(schema)}\`; ${t.mysql8.content}`);
        } catch (error) {
          throw new Error(
            `MariaDB refused ${schema}.${table}: ${(error as Error).message}\n${t.mysql8.content}`,
            { cause: error },
          );
        }
        try {
          await execSqlite(file(schema), t.sqlite3.content);
        } catch (error) {
          throw new Error(
            `SQLite refused ${schema}.${table}: ${(error as Error).message}\n${t.sqlite3.content}`,
            { cause: error },
          );
        }
      }

      // Crawled back into the registry.
      await crawlInto(`rt_mysql_${n}`, 'mysql8', mysql.url(), ['--schemas', `${mysql.prefix}_${n}_*`]);
      const backMysql = new Map(
        (await snapshotOf(`rt_mysql_${n}`)).map((i) => [
          `${tableOf(i).schema}/${tableOf(i).table}`,
          i.version as SchemaVersion,
        ]),
      );
      const backSqlite = new Map<string, SchemaVersion>();
      for (const schema of schemas) {
        const code = `rt_sqlite_${n}_${schemas.indexOf(schema)}`;
        await crawlInto(code, 'sqlite3', `sqlite:///${file(schema)}`);
        for (const i of await snapshotOf(code))
          backSqlite.set(`${schema}/${tableOf(i).table}`, i.version as SchemaVersion);
      }

      const differences: unknown[] = [];
      let compared = 0;
      for (const item of sources) {
        const { schema, table } = tableOf(item);
        const source = item.version as SchemaVersion;
        const t = translations.get(item.dataset.id)!;
        for (const [flavor, back] of [
          ['mysql8', backMysql.get(`${database(schema)}/${table}`)],
          ['sqlite3', backSqlite.get(`${schema}/${table}`)],
        ] as const) {
          const expected = promised(source, t[flavor]);
          if (expected.columns.length === 0) continue;
          if (back === undefined) {
            differences.push({ table: `${schema}.${table}`, flavor, missing: true });
            continue;
          }
          compared++;
          const actual = crawledBack(back, flavor, expected);
          const normal = (s: Shape) => ({ ...s, unique: sortedKeys(s.unique) });
          if (JSON.stringify(normal(actual)) !== JSON.stringify(normal(expected))) {
            differences.push({
              table: `${schema}.${table}`,
              flavor,
              expected: normal(expected),
              actual: normal(actual),
            });
          }
        }
      }
      expect(differences).toEqual([]);
      // Every table of the fixture has columns both targets type: all of them were compared.
      if (given === null) expect(compared).toBe(2 * sources.length);
      else expect(compared).toBeGreaterThan(0);
    }, 600_000);
  });

describe('aide-crawler translate', () => {
  let datasetId: string;

  beforeAll(async () => {
    await backend.createSystem('cli_pg', 'postgres14');
    const client = backend.client();
    try {
      const system = (await client.systems.list({ code: 'cli_pg', size: 1 })).items[0];
      const dataset = await client.datasets.create({
        kind: 'rdbms',
        system_id: system.id,
        object_name: 'shop.orders',
        schema_name: 'shop',
        table_name: 'orders',
      });
      datasetId = dataset.id;
      await client.datasets.publishSchemaVersion(datasetId, {
        columns: [
          { name: 'id', nullable: false, type: { data_type: 'bigint' } },
          { name: 'placed_at', type: { data_type: 'timestamptz' }, comment: 'when' },
        ],
        primary_key: { name: 'orders_pkey', columns: ['id'] },
      });
    } finally {
      await client.close();
    }
  });

  it('prints the DDL on stdout and what it loses on stderr', async () => {
    const r = await run(['translate', datasetId, '1', '--flavor', 'sqlite3']);
    expect(r.code).toBe(ExitCode.OK);
    expect(r.stdout).toBe(
      'CREATE TABLE "orders" (\n  "id" integer NOT NULL,\n  "placed_at" datetime,\n' +
        '  CONSTRAINT "orders_pkey" PRIMARY KEY ("id")\n);\n',
    );
    expect(r.stderr).toBe(
      `${datasetId} version 1 into sqlite3 (ddl, from postgres14): 1 lossy cast(s), 1 omission(s)\n` +
        '  lossy    placed_at: timestamp with time zone -> datetime (loses time zone offset; precision above 3)\n' +
        '  omitted  comment placed_at: SQLite has no comments.\n',
    );
  });

  it('--output writes the file; --strict exits 3 and writes nothing', async () => {
    const file = join(tmp, 'orders.sql');
    const written = await run(['translate', datasetId, '1', '--flavor', 'mysql8', '-o', file]);
    expect(written.code).toBe(ExitCode.OK);
    expect(readFileSync(file, 'utf8')).toContain('CREATE TABLE `orders` (');
    expect(written.stderr).toContain(`Translation written to ${file}\n`);

    const strict = await run(['translate', datasetId, '1', '--flavor', 'sqlite3', '--strict']);
    expect(strict.code).toBe(ExitCode.LOSSY);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toContain('(--strict: nothing written): 1 lossy cast(s), 1 omission(s)\n');
  });

  it('usage errors and registry errors', async () => {
    expect((await run(['translate', 'nope', '1', '--flavor', 'mysql8'])).code).toBe(ExitCode.USAGE);
    expect((await run(['translate', datasetId, '0', '--flavor', 'mysql8'])).code).toBe(ExitCode.USAGE);
    expect((await run(['translate', datasetId, '1', '--flavor', 'mysql8', '--format', 'xml'])).code).toBe(
      ExitCode.USAGE,
    );
    expect((await run(['translate', datasetId, '1'])).code).toBe(ExitCode.USAGE);
    const missing = await run(['translate', datasetId, '7', '--flavor', 'mysql8']);
    expect(missing.code).toBe(ExitCode.FAILURE);
    expect(missing.stderr).toContain('DATASET_SCHEMA_NOT_FOUND');
    const format = await run(['translate', datasetId, '1', '--flavor', 'mysql8', '--format', 'avro']);
    expect(format.stderr).toContain('TRANSLATION_FORMAT_UNSUPPORTED');
  });
});
