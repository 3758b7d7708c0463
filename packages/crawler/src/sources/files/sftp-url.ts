// sftp://user[:password]@host[:port]/path[?identity=/key&known_hosts=/file&strict_host_key=no]
// (issue 24 §2, SOURCES-BRIEF §B). As curl reads it: the path is absolute on the server, `/~/…` is
// relative to the login folder. Credentials, first found wins: a password (the URL's, else
// AIDE_CRAWLER_SFTP_PASSWORD) and a private key (`?identity=`, else AIDE_CRAWLER_SFTP_KEY, with
// AIDE_CRAWLER_SFTP_PASSPHRASE) are both offered when given; with neither, the SSH agent of
// SSH_AUTH_SOCK. The host key is checked against known_hosts unless `?strict_host_key=no`.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CrawlerError, ExitCode } from '../../errors.js';
import type { SourceTarget } from '../source-driver.js';

export interface SftpTarget extends SourceTarget {
  source: 'sftp';
  host: string;
  port: number;
  username: string;
  /** The folder (or file) to read, as given: absolute, or relative to the login folder (`~/in` → `in`). */
  path: string;
  /** `sftp://user@host:port/path`, no secret and no query: the root as shown to people. */
  display: string;
  password: string | undefined;
  /** A private key file, or the key itself when AIDE_CRAWLER_SFTP_KEY holds a PEM/OpenSSH key. */
  privateKey: { file: string } | { text: string } | undefined;
  passphrase: string | undefined;
  /** The SSH agent's socket, used when neither a password nor a key is given. */
  agent: string | undefined;
  knownHosts: string;
  strictHostKey: boolean;
}

const PARAMS = ['identity', 'known_hosts', 'strict_host_key'];
const USAGE = 'sftp://user[:password]@host[:port]/path[?identity=/path/to/key]';

export function parseSftpUrl(raw: string, env: NodeJS.ProcessEnv = process.env): SftpTarget {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usage(`invalid SFTP URL '${redactSftpUrl(text)}': expected ${USAGE}`);
  }
  if (url.protocol !== 'sftp:') throw usage(`not an SFTP URL: '${redactSftpUrl(text)}'`);
  const redacted = redactSftpUrl(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw usage(`the SFTP URL '${redacted}' names no host: expected ${USAGE}`);
  const username = decode(url.username, redacted);
  if (username === '') throw usage(`the SFTP URL '${redacted}' names no user: expected ${USAGE}`);
  for (const key of url.searchParams.keys()) {
    if (!PARAMS.includes(key)) {
      throw usage(`unknown parameter '${key}' in '${redacted}'; known: ${PARAMS.join(', ')}`);
    }
  }
  const strict = url.searchParams.get('strict_host_key') ?? 'yes';
  if (strict !== 'yes' && strict !== 'no') {
    throw usage(`strict_host_key must be 'yes' or 'no' in '${redacted}'`);
  }
  const urlPassword = url.password === '' ? undefined : decode(url.password, redacted);
  const password = urlPassword ?? nonEmpty(env['AIDE_CRAWLER_SFTP_PASSWORD']);
  const identity = url.searchParams.get('identity') ?? undefined;
  const envKey = nonEmpty(env['AIDE_CRAWLER_SFTP_KEY']);
  const privateKey =
    identity !== undefined
      ? { file: identity }
      : envKey === undefined
        ? undefined
        : /^\s*-----BEGIN /.test(envKey)
          ? { text: envKey }
          : { file: envKey };
  const passphrase = nonEmpty(env['AIDE_CRAWLER_SFTP_PASSPHRASE']);
  const port = url.port === '' ? 22 : Number(url.port);
  const path = decode(url.pathname, redacted);
  const secrets = [
    password,
    passphrase,
    privateKey !== undefined && 'text' in privateKey ? privateKey.text : undefined,
  ];
  return {
    source: 'sftp',
    redacted,
    secrets: [...new Set(secrets.filter((s): s is string => s !== undefined))],
    host,
    port,
    username,
    path: path === '' || path === '/~' ? '.' : path.startsWith('/~/') ? path.slice(3) : path,
    display: `sftp://${url.username}@${url.host}${url.pathname === '/' ? '' : url.pathname}`,
    password,
    privateKey,
    passphrase,
    agent: password === undefined && privateKey === undefined ? nonEmpty(env['SSH_AUTH_SOCK']) : undefined,
    knownHosts: url.searchParams.get('known_hosts') ?? join(homedir(), '.ssh', 'known_hosts'),
    strictHostKey: strict === 'yes',
  };
}

/** The URL with its password replaced by `***` (also when it does not parse). */
export function redactSftpUrl(url: string): string {
  return url.replace(/^(sftp:\/\/[^:@/?#]*):[^@/?#]*@/i, '$1:***@');
}

function decode(component: string, redacted: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    throw usage(`malformed percent-encoding in '${redacted}'`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function usage(message: string): CrawlerError {
  return new CrawlerError(message, { exitCode: ExitCode.USAGE });
}
