// Compatibility levels through the crawler (ADR 0048), end to end: real SQLite, PostgreSQL and MariaDB
// databases against the real registry (the backend, started by this file). A dataset's level is set,
// its table altered; `crawl --check` exits 4 on a change the level refuses (3 on one it accepts), the
// report names every violation; `apply --dry-run` shows it and writes nothing; `apply` is refused;
// `apply --force-reason` publishes as a superuser only, the reason kept in the version history. A
// registry without the check route is reported as not checked.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CompatibilityLevel } from '@aide/schemas';
import { ExitCode } from '../src/errors.js';
import { main } from '../src/program.js';
import type { CrawlReport } from '../src/report/report.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { connectMysql, type TestMysql } from './helpers/mysql.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';
import { registryFront, type RegistryFront } from './helpers/registry-front.js';
import { execSqlite } from './helpers/sqlite.js';

let backend: TestBackend;
let tmp: string;

beforeAll(async () => {
  backend = await startBackend('compat');
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-compat-'));
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
const reportPath = (label: string) => join(tmp, `${label}-${randomBytes(3).toString('hex')}.json`);

/** The dataset of `objectName` in system `systemCode`, through the superuser's client. */
async function datasetId(systemCode: string, objectName: string): Promise<string> {
  const client = backend.client();
  try {
    const system = (await client.systems.list({ code: systemCode, size: 1 })).items[0];
    const dataset = (await client.datasets.list({ system_id: system?.id, object_name: objectName })).items[0];
    if (dataset === undefined) throw new Error(`no dataset ${objectName} in ${systemCode}`);
    return dataset.id;
  } finally {
    await client.close();
  }
}

/** Sets a dataset's own level, as the superuser (`PUT /datasets/{id}/compatibility`). */
async function setLevel(id: string, level: CompatibilityLevel): Promise<void> {
  const client = backend.client();
  try {
    const set = await client.compatibility.setDatasetCompatibility(id, level);
    expect(set).toMatchObject({ dataset_id: id, level, effective_level: level, source: 'dataset' });
  } finally {
    await client.close();
  }
}

/** A dataset's version history, oldest first. */
async function versions(id: string) {
  const client = backend.client();
  try {
    return (await client.datasets.schemaVersions(id)).sort((a, b) => a.version_num - b.version_num);
  } finally {
    await client.close();
  }
}

/** crawl → apply of the tables the crawl selects: their first versions registered. */
async function register(crawl: string[]): Promise<void> {
  const report = reportPath('first');
  expect((await run([...crawl, '--format', 'json', '-o', report])).code).toBe(ExitCode.OK);
  const applied = await run(['apply', report]);
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(ExitCode.OK);
}

describe('a SQLite table under its compatibility level', () => {
  const system = 'compat_sqlite';
  let file: string;
  let crawl: string[];

  beforeAll(async () => {
    file = join(tmp, 'compat.db');
    await backend.createSystem(system, 'sqlite3');
    crawl = ['crawl', '--system-code', system, '--connection-url', `sqlite:///${file}`];
  });

  /** A table of its own, registered at v1 and given `level`; returns the crawl of it alone and its id. */
  async function tableUnder(table: string, ddl: string, level: CompatibilityLevel) {
    await execSqlite(file, `CREATE TABLE ${table} (${ddl});\n`);
    const own = [...crawl, '--tables', table];
    await register(own);
    const id = await datasetId(system, `main.${table}`);
    await setLevel(id, level);
    return { own, id };
  }

  /** SQLite adds no NOT NULL column without a default: the table is made again with its new shape. */
  const remake = (table: string, ddl: string) =>
    execSqlite(file, `DROP TABLE ${table};\nCREATE TABLE ${table} (${ddl});\n`);

  it('BACKWARD refuses a NOT NULL column without a default: crawl --check 4, dry run, apply, forced apply', async () => {
    const { own, id } = await tableUnder('customers', 'id integer PRIMARY KEY, name text', 'BACKWARD');
    await remake('customers', 'id integer PRIMARY KEY, name text, email text NOT NULL');

    // crawl --check: 4, and the text report names the level, the rule and the column.
    const text = await run([...own, '--check']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(ExitCode.INCOMPATIBLE);
    expect(text.stdout).toContain('level     BACKWARD (dataset): REFUSED, 1 violation');
    expect(text.stdout).toMatch(/violation {2}v1 backward COLUMN_ADDED_REQUIRED "email": \S/);
    expect(text.stdout).toContain('compatibility levels: 0 accepted, 1 refused, 0 not checked');

    // Without --check the same verdict is reported, and the exit code stays 0.
    const report = reportPath('customers');
    const json = await run([...own, '--format', 'json', '-o', report]);
    expect(json.code).toBe(ExitCode.OK);
    const written = readJson<CrawlReport>(report);
    expect(written.compatibility_check).toEqual({
      status: 'checked',
      reason: null,
      accepted: 0,
      refused: 1,
      failed: 0,
    });
    expect(written.datasets).toHaveLength(1);
    expect(written.datasets[0]?.level_check).toMatchObject({
      level: 'BACKWARD',
      source: 'dataset',
      accepted: false,
      compared_versions: [1],
      error: null,
      violations: [
        {
          version_num: 1,
          direction: 'backward',
          rule: 'COLUMN_ADDED_REQUIRED',
          category: 'column_added',
          name: 'email',
          reason: expect.any(String),
        },
      ],
    });

    // apply --dry-run: the verdict beside the plan, exit 4, nothing written.
    const dry = await run(['apply', report, '--dry-run']);
    expect(dry.code).toBe(ExitCode.INCOMPATIBLE);
    expect(dry.stdout).toMatch(
      /would be REFUSED \(level\) main\.customers {2}— level BACKWARD \(dataset\): REFUSED/,
    );
    expect(dry.stdout).toContain('Dry run (nothing written): 0 created, 0 published');
    expect(dry.stdout).toContain('violation  v1 backward COLUMN_ADDED_REQUIRED "email"');
    expect(dry.stdout).toContain('1 would be refused by their compatibility level');
    expect((await versions(id)).map((v) => v.version_num)).toEqual([1]);

    // apply: refused by the registry, with the violations; nothing written.
    const refused = await run(['apply', report]);
    expect(refused.code).toBe(ExitCode.INCOMPATIBLE);
    expect(refused.stdout).toMatch(
      /FAILED\s+main\.customers {2}— DATASET_SCHEMA_INCOMPATIBLE; level BACKWARD \(dataset\): REFUSED, 1 violation/,
    );
    expect(refused.stdout).toContain('violation  v1 backward COLUMN_ADDED_REQUIRED "email"');
    expect(refused.stdout).toContain('1 refused by their compatibility level');
    expect((await versions(id)).map((v) => v.version_num)).toEqual([1]);

    // --force-reason as a user who is not a superuser: refused (403), said clearly; nothing written.
    const admin = backend.client();
    const user = {
      email: `compat-${randomBytes(4).toString('hex')}@example.com`,
      password: `pw-${randomBytes(8).toString('hex')}`,
    };
    try {
      await admin.users.create({ email: user.email, password: user.password, full_name: 'Crawler user' });
    } finally {
      await admin.close();
    }
    const reason = 'MIGRATION-7: email is filled by the backfill before readers upgrade';
    const notSuper = await run(['apply', report, '--force-reason', reason], {
      AIDE_METASTORE_USER: user.email,
      AIDE_METASTORE_PASSWORD: user.password,
    });
    expect(notSuper.code).toBe(ExitCode.FAILURE);
    expect(`${notSuper.stdout}${notSuper.stderr}`).toContain('--force-reason is for superusers only');
    expect((await versions(id)).map((v) => v.version_num)).toEqual([1]);

    // A dry run with --force-reason: the refusal is shown, but it would be published (exit 0).
    const forcedDry = await run(['apply', report, '--dry-run', '--force-reason', reason]);
    expect(forcedDry.code).toBe(ExitCode.OK);
    expect(forcedDry.stdout).toMatch(
      /would be published\s+main\.customers {2}— level BACKWARD \(dataset\): REFUSED/,
    );
    expect((await versions(id)).map((v) => v.version_num)).toEqual([1]);

    // --force-reason as the superuser: published, the reason and the overridden violation in the history.
    const forced = await run(['apply', report, '--force-reason', reason]);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(ExitCode.OK);
    expect(forced.stdout).toMatch(/published\s+main\.customers v2/);
    const history = await versions(id);
    expect(history.map((v) => v.version_num)).toEqual([1, 2]);
    expect(history.find((v) => v.version_num === 2)?.compatibility_override).toMatchObject({
      reason,
      level: 'BACKWARD',
      violations: [expect.objectContaining({ rule: 'COLUMN_ADDED_REQUIRED', name: 'email' })],
    });

    // A blank reason is a usage error, before anything is asked of the registry.
    expect((await run(['apply', report, '--force-reason', '  '])).code).toBe(ExitCode.USAGE);
  });

  it('BACKWARD accepts a nullable column: crawl --check 3 only, apply publishes', async () => {
    const { own, id } = await tableUnder('orders', 'id integer PRIMARY KEY, total real', 'BACKWARD');
    await execSqlite(file, 'ALTER TABLE orders ADD COLUMN note text;\n');
    const report = reportPath('orders');
    const checked = await run([...own, '--check', '--format', 'json', '-o', report]);
    expect(checked.code).toBe(ExitCode.DIFFERENCES);
    const written = readJson<CrawlReport>(report);
    expect(written.datasets[0]?.level_check).toMatchObject({
      level: 'BACKWARD',
      accepted: true,
      violations: [],
    });
    expect(written.compatibility_check).toMatchObject({ status: 'checked', accepted: 1, refused: 0 });
    const text = await run([...own, '--check']);
    expect(text.code).toBe(ExitCode.DIFFERENCES);
    expect(text.stdout).toContain('level     BACKWARD (dataset): accepted');

    const dry = await run(['apply', report, '--dry-run']);
    expect(dry.code).toBe(ExitCode.OK);
    expect(dry.stdout).toMatch(/would be published\s+main\.orders.*level BACKWARD \(dataset\): accepted/);
    const applied = await run(['apply', report]);
    expect(applied.code).toBe(ExitCode.OK);
    expect((await versions(id)).map((v) => v.version_num)).toEqual([1, 2]);
    expect((await run([...own, '--check'])).code).toBe(ExitCode.OK);
  });

  it('FORWARD refuses a removed column, BACKWARD accepts it', async () => {
    const { own, id } = await tableUnder('items', 'id integer PRIMARY KEY, sku text, legacy text', 'FORWARD');
    await execSqlite(file, 'ALTER TABLE items DROP COLUMN legacy;\n');
    const forward = await run([...own, '--check']);
    expect(forward.code).toBe(ExitCode.INCOMPATIBLE);
    expect(forward.stdout).toContain('level     FORWARD (dataset): REFUSED, 1 violation');
    expect(forward.stdout).toMatch(/violation {2}v1 forward COLUMN_REMOVED "legacy"/);

    await setLevel(id, 'BACKWARD');
    const backward = await run([...own, '--check']);
    expect(backward.code).toBe(ExitCode.DIFFERENCES);
    expect(backward.stdout).toContain('level     BACKWARD (dataset): accepted');
  });

  it('asks one bulk check for all the changed datasets, and none about new ones', async () => {
    await execSqlite(
      file,
      'CREATE TABLE b1 (id integer PRIMARY KEY);\nCREATE TABLE b2 (id integer PRIMARY KEY);\nCREATE TABLE b3 (id integer PRIMARY KEY);\n',
    );
    const batch = [...crawl, '--tables', 'b*'];
    await register(batch);
    await execSqlite(
      file,
      'ALTER TABLE b1 ADD COLUMN x text;\nALTER TABLE b2 ADD COLUMN x text;\nCREATE TABLE b4 (id integer PRIMARY KEY);\n',
    );
    const front = await registryFront(backend);
    try {
      const report = reportPath('batch');
      const result = await run([...batch, '--format', 'json', '-o', report], {
        AIDE_METASTORE_URL: front.url,
      });
      expect(result.code).toBe(ExitCode.OK);
      const checks = front.requests.filter((r) => r.path.startsWith('/api/v1/schema-versions/check'));
      expect(checks).toHaveLength(1);
      const asked = (JSON.parse(checks[0]?.body ?? '{}') as { items: { dataset_id: string }[] }).items;
      expect(asked.map((i) => i.dataset_id).sort()).toEqual(
        [await datasetId(system, 'main.b1'), await datasetId(system, 'main.b2')].sort(),
      );
      const written = readJson<CrawlReport>(report);
      expect(written.datasets.map((d) => [d.table, d.status, d.level_check?.accepted])).toEqual([
        ['b1', 'changed', true],
        ['b2', 'changed', true],
        ['b4', 'new', undefined],
      ]);
    } finally {
      await front.close();
    }
  });

  describe('against a registry without the check route', () => {
    let older: RegistryFront;

    beforeAll(async () => {
      // As a registry older than ADR 0048 answers a route it does not serve: a generic NOT_FOUND.
      older = await registryFront(backend, (seen, res) => {
        if (!seen.path.startsWith('/api/v1/schema-versions/check')) return false;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error_code: 'NOT_FOUND', detail: 'Route not found.', request_id: 'older' }));
        return true;
      });
    });

    afterAll(async () => {
      await older?.close();
    });

    it('reports "compatibility not checked" and goes on: crawl --check 3, apply --dry-run 0', async () => {
      const { own } = await tableUnder('notes', 'id integer PRIMARY KEY, body text', 'BACKWARD');
      await remake('notes', 'id integer PRIMARY KEY, body text, author text NOT NULL');
      const env = { AIDE_METASTORE_URL: older.url };
      const text = await run([...own, '--check'], env);
      expect(text.stderr).toBe('');
      expect(text.code).toBe(ExitCode.DIFFERENCES);
      expect(text.stdout).toContain('Compatibility not checked: the registry has no compatibility check');
      expect(text.stdout).not.toContain('level     ');

      const report = reportPath('notes');
      expect((await run([...own, '--format', 'json', '-o', report], env)).code).toBe(ExitCode.OK);
      const written = readJson<CrawlReport>(report);
      expect(written.compatibility_check).toMatchObject({ status: 'not_checked', refused: 0 });
      expect(written.datasets[0]?.level_check).toBeUndefined();

      const dry = await run(['apply', report, '--dry-run'], env);
      expect(dry.code).toBe(ExitCode.OK);
      expect(dry.stdout).toContain('Compatibility not checked');
      expect(older.requests.some((r) => r.path.startsWith('/api/v1/schema-versions/check'))).toBe(true);
    });
  });
});

describe('a PostgreSQL table under BACKWARD', () => {
  let db: TestPgDatabase;
  const system = 'compat_pg';

  beforeAll(async () => {
    db = await createPgDatabase('compat');
    await backend.createSystem(system, 'postgres14');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('refuses a narrowed type and a NOT NULL column: crawl --check 4 naming both, apply refused', async () => {
    await db.exec('CREATE TABLE public.accounts (id int PRIMARY KEY, name varchar(40))');
    const crawl = [
      'crawl',
      '--system-code',
      system,
      '--connection-url',
      db.url,
      '--tables',
      'public.accounts',
    ];
    await register(crawl);
    const id = await datasetId(system, 'public.accounts');
    await setLevel(id, 'BACKWARD');
    await db.exec('ALTER TABLE public.accounts ALTER name TYPE varchar(20), ADD COLUMN region text NOT NULL');

    const report = reportPath('accounts');
    const checked = await run([...crawl, '--check', '--format', 'json', '-o', report]);
    expect(checked.code).toBe(ExitCode.INCOMPATIBLE);
    const violations = readJson<CrawlReport>(report).datasets[0]?.level_check?.violations ?? [];
    expect(violations.map((v) => [v.version_num, v.direction, v.rule, v.name]).sort()).toEqual([
      [1, 'backward', 'COLUMN_ADDED_REQUIRED', 'region'],
      [1, 'backward', 'TYPE_NARROWED', 'name'],
    ]);

    const refused = await run(['apply', report]);
    expect(refused.code).toBe(ExitCode.INCOMPATIBLE);
    expect(refused.stdout).toContain('DATASET_SCHEMA_INCOMPATIBLE');
    expect(refused.stdout).toContain('violation  v1 backward TYPE_NARROWED "name"');
    expect((await versions(id)).map((v) => v.version_num)).toEqual([1]);
  });
});

describe('a MariaDB table under FULL', () => {
  let mysql: TestMysql;
  const system = 'compat_mysql';

  beforeAll(async () => {
    mysql = await connectMysql('compat');
    await backend.createSystem(system, 'mysql8');
  });

  afterAll(async () => {
    await mysql?.drop();
  });

  it('refuses a removed column (forward), accepts a nullable one', async () => {
    const schema = `${mysql.prefix}_shop`;
    await mysql.exec(
      `CREATE DATABASE ${schema}; CREATE TABLE ${schema}.parts (id int PRIMARY KEY, code varchar(10), old_code varchar(10))`,
    );
    const crawl = ['crawl', '--system-code', system, '--connection-url', mysql.url(), '--schemas', schema];
    await register(crawl);
    await setLevel(await datasetId(system, `${schema}.parts`), 'FULL');

    await mysql.exec(`ALTER TABLE ${schema}.parts ADD COLUMN note varchar(50) NULL`);
    expect((await run([...crawl, '--check'])).code).toBe(ExitCode.DIFFERENCES);

    await mysql.exec(`ALTER TABLE ${schema}.parts DROP COLUMN old_code`);
    const refused = await run([...crawl, '--check']);
    expect(refused.code).toBe(ExitCode.INCOMPATIBLE);
    expect(refused.stdout).toContain('level     FULL (dataset): REFUSED, 1 violation');
    expect(refused.stdout).toMatch(/violation {2}v1 forward COLUMN_REMOVED "old_code"/);
  });
});
