// Connection URLs (DESIGN §5): postgres://, postgresql:// (and SQLAlchemy's postgresql+psycopg://,
// +psycopg2, … accepted for users of the original), mysql://, mariadb:// (and mysql+pymysql://, …),
// sqlite:///relative/path, sqlite:////absolute/path.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { CrawlerError, ExitCode } from '../errors.js';
import type { Dialect } from '../model.js';
import { redact } from '../sources/redact.js';

/** A parsed connection URL. Never print `url` itself: use `redacted`. */
export interface ConnectionTarget {
  dialect: Dialect;
  /** The URL with its password (and any password query parameter) replaced by `***`. */
  redacted: string;
  /** Secrets that must never appear in output, to scrub from driver messages. */
  secrets: string[];
  postgres?: PostgresTarget;
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

/** libpq's `sslmode` values. */
export type SslMode = 'disable' | 'allow' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';
const SSL_MODES: readonly SslMode[] = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** The TLS parameters the crawler reads itself: they never reach `pg`, which reads them differently. */
const SSL_PARAMS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'ssl', 'uselibpqcompat'];

/** What `pg` is given: the URL without TLS parameters, and an explicit `ssl` option. */
export interface PostgresTarget {
  connectionString: string;
  /** `pg`'s `ssl` option; undefined when the URL names no `sslmode` (pg's default: no TLS). */
  ssl?: false | ConnectionOptions;
  /** The `sslmode` of the URL, when it gives one. */
  sslmode?: SslMode;
  /**
   * libpq's second attempt: `prefer` retries without TLS when the server refuses TLS; `allow`
   * retries with TLS when the server refuses a connection without it.
   */
  fallback?: { ssl: false | ConnectionOptions; when: 'tls_refused' | 'tls_required' };
}

const SCHEME = /^([a-z][a-z0-9]*)(?:\+([a-z0-9_]+))?:\/\//i;

/** The database URL schemes (the part before a `+driver`) and the dialect each names. */
const DIALECT_OF_SCHEME: Readonly<Record<string, Dialect>> = {
  postgres: 'postgresql',
  postgresql: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mysql',
  sqlite: 'sqlite',
};

/**
 * Parses a database URL; with `expected`, only one of that dialect (a database driver's parse). Which
 * source reads a URL is the source registry's decision (sources/registry.ts).
 */
export function parseConnectionUrl(raw: string, expected?: Dialect): ConnectionTarget {
  const url = raw.trim();
  const scheme = SCHEME.exec(url);
  if (scheme === null) {
    throw usage(
      `invalid connection URL '${redact(url)}': expected <dialect>://…, e.g. postgresql://user@host/db`,
    );
  }
  const dialect = DIALECT_OF_SCHEME[scheme[1].toLowerCase()];
  if (dialect === undefined || (expected !== undefined && dialect !== expected)) {
    throw usage(`'${scheme[0]}' is not a ${expected ?? 'database'} URL scheme (${redact(url)})`);
  }
  const length = scheme[0].length;
  if (dialect === 'postgresql') return postgresTarget(url, length);
  return dialect === 'mysql' ? mysqlTarget(url, length) : sqliteTarget(url, length);
}

export { redact };

function postgresTarget(url: string, schemeLength: number): ConnectionTarget {
  const parsed = parseUrl(url, schemeLength);
  const connectionString = `postgresql://${url.slice(schemeLength)}`;
  const params = parsed.searchParams;
  const given = SSL_PARAMS.filter((name) => name !== 'ssl' && name !== 'uselibpqcompat' && params.has(name));
  return {
    dialect: 'postgresql',
    redacted: redact(url),
    secrets: secretsOf(parsed),
    // pg parses the rest (host=/socket/dir, options, …) itself; TLS follows libpq's sslmode here.
    postgres:
      given.length === 0
        ? { connectionString }
        : { connectionString: withoutParams(connectionString, SSL_PARAMS), ...tlsOf(params, url) },
  };
}

/**
 * libpq's sslmode semantics as `pg` options (https://www.postgresql.org/docs/current/libpq-ssl.html):
 * `disable` no TLS; `allow` without TLS first, then with; `prefer` (libpq's default, also when only
 * certificate files are given) with TLS first, then without; `require` TLS without verifying the
 * certificate — unless a root certificate is given, then as `verify-ca`; `verify-ca` the chain but
 * not the host name; `verify-full` chain and host name. sslrootcert/sslcert/sslkey files are read
 * here (`sslrootcert=system`: the system's CAs).
 */
function tlsOf(params: URLSearchParams, url: string): Omit<PostgresTarget, 'connectionString'> {
  const raw = params.get('sslmode') ?? 'prefer';
  const sslmode = SSL_MODES.find((mode) => mode === raw);
  if (sslmode === undefined) {
    throw usage(`invalid sslmode '${raw}' in '${redact(url)}': expected one of ${SSL_MODES.join(', ')}`);
  }
  const rootcert = params.get('sslrootcert');
  const files: ConnectionOptions = {};
  if (rootcert !== null && rootcert !== 'system') files.ca = readTlsFile('sslrootcert', rootcert);
  const cert = params.get('sslcert');
  if (cert !== null) files.cert = readTlsFile('sslcert', cert);
  const key = params.get('sslkey');
  if (key !== null) files.key = readTlsFile('sslkey', key);
  const unverified: ConnectionOptions = { ...files, rejectUnauthorized: false };
  const chainOnly: ConnectionOptions = {
    ...files,
    rejectUnauthorized: true,
    checkServerIdentity: () => undefined,
  };
  switch (sslmode) {
    case 'disable':
      return { sslmode, ssl: false };
    case 'allow':
      return { sslmode, ssl: false, fallback: { ssl: unverified, when: 'tls_required' } };
    case 'prefer':
      return { sslmode, ssl: unverified, fallback: { ssl: false, when: 'tls_refused' } };
    case 'require':
      return { sslmode, ssl: rootcert === null ? unverified : chainOnly };
    case 'verify-ca':
      return { sslmode, ssl: chainOnly };
    case 'verify-full':
      return { sslmode, ssl: { ...files, rejectUnauthorized: true } };
  }
}

function readTlsFile(param: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw usage(`cannot read the ${param} file '${path}': ${reason}`);
  }
}

/** The URL without the named query parameters, everything else kept byte for byte. */
function withoutParams(url: string, names: readonly string[]): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const hash = url.indexOf('#', query);
  const end = hash === -1 ? url.length : hash;
  const kept = url
    .slice(query + 1, end)
    .split('&')
    .filter((pair) => pair !== '' && !names.includes(safeDecode(pair.split('=')[0] ?? '')));
  return `${url.slice(0, query)}${kept.length > 0 ? `?${kept.join('&')}` : ''}${url.slice(end)}`;
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
