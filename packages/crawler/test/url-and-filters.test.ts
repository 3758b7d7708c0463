import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { describeFailure, fallbackOf } from '../src/connection/catalog.js';
import { pgClientConfig, positional } from '../src/connection/postgres-connection.js';
import { parseConnectionUrl, redact } from '../src/connection/url.js';
import { ExitCode } from '../src/errors.js';
import { globToLike, globToSqliteGlob, parseTablePattern, splitList } from '../src/inspect/filters.js';

describe('sslmode in PostgreSQL URLs: libpq semantics as pg options', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aide-crawler-tls-'));
  const ca = join(dir, 'root.crt');
  writeFileSync(ca, 'ROOT CERT');
  writeFileSync(join(dir, 'client.crt'), 'CLIENT CERT');
  writeFileSync(join(dir, 'client.key'), 'CLIENT KEY');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The options the crawler gives pg for a URL. */
  const pgConnection = (url: string) =>
    pgClientConfig(parseConnectionUrl(url)) as {
      connectionString: string;
      ssl?: false | { rejectUnauthorized?: boolean; checkServerIdentity?: unknown; ca?: string };
    };
  const base = 'postgresql://app:pw@db.example.com:5432/sales';

  it('passes no TLS parameter to pg, and no ssl option when the URL names none', () => {
    expect(pgConnection(`${base}?application_name=x`)).toMatchObject({
      connectionString: `${base}?application_name=x`,
    });
    expect(pgConnection(base).ssl).toBeUndefined();
    const stripped = pgConnection(`${base}?sslmode=require&options=-c%20x%3D1&sslrootcert=${ca}&ssl=true`);
    expect(stripped.connectionString).toBe(`${base}?options=-c%20x%3D1`);
  });

  it('disable: no TLS', () => {
    expect(pgConnection(`${base}?sslmode=disable`)).toMatchObject({ connectionString: base, ssl: false });
    expect(parseConnectionUrl(`${base}?sslmode=disable`).postgres?.fallback).toBeUndefined();
  });

  it('allow: without TLS first, then TLS without verification when the server requires it', () => {
    const target = parseConnectionUrl(`${base}?sslmode=allow`);
    expect(pgConnection(`${base}?sslmode=allow`).ssl).toBe(false);
    expect(target.postgres?.fallback).toEqual({ ssl: { rejectUnauthorized: false }, when: 'tls_required' });
    const hba = Object.assign(
      new Error('no pg_hba.conf entry for host "h", user "u", database "d", no encryption'),
      {
        code: '28000',
      },
    );
    expect(fallbackOf(target, hba)?.postgres).toEqual({
      connectionString: base,
      sslmode: 'allow',
      ssl: { rejectUnauthorized: false },
    });
    expect(fallbackOf(target, new Error('connect ECONNREFUSED'))).toBeNull();
  });

  it('prefer: TLS without verification first, then without TLS when the server refuses TLS', () => {
    const target = parseConnectionUrl(`${base}?sslmode=prefer`);
    expect(pgConnection(`${base}?sslmode=prefer`).ssl).toEqual({ rejectUnauthorized: false });
    const refused = new Error('The server does not support SSL connections');
    expect(fallbackOf(target, refused)?.postgres).toEqual({
      connectionString: base,
      sslmode: 'prefer',
      ssl: false,
    });
    expect(fallbackOf(target, new Error('self-signed certificate'))).toBeNull();
    expect(fallbackOf(parseConnectionUrl(`${base}?sslmode=require`), refused)).toBeNull();
  });

  it('require: TLS without certificate verification; with a root certificate, as verify-ca', () => {
    expect(pgConnection(`${base}?sslmode=require`).ssl).toEqual({ rejectUnauthorized: false });
    const withCa = pgConnection(`${base}?sslmode=require&sslrootcert=${ca}`).ssl;
    expect(withCa).toMatchObject({ ca: 'ROOT CERT', rejectUnauthorized: true });
    expect(withCa && typeof withCa.checkServerIdentity).toBe('function');
  });

  it('verify-ca: the chain, not the host name; verify-full: both', () => {
    const chain = pgConnection(`${base}?sslmode=verify-ca&sslrootcert=${ca}`).ssl;
    expect(chain).toMatchObject({ ca: 'ROOT CERT', rejectUnauthorized: true });
    expect(chain && (chain.checkServerIdentity as () => unknown)()).toBeUndefined();
    const full = pgConnection(`${base}?sslmode=verify-full&sslrootcert=${ca}`).ssl;
    expect(full).toEqual({ ca: 'ROOT CERT', rejectUnauthorized: true });
  });

  it('reads client certificate and key files; a missing file or an unknown mode is a usage error', () => {
    const url = `${base}?sslmode=verify-full&sslcert=${join(dir, 'client.crt')}&sslkey=${join(dir, 'client.key')}`;
    expect(pgConnection(url).ssl).toEqual({
      cert: 'CLIENT CERT',
      key: 'CLIENT KEY',
      rejectUnauthorized: true,
    });
    expect(() => parseConnectionUrl(`${base}?sslmode=require&sslrootcert=${join(dir, 'none.crt')}`)).toThrow(
      expect.objectContaining({ exitCode: ExitCode.USAGE, message: expect.stringContaining('sslrootcert') }),
    );
    expect(() => parseConnectionUrl(`${base}?sslmode=verify_full`)).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.USAGE,
        message: expect.stringContaining("invalid sslmode 'verify_full'"),
      }),
    );
  });
});

describe('PostgreSQL bindings', () => {
  it("number the catalog's ? placeholders as $n, leaving those in literals and comments", () => {
    expect(positional("SELECT ?, '?', 'it''s ?' -- why?\n  FROM t WHERE a LIKE ? AND b = ?::json")).toBe(
      "SELECT $1, '?', 'it''s ?' -- why?\n  FROM t WHERE a LIKE $2 AND b = $3::json",
    );
  });
});

describe('connection URLs', () => {
  it.each([
    ['postgres://u:p@h:5433/db', 'postgresql', 'postgresql://u:p@h:5433/db'],
    ['postgresql://u@h/db?sslmode=require', 'postgresql', 'postgresql://u@h/db'],
    ['postgresql+psycopg://u:p@h/db', 'postgresql', 'postgresql://u:p@h/db'],
    ['postgresql+psycopg2://u:p@h/db', 'postgresql', 'postgresql://u:p@h/db'],
  ])('%s is PostgreSQL', (url, dialect, connectionString) => {
    expect(parseConnectionUrl(url)).toMatchObject({ dialect, postgres: { connectionString } });
  });

  it.each(['mysql://', 'mariadb://', 'mysql+pymysql://', 'mariadb+mariadbconnector://'])(
    '%s… is MySQL',
    (scheme) => {
      expect(parseConnectionUrl(`${scheme}app:p%40ss@db.local:3307/sales`)).toMatchObject({
        dialect: 'mysql',
        redacted: `${scheme}app:***@db.local:3307/sales`,
        mysql: { host: 'db.local', port: 3307, user: 'app', password: 'p@ss', database: 'sales' },
      });
      expect(parseConnectionUrl(`${scheme}root@localhost`).mysql).toMatchObject({
        port: 3306,
        database: undefined,
      });
    },
  );

  it('reads SQLAlchemy-style SQLite paths', () => {
    expect(parseConnectionUrl('sqlite:///data/app.db').sqlite).toEqual({ filename: 'data/app.db' });
    expect(parseConnectionUrl('sqlite:////var/lib/app.db').sqlite).toEqual({ filename: '/var/lib/app.db' });
    expect(parseConnectionUrl('sqlite:///:memory:').sqlite).toEqual({ filename: ':memory:' });
  });

  it('rejects unknown and unsupported schemes as usage errors, without the password', () => {
    for (const url of ['mssql://sa:hunter2@h/db', 'oracle://scott:hunter2@h/db', 'nonsense']) {
      expect(() => parseConnectionUrl(url)).toThrow(expect.objectContaining({ exitCode: ExitCode.USAGE }));
      try {
        parseConnectionUrl(url);
      } catch (error) {
        expect((error as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('redacts passwords in the authority and in query parameters', () => {
    expect(redact('postgresql://u:s3cr@t@h/db')).toBe('postgresql://u:***@h/db');
    expect(redact('postgresql://h/db?user=u&password=s3cret&sslmode=require')).toBe(
      'postgresql://h/db?user=u&password=***&sslmode=require',
    );
    expect(redact('sqlite:///app.db')).toBe('sqlite:///app.db');
  });

  it('scrubs secrets from driver messages', () => {
    const target = parseConnectionUrl('postgresql://u:hunter2@h/db');
    const message = describeFailure(target, new Error('auth failed for password hunter2'), false);
    expect(message).toBe(
      'cannot connect to PostgreSQL at postgresql://u:***@h/db: auth failed for password ***',
    );
  });
});

describe('filters', () => {
  it('split comma lists, keeping quoted commas', () => {
    expect(splitList(' a, b ,,"c,d"')).toEqual(['a', 'b', '"c,d"']);
    expect(splitList(undefined)).toEqual([]);
  });

  it('parse table patterns with optional schema and quotes', () => {
    expect(parseTablePattern('orders')).toEqual({ schema: null, table: 'orders' });
    expect(parseTablePattern('sales.orders')).toEqual({ schema: 'sales', table: 'orders' });
    expect(parseTablePattern('"My Schema"."a.b"')).toEqual({ schema: 'My Schema', table: 'a.b' });
    expect(parseTablePattern('"a""b"')).toEqual({ schema: null, table: 'a"b' });
    expect(() => parseTablePattern('"open')).toThrow('unbalanced double quote');
  });

  it('translate globs for LIKE and GLOB, escaping the other wildcards', () => {
    expect(globToLike('ord*_2024?')).toBe('ord%!_2024_');
    expect(globToLike('100%!')).toBe('100!%!!');
    expect(globToSqliteGlob('a[b]*')).toBe('a[[]b]*');
  });
});
