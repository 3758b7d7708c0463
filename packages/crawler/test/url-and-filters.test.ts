import { describe, expect, it } from '@jest/globals';
import { describeFailure } from '../src/connection/catalog.js';
import { parseConnectionUrl, redact } from '../src/connection/url.js';
import { ExitCode } from '../src/errors.js';
import { globToLike, globToSqliteGlob, parseTablePattern, splitList } from '../src/inspect/filters.js';

describe('connection URLs', () => {
  it.each([
    ['postgres://u:p@h:5433/db', 'postgresql', 'postgresql://u:p@h:5433/db'],
    ['postgresql://u@h/db?sslmode=require', 'postgresql', 'postgresql://u@h/db?sslmode=require'],
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
