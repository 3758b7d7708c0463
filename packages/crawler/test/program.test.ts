// The command line: help, usage errors (exit 2), runtime failures (exit 1, one line, no stack, no
// password), and `inspect` end to end through the built executable.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ExitCode } from '../src/errors.js';
import { createProgram, main } from '../src/program.js';
import { MYSQL_URL } from './helpers/mysql.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const PASSWORD = 'Sup3r-s3cret!pw';

/** Runs `main` in-process with captured output. */
async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env,
  });
  return { code, stdout, stderr };
}

/** The test MariaDB's URL with another user (and this file's password) or database. */
function mysqlUrl(user: string, database: string): string {
  const url = new URL(MYSQL_URL);
  url.username = user;
  if (user !== 'root') url.password = PASSWORD;
  url.pathname = `/${database}`;
  return url.toString();
}

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const runBin = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', ...env },
  });

let db: TestPgDatabase;
let tmp: string;

beforeAll(async () => {
  db = await createPgDatabase('cli');
  await db.exec(`CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL);
    COMMENT ON TABLE customers IS 'buyers'`);
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-cli-'));
});

afterAll(async () => {
  await db?.drop();
  rmSync(tmp, { recursive: true, force: true });
}, 180_000);

describe('aide-crawler', () => {
  it('prints the package version for --version and exits 0', async () => {
    const { code, stdout } = await run(['--version']);
    expect(stdout).toBe(`${pkg.version}\n`);
    expect(code).toBe(ExitCode.OK);
  });

  it('documents inspect, every flag and the exit codes in --help', async () => {
    const top = await run(['--help']);
    expect(top.code).toBe(ExitCode.OK);
    expect(top.stdout).toContain('inspect');
    const help = await run(['inspect', '--help']);
    expect(help.code).toBe(ExitCode.OK);
    for (const flag of [
      '--connection-url',
      'AIDE_CRAWLER_CONNECTION_URL',
      '--schemas',
      '--exclude-schemas',
      '--tables',
      '--exclude-tables',
      '--include-partitions',
      '--format',
      '--output',
      'Exit codes',
      'sqlite:///',
    ]) {
      expect(help.stdout).toContain(flag);
    }
  });

  it('documents crawl and apply, their flags, env vars and exit codes in --help', async () => {
    const top = await run(['--help']);
    expect(top.stdout).toMatch(/crawl \[options\]/);
    expect(top.stdout).toMatch(/apply \[options\] <report.json>/);
    const crawl = await run(['crawl', '--help']);
    expect(crawl.code).toBe(ExitCode.OK);
    for (const text of [
      '--system-code',
      '--connection-url',
      '--schemas',
      '--tables',
      '--format',
      '--output',
      '--check',
      '--metastore-url',
      '--metastore-user',
      '--metastore-password',
      'AIDE_METASTORE_URL',
      'AIDE_METASTORE_PASSWORD',
      'AIDE_METASTORE_TOKEN',
      '3 differences found with --check',
      'docs/crawler.md',
    ]) {
      expect(crawl.stdout).toContain(text);
    }
    const apply = await run(['apply', '--help']);
    expect(apply.code).toBe(ExitCode.OK);
    for (const text of ['<report.json>', '--only', '--dry-run', '--metastore-url', 'refused', 'Exit codes']) {
      expect(apply.stdout).toContain(text);
    }
  });

  it('describes every flag of every command, and gives each command env vars, exit codes and examples', async () => {
    const program = createProgram({ stdout: () => undefined, stderr: () => undefined, env: {} });
    for (const command of program.commands) {
      if (command.name() === 'help') continue;
      for (const option of command.options) {
        expect([command.name(), option.flags, option.description.length > 10]).toEqual([
          command.name(),
          option.flags,
          true,
        ]);
      }
      const help = await run([command.name(), '--help']);
      for (const text of ['Exit codes', '130/143', 'Examples:', 'AIDE_CRAWLER_DEBUG']) {
        expect([command.name(), help.stdout.includes(text)]).toEqual([command.name(), true]);
      }
      // Every example names this command.
      const examples = help.stdout.slice(help.stdout.indexOf('Examples:')).split('\n').slice(1);
      expect(
        examples.filter((l) => l.trim() !== '').every((l) => l.includes(`aide-crawler ${command.name()}`)),
      ).toBe(true);
    }
    const top = await run(['--help']);
    for (const text of [
      'AIDE_CRAWLER_CONNECTION_URL',
      'AIDE_METASTORE_URL',
      'AIDE_METASTORE_USER',
      'AIDE_METASTORE_PASSWORD',
      'AIDE_METASTORE_TOKEN',
      'AIDE_CRAWLER_DEBUG',
      'aide-crawler crawl --system-code',
      'aide-crawler apply',
    ]) {
      expect(top.stdout).toContain(text);
    }
  });

  it.each([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['--no-such-flag'], "unknown option '--no-such-flag'"],
    [['inspect', '--format', 'xml'], "argument 'xml' is invalid"],
    [['inspect'], '--connection-url or AIDE_CRAWLER_CONNECTION_URL is required'],
    [
      ['inspect', '--connection-url', 'oracle://scott:tiger@db/orcl'],
      "unsupported connection URL scheme 'oracle://'",
    ],
    [['inspect', '--connection-url', `mssql://sa:${PASSWORD}@db/master`], 'SQL Server is not supported yet'],
    [['inspect', '--connection-url', 'not a url'], 'invalid connection URL'],
    [['inspect', '--connection-url', 'sqlite://relative.db'], 'invalid SQLite URL'],
    [['inspect', '--connection-url', 'sqlite:///x.db', '--tables', '"unbalanced'], 'unbalanced double quote'],
    [['crawl', '--connection-url', 'sqlite:///x.db'], "required option '--system-code <code>' not specified"],
    [['crawl', '--system-code', 's'], '--connection-url or AIDE_CRAWLER_CONNECTION_URL is required'],
    [
      ['crawl', '--system-code', 's', '--connection-url', 'sqlite:///x.db'],
      '--metastore-user and --metastore-password',
    ],
    [['apply'], "missing required argument 'report.json'"],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(stderr).toContain(message);
    expect(stderr).not.toContain(PASSWORD);
    expect(code).toBe(ExitCode.USAGE);
  });

  it('inspects through AIDE_CRAWLER_CONNECTION_URL, never printing the password', async () => {
    const { code, stdout, stderr } = await run(['inspect'], {
      AIDE_CRAWLER_CONNECTION_URL: db.as('postgres', PASSWORD),
    });
    expect(stderr).toBe('');
    expect(code).toBe(ExitCode.OK);
    expect(stdout).toContain(`database ${db.name}`);
    expect(stdout).toMatch(/public\.customers {2}table, 2 columns -- buyers/);
    expect(stdout).toMatch(/ {2}id {4}integer → integer {2}NOT NULL/);
    expect(stdout).toContain('primary key customers_pkey (id)');
    expect(stdout).not.toContain(PASSWORD);
  });

  it('takes the registry settings as every AIDE command line does: an API key is a credential', async () => {
    const missing = await run(['crawl', '--system-code', 's', '--connection-url', 'sqlite:///x.db']);
    expect(missing.stderr).toContain('AIDE_METASTORE_API_KEY');
    expect(missing.code).toBe(ExitCode.USAGE);
    // Past the credentials check: the crawl goes to the registry, where nothing listens.
    const keyed = await run(['crawl', '--system-code', 's', '--connection-url', db.url], {
      AIDE_METASTORE_URL: 'http://127.0.0.1:1',
      AIDE_METASTORE_API_KEY: 'aide_key_not_checked',
    });
    expect(keyed.stderr).toContain('the registry is unreachable');
    expect(keyed.code).toBe(ExitCode.FAILURE);
  });

  it('writes JSON to a file with -o and says so on stderr', async () => {
    const file = join(tmp, 'inspection.json');
    const { code, stdout, stderr } = await run([
      'inspect',
      '--connection-url',
      db.as('postgres', PASSWORD),
      '--format',
      'json',
      '-o',
      file,
    ]);
    expect(code).toBe(ExitCode.OK);
    expect(stdout).toBe('');
    expect(stderr).toBe(`Inspection written to ${file}\n`);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(PASSWORD);
    const json = JSON.parse(text);
    expect(json).toMatchObject({
      format: 'aide-crawler.inspection',
      format_version: 1,
      dialect: 'postgresql',
    });
    expect(json.tables.map((t: { name: string }) => t.name)).toEqual(['customers']);
    // Compact by default, indented with --pretty: the same document (ADR 0060).
    expect(text).toBe(`${JSON.stringify(json)}\n`);
    const pretty = join(tmp, 'inspection-pretty.json');
    const indented = await run([
      'inspect',
      '--connection-url',
      db.url,
      '--format',
      'json',
      '--pretty',
      '-o',
      pretty,
    ]);
    expect(indented.code).toBe(ExitCode.OK);
    expect(readFileSync(pretty, 'utf8')).toBe(`${JSON.stringify(json, null, 2)}\n`);
  });

  it('fails with exit 1 and one line when the output file cannot be written', async () => {
    const { code, stderr } = await run([
      'inspect',
      '--connection-url',
      db.url,
      '-o',
      join(tmp, 'no', 'such', 'dir.txt'),
    ]);
    expect(code).toBe(ExitCode.FAILURE);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('cannot write');
  });
});

describe('aide-crawler executable (dist/bin.js)', () => {
  const port = 1; // nothing listens on port 1
  it.each([
    [
      'an unreachable server',
      `postgresql+psycopg://postgres:${PASSWORD}@127.0.0.1:${port}/x`,
      'connection refused',
    ],
    [
      'a missing database',
      () => db.as('postgres', PASSWORD).replace(db.name, `${db.name}_missing`),
      'does not exist',
    ],
    ['an unknown role', () => db.as('no_such_role_x', PASSWORD), 'role "no_such_role_x" does not exist'],
    [
      'a missing SQLite file',
      'sqlite:////nonexistent/dir/app.db',
      'SQLite database file not found: /nonexistent/dir/app.db',
    ],
    [
      'an unreachable MySQL server',
      `mysql+pymysql://root:${PASSWORD}@127.0.0.1:${port}/x`,
      'connection refused',
    ],
    [
      'bad MySQL credentials',
      () => mysqlUrl('no_such_user_x', 'test'),
      "Access denied for user 'no_such_user_x'",
    ],
    [
      'a missing MySQL database',
      () => mysqlUrl('root', 'no_such_database_x'),
      "Unknown database 'no_such_database_x'",
    ],
  ])('exits 1 on %s with one line on stderr, no stack, no password', (_label, url, message) => {
    const result = runBin(['inspect', '--connection-url', typeof url === 'function' ? url() : url]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain(PASSWORD);
    expect(result.status).toBe(ExitCode.FAILURE);
  });

  it.each(['disable', 'prefer', 'allow'])(
    'inspects with sslmode=%s on a server without TLS: no warning on stderr',
    (sslmode) => {
      const result = runBin([
        'inspect',
        '--connection-url',
        `${db.as('postgres', PASSWORD)}?sslmode=${sslmode}`,
      ]);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/public\.customers {2}table, 2 columns/);
      expect(result.status).toBe(ExitCode.OK);
    },
  );

  it.each([
    [
      'an unreachable host',
      `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/x?sslmode=require`,
      'connection refused',
    ],
    ['a server without TLS', () => `${db.as('postgres', PASSWORD)}?sslmode=require`, 'does not support SSL'],
  ])('exits 1 with sslmode=require on %s, one line on stderr', (_label, url, message) => {
    const result = runBin(['inspect', '--connection-url', typeof url === 'function' ? url() : url]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('WARNING');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.status).toBe(ExitCode.FAILURE);
  });

  it('exits 2 on a usage error, with the message on stderr', () => {
    const result = runBin(['frobnicate']);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(result.status).toBe(ExitCode.USAGE);
  });

  it('prints a large JSON document completely into a pipe', () => {
    const result = runBin(['inspect', '--format', 'json'], { AIDE_CRAWLER_CONNECTION_URL: db.url });
    expect(result.status).toBe(ExitCode.OK);
    expect(JSON.parse(result.stdout).summary).toMatchObject({ columns: 2, primary_keys: 1 });
  });
});
