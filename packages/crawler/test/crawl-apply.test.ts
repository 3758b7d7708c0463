// crawl and apply end to end: real databases (the realistic fixtures of PostgreSQL, MariaDB and SQLite)
// against the real registry (the backend, started by this file). crawl → apply → crawl shows no
// changes; a stale report is refused for the moved dataset only; --check exit codes; crawl runs are
// recorded, also a failed one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ExitCode } from '../src/errors.js';
import { main } from '../src/program.js';
import { objectName } from '../src/registry/model.js';
import { readRegistry } from '../src/registry/snapshot.js';
import type { CrawlReport } from '../src/report/report.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { connectMysql, type TestMysql } from './helpers/mysql.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';
import { execSqlite } from './helpers/sqlite.js';

let backend: TestBackend;
let tmp: string;

beforeAll(async () => {
  backend = await startBackend('crawl');
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-crawl-'));
}, 180_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

/** Runs the command line in-process with the registry's env vars. */
async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { ...backend.env, ...env },
  });
  return { code, stdout, stderr };
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

async function crawlRuns(systemCode: string) {
  const client = backend.client();
  try {
    const system = (await client.systems.list({ code: systemCode, size: 1 })).items[0];
    if (system === undefined) throw new Error(`no system ${systemCode}`);
    return (await client.crawlRuns.list({ system_id: system.id, size: 100, sort: 'started_at' })).items;
  } finally {
    await client.close();
  }
}

/** crawl → apply → crawl on a whole database: the second crawl finds nothing, re-applying does nothing. */
async function roundTrip(system: string, url: string, extra: string[] = []) {
  const report = join(tmp, `${system}.json`);
  const crawl = ['crawl', '--system-code', system, '--connection-url', url, ...extra];
  const first = await run([...crawl, '--format', 'json', '-o', report, '--check']);
  expect(first.stderr).toContain(`Report written to ${report}`);
  expect(first.code).toBe(ExitCode.DIFFERENCES);
  const written = readJson<CrawlReport>(report);
  expect(written.datasets.length).toBeGreaterThan(0);
  expect(written.datasets.every((d) => d.status === 'new')).toBe(true);

  const applied = await run(['apply', report]);
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(ExitCode.OK);
  expect(applied.stdout).toContain(`${written.datasets.length} created, 0 published`);

  const again = await run([...crawl, '--check']);
  expect(again.stdout).toContain('No differences');
  expect(again.code).toBe(ExitCode.OK);

  const reapplied = await run(['apply', report]);
  expect(reapplied.code).toBe(ExitCode.OK);
  expect(reapplied.stdout).toContain(`0 created, 0 published, ${written.datasets.length} already applied`);
  return written;
}

describe('crawl → apply → crawl on PostgreSQL', () => {
  let db: TestPgDatabase;

  beforeAll(async () => {
    db = await createPgDatabase('crawl');
    await db.exec(readFileSync(new URL('./fixtures/postgres-realistic.sql', import.meta.url), 'utf8'));
    await backend.createSystem('shop_pg', 'postgres14');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('publishes every table, and a second crawl finds no changes', async () => {
    const report = await roundTrip('shop_pg', db.url);
    const runs = await crawlRuns('shop_pg');
    // crawl, apply, crawl (the no-op apply records nothing).
    expect(runs.map((r) => [r.status, r.config['command'] ?? 'crawl'])).toEqual([
      ['completed', 'crawl'],
      ['completed', 'apply'],
      ['completed', 'crawl'],
    ]);
    expect(runs[0]?.summary).toMatchObject({ datasets: { new: report.datasets.length } });
    expect(runs[1]?.config).toMatchObject({ report_crawl_run_id: report.crawl_run_id });
    expect(runs[2]?.summary).toMatchObject({ changes: { total: 0 } });
    // The apply names each dataset it created by the id the registry answered; the first crawl saw a
    // table without a dataset yet, the last one no difference (a report lists only the differences).
    const client = backend.client();
    try {
      const [dataset] = (await client.datasets.list({ system_id: runs[0]?.system_id, size: 1 })).items;
      const naming = await client.crawlRuns.list({ dataset_id: dataset?.id });
      expect(naming.items.map((r) => r.id)).toEqual([runs[1]?.id]);
    } finally {
      await client.close();
    }
  });

  it('refuses a stale report for the moved dataset only', async () => {
    await db.exec(`CREATE TABLE public.stale_a (id int PRIMARY KEY, v text);
      CREATE TABLE public.stale_b (id int PRIMARY KEY, v text)`);
    const first = join(tmp, 'stale-first.json');
    const crawl = [
      'crawl',
      '--system-code',
      'shop_pg',
      '--connection-url',
      db.url,
      '--tables',
      'public.stale_*',
    ];
    expect((await run([...crawl, '--format', 'json', '-o', first])).code).toBe(ExitCode.OK);
    expect((await run(['apply', first])).code).toBe(ExitCode.OK);

    // R1: both tables changed (base v1 each).
    await db.exec(`ALTER TABLE public.stale_a ADD COLUMN x int; ALTER TABLE public.stale_b ADD COLUMN x int`);
    const r1 = join(tmp, 'stale-r1.json');
    expect((await run([...crawl, '--format', 'json', '-o', r1])).code).toBe(ExitCode.OK);
    expect(readJson<CrawlReport>(r1).datasets.map((d) => [d.table, d.base_version_num])).toEqual([
      ['stale_a', 1],
      ['stale_b', 1],
    ]);
    // Meanwhile stale_a moves on: another change, crawled and applied for stale_a alone.
    await db.exec(`ALTER TABLE public.stale_a ADD COLUMN y int`);
    const r2 = join(tmp, 'stale-r2.json');
    expect((await run([...crawl, '--format', 'json', '-o', r2])).code).toBe(ExitCode.OK);
    const onlyA = await run(['apply', r2, '--only', 'public.stale_a']);
    expect(onlyA.stdout).toContain('0 created, 1 published');

    const dry = await run(['apply', r1, '--dry-run']);
    expect(dry.stdout).toMatch(/would be REFUSED \(stale\)\s+public\.stale_a v2/);
    expect(dry.stdout).toContain('would be published');

    const stale = await run(['apply', r1]);
    expect(stale.code).toBe(ExitCode.FAILURE);
    expect(stale.stdout).toMatch(/REFUSED \(stale\)\s+public\.stale_a v2 {2}— the registry moved from v1/);
    expect(stale.stdout).toMatch(/published\s+public\.stale_b v2/);
    expect(stale.stdout).toContain('0 created, 1 published, 0 already applied, 1 refused as stale');
  });

  it('--check exits 3 on differences and 0 without; the text report classes each change', async () => {
    await db.exec(`CREATE TABLE public.checked (id int PRIMARY KEY, name varchar(20))`);
    const crawl = [
      'crawl',
      '--system-code',
      'shop_pg',
      '--connection-url',
      db.url,
      '--tables',
      'public.checked',
    ];
    const report = join(tmp, 'checked.json');
    expect((await run([...crawl, '--check', '--format', 'json', '-o', report])).code).toBe(
      ExitCode.DIFFERENCES,
    );
    expect((await run(['apply', report])).code).toBe(ExitCode.OK);
    expect((await run([...crawl, '--check'])).code).toBe(ExitCode.OK);
    await db.exec(`ALTER TABLE public.checked ALTER name TYPE varchar(40), ADD COLUMN code int NOT NULL`);
    const text = await run([...crawl, '--check']);
    expect(text.code).toBe(ExitCode.DIFFERENCES);
    expect(text.stdout).toMatch(/~ public\.checked {2}v1, breaking/);
    expect(text.stdout).toMatch(/compatible {2}column name type varchar\(20\)/);
    expect(text.stdout).toMatch(/BREAKING {4}column added: code integer NOT NULL/);
    expect(text.stdout).toContain('changes: 2 (1 compatible, 1 breaking)');
  });

  it('prints registry types with their params in order: numeric(10,2) → numeric(12,2)', async () => {
    await db.exec(`CREATE TABLE public.priced (id int PRIMARY KEY, amount numeric(10,2), tags varchar(8)[])`);
    const crawl = [
      'crawl',
      '--system-code',
      'shop_pg',
      '--connection-url',
      db.url,
      '--tables',
      'public.priced',
    ];
    const report = join(tmp, 'priced.json');
    expect((await run([...crawl, '--format', 'json', '-o', report])).code).toBe(ExitCode.OK);
    expect((await run(['apply', report])).code).toBe(ExitCode.OK);
    await db.exec(`ALTER TABLE public.priced ALTER amount TYPE numeric(12,2), ALTER tags TYPE varchar(9)[]`);
    const text = await run(crawl);
    expect(text.code).toBe(ExitCode.OK);
    expect(text.stdout).toContain('column amount type numeric(10,2) → numeric(12,2)');
    expect(text.stdout).toContain('widens numeric(10,2) (numeric(10,2)) to numeric(12,2) (numeric(12,2))');
    expect(text.stdout).toMatch(/column tags type varchar\(8\)\[\] → character varying\(9\)\[\]/);
    expect(text.stdout).not.toContain('numeric(2,');
  });

  it('keeps "x.y".z and x."y.z" apart: two datasets, quoted object names, no differences after apply', async () => {
    await db.exec(`CREATE SCHEMA "x.y"; CREATE SCHEMA x;
      CREATE TABLE "x.y".z (id int PRIMARY KEY, a text);
      CREATE TABLE x."y.z" (id int PRIMARY KEY, b int);
      CREATE TABLE x."q""t" (id int)`);
    const crawl = ['crawl', '--system-code', 'shop_pg', '--connection-url', db.url, '--schemas', 'x.y,x'];
    const report = join(tmp, 'dotted.json');
    expect((await run([...crawl, '--format', 'json', '-o', report])).code).toBe(ExitCode.OK);
    const written = readJson<CrawlReport>(report);
    expect(written.datasets.map((d) => [d.object_name, d.schema, d.table, d.status])).toEqual([
      ['x."q""t"', 'x', 'q"t', 'new'],
      ['x."y.z"', 'x', 'y.z', 'new'],
      ['"x.y".z', 'x.y', 'z', 'new'],
    ]);
    const applied = await run(['apply', report]);
    expect(applied.code).toBe(ExitCode.OK);
    expect(applied.stdout).toContain('3 created, 0 published');
    expect(applied.stdout).toMatch(/created\s+"x\.y"\.z v1/);
    expect(applied.stdout).toMatch(/created\s+x\."y\.z" v1/);
    const again = await run([...crawl, '--check']);
    expect(again.stdout).toContain('No differences');
    expect(again.code).toBe(ExitCode.OK);
    const only = await run(['apply', report, '--only', '"x.y".z', '--dry-run']);
    expect(only.stdout).toMatch(/would be already applied\s+"x\.y"\.z v1/);
    expect(only.stdout).not.toContain('x."y.z"');
    // Every other name keeps the object name it always had: quotes only where a part holds . or ".
    expect(
      ['public.orders', 'Sales.Order Lines', 'a-b.$x'].map((n) =>
        objectName(...(n.split('.') as [string, string])),
      ),
    ).toEqual(['public.orders', 'Sales.Order Lines', 'a-b.$x']);
    const client = backend.client();
    try {
      const system = (await client.systems.list({ code: 'shop_pg', size: 1 })).items[0];
      const datasets = (await readRegistry(client, system.id)).filter((d) => ['x', 'x.y'].includes(d.schema));
      expect(datasets.map((d) => [d.object_name, d.schema, d.table, d.version_num]).sort()).toEqual([
        ['"x.y".z', 'x.y', 'z', 1],
        ['x."q""t"', 'x', 'q"t', 1],
        ['x."y.z"', 'x', 'y.z', 1],
      ]);
    } finally {
      await client.close();
    }
  });

  it('records an unreachable database as a failed crawl run, with the error and no password', async () => {
    const password = 'N0t-t0-b3-sh0wn';
    const before = (await crawlRuns('shop_pg')).length;
    const result = await run([
      'crawl',
      '--system-code',
      'shop_pg',
      '--connection-url',
      `postgresql://postgres:${password}@127.0.0.1:1/nowhere`,
    ]);
    expect(result.code).toBe(ExitCode.FAILURE);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('connection refused');
    expect(result.stderr).not.toContain(password);
    const runs = await crawlRuns('shop_pg');
    expect(runs).toHaveLength(before + 1);
    const failed = runs[runs.length - 1];
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.error_message).toContain('connection refused');
    expect(JSON.stringify(failed)).not.toContain(password);
  });

  it('fails fast, recording nothing, for an unknown system or a flavor of another dialect', async () => {
    const unknown = await run(['crawl', '--system-code', 'no_such_system', '--connection-url', db.url]);
    expect(unknown).toMatchObject({ code: ExitCode.FAILURE, stdout: '' });
    expect(unknown.stderr).toBe("aide-crawler: system 'no_such_system' not found in the registry\n");
    await backend.createSystem('wrong_flavor', 'mysql8');
    const wrong = await run(['crawl', '--system-code', 'wrong_flavor', '--connection-url', db.url]);
    expect(wrong.code).toBe(ExitCode.FAILURE);
    expect(wrong.stderr).toContain("system 'wrong_flavor' has flavor 'mysql8'");
    expect(await crawlRuns('wrong_flavor')).toEqual([]);
  });

  it('needs registry credentials (usage error) and refuses bad ones in one line', async () => {
    const missing = await run(['crawl', '--system-code', 'shop_pg', '--connection-url', db.url], {
      AIDE_METASTORE_USER: '',
      AIDE_METASTORE_PASSWORD: '',
    });
    expect(missing.code).toBe(ExitCode.USAGE);
    expect(missing.stderr).toContain('--metastore-user and --metastore-password');
    const bad = await run(['crawl', '--system-code', 'shop_pg', '--connection-url', db.url], {
      AIDE_METASTORE_PASSWORD: 'wrong-password-123',
    });
    expect(bad.code).toBe(ExitCode.FAILURE);
    expect(bad.stderr).toContain('the registry refused the credentials');
    expect(bad.stderr).not.toContain('wrong-password-123');
  });
});

describe('the registry read by pages', () => {
  let db: TestPgDatabase;

  beforeAll(async () => {
    db = await createPgDatabase('pages');
    // Two tables naming each other: whatever the order of the pages, one names a table not read yet.
    await db.exec(`CREATE TABLE public.a (id int PRIMARY KEY, b_id int);
      CREATE TABLE public.b (id int PRIMARY KEY, a_id int REFERENCES public.a (id));
      ALTER TABLE public.a ADD FOREIGN KEY (b_id) REFERENCES public.b (id)`);
    await backend.createSystem('pages_pg', 'postgres14');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('names a foreign key by its target dataset, wherever the pages put that dataset', async () => {
    await roundTrip('pages_pg', db.url);
    const client = backend.client();
    try {
      const system = (await client.systems.list({ code: 'pages_pg', size: 1 })).items[0];
      // The datasets are renamed in the registry: keys naming them by id follow them.
      const datasets = (await client.datasets.list({ system_id: system.id, size: 100 })).items;
      for (const d of datasets) {
        if (d.kind !== 'rdbms') continue;
        await client.datasets.update(d.id, {
          kind: 'rdbms',
          table_name: `renamed_${d.table_name}`,
          row_version: d.row_version,
        });
      }
      const byPage = await readRegistry(client, system.id, undefined, 1);
      expect(byPage).toEqual(await readRegistry(client, system.id));
      const targets = byPage.map((d) => [d.table, d.version?.foreign_keys.map((fk) => fk.referenced.table)]);
      expect(targets.sort()).toEqual([
        ['renamed_a', ['renamed_b']],
        ['renamed_b', ['renamed_a']],
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('crawl → apply → crawl on MariaDB and SQLite', () => {
  let mysql: TestMysql;

  beforeAll(async () => {
    mysql = await connectMysql('crawl');
  });

  afterAll(async () => {
    await mysql?.drop();
  });

  it('round-trips the realistic MariaDB schema', async () => {
    const fixture = readFileSync(new URL('./fixtures/mysql-realistic.sql', import.meta.url), 'utf8');
    await mysql.exec(fixture.replaceAll('{{p}}', mysql.prefix));
    await backend.createSystem('shop_mysql', 'mysql8');
    await roundTrip('shop_mysql', mysql.url(), ['--schemas', `${mysql.prefix}*`]);
  });

  it('round-trips the realistic SQLite schema', async () => {
    const file = join(tmp, 'music.db');
    await execSqlite(file, readFileSync(new URL('./fixtures/sqlite-realistic.sql', import.meta.url), 'utf8'));
    await backend.createSystem('music_sqlite', 'sqlite3');
    await roundTrip('music_sqlite', `sqlite:///${file}`);
  });
});
