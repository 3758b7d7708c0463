// Connection URLs (DESIGN §5): postgres://, postgresql:// (and SQLAlchemy's postgresql+psycopg://,
// +psycopg2, … accepted for users of the original), mysql://, mariadb:// (and mysql+pymysql://, …),
// sqlite:///relative/path, sqlite:////absolute/path, mssql:// (recognised, not supported yet).
import { CrawlerError, ExitCode } from '../errors.js';
import type { Dialect } from '../model.js';

/** A parsed connection URL. Never print `url` itself: use `redacted`. */
export interface ConnectionTarget {
  dialect: Dialect;
  /** The URL with its password (and any password query parameter) replaced by `***`. */
  redacted: string;
  /** Secrets that must never appear in output, to scrub from driver messages. */
  secrets: string[];
  postgres?: { connectionString: string };
  mysql?: {
    host: string;
    port: number;
    user: string;
    password: string | undefined;
    database: string | undefined;
    socketPath: string | undefined;
  };
  sqlite?: { filename: string };
}

const SCHEME = /^([a-z][a-z0-9]*)(?:\+([a-z0-9_]+))?:\/\//i;

export function parseConnectionUrl(raw: string): ConnectionTarget {
  const url = raw.trim();
  const scheme = SCHEME.exec(url);
  if (scheme === null) {
    throw usage(
      `invalid connection URL '${redact(url)}': expected <dialect>://…, e.g. postgresql://user@host/db`,
    );
  }
  const dialect = scheme[1].toLowerCase();
  switch (dialect) {
    case 'postgres':
    case 'postgresql':
      return postgresTarget(url, scheme[0].length);
    case 'mysql':
    case 'mariadb':
      return mysqlTarget(url, scheme[0].length);
    case 'sqlite':
      return sqliteTarget(url, scheme[0].length);
    case 'mssql':
    case 'sqlserver':
      throw usage(
        `SQL Server is not supported yet (${redact(url)}); supported: PostgreSQL, MySQL/MariaDB, SQLite`,
      );
    default:
      throw usage(
        `unsupported connection URL scheme '${scheme[0]}' (${redact(url)}); expected postgresql://, mysql://, mariadb:// or sqlite:///path`,
      );
  }
}

/** Replaces the password of a URL (`user:secret@`) and `password=` query parameters with `***`. */
export function redact(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+]*:\/\/[^/@:?#]*):.*@(?=[^@]*$)/i, '$1:***@')
    .replace(/([?&](?:password|pass|pwd)=)[^&#]*/gi, '$1***');
}

function postgresTarget(url: string, schemeLength: number): ConnectionTarget {
  const parsed = parseUrl(url, schemeLength);
  return {
    dialect: 'postgresql',
    redacted: redact(url),
    secrets: secretsOf(parsed),
    // pg parses the rest (sslmode, host=/socket/dir, options, …) itself.
    postgres: { connectionString: `postgresql://${url.slice(schemeLength)}` },
  };
}

function mysqlTarget(url: string, schemeLength: number): ConnectionTarget {
  const parsed = parseUrl(url, schemeLength);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  const socket = parsed.searchParams.get('unix_socket') ?? parsed.searchParams.get('socketPath');
  return {
    dialect: 'mysql',
    redacted: redact(url),
    secrets: secretsOf(parsed),
    mysql: {
      host: parsed.hostname === '' ? 'localhost' : parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: parsed.port === '' ? 3306 : Number(parsed.port),
      user: decodeURIComponent(parsed.username) || 'root',
      password: parsed.password === '' ? undefined : decodeURIComponent(parsed.password),
      database: database === '' ? undefined : database,
      socketPath: socket ?? undefined,
    },
  };
}

function sqliteTarget(url: string, schemeLength: number): ConnectionTarget {
  // SQLAlchemy's form: sqlite:///relative/path.db, sqlite:////absolute/path.db (no host part).
  const rest = url.slice(schemeLength).replace(/[?#].*$/, '');
  if (!rest.startsWith('/') || rest.length < 2) {
    throw usage(
      `invalid SQLite URL '${url}': expected sqlite:///relative/path.db or sqlite:////absolute/path.db`,
    );
  }
  return { dialect: 'sqlite', redacted: url, secrets: [], sqlite: { filename: rest.slice(1) } };
}

function parseUrl(url: string, schemeLength: number): URL {
  try {
    // WHATWG URL parses authority and path the same way for any scheme written as `x://`.
    return new URL(`http://${url.slice(schemeLength)}`);
  } catch {
    throw usage(`invalid connection URL '${redact(url)}'`);
  }
}

function secretsOf(parsed: URL): string[] {
  const secrets = [
    parsed.password,
    ...['password', 'pass', 'pwd'].map((k) => parsed.searchParams.get(k) ?? ''),
  ]
    .filter((s) => s !== '')
    .flatMap((s) => [s, safeDecode(s)]);
  return [...new Set(secrets)];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function usage(message: string): CrawlerError {
  return new CrawlerError(message, { exitCode: ExitCode.USAGE });
}
