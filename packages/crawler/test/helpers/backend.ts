// The real registry for crawl/apply tests: the built backend (`packages/backend/dist/main.js`, built by
// this package's test script) on a free port, on a database of its own on the test PostgreSQL server
// (AIDE_TEST_PG_URL), migrated and seeded with the reference data (flavors, data types) on start.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AideClient } from '@aide/sdk';
import { execAdmin, PG_ADMIN_URL, uniqueName } from './postgres.js';

const backendMain = fileURLToPath(new URL('../../../backend/dist/main.js', import.meta.url));

export interface TestBackend {
  baseUrl: string;
  /** The registry's own database (tests take locks in it). */
  databaseUrl: string;
  username: string;
  password: string;
  /** The env vars `crawl` and `apply` read the registry settings from. */
  env: Record<string, string>;
  client(): AideClient;
  /** Registers an rdbms system of a flavor (`postgres14`, `mysql8`, `sqlite3`); returns its code. */
  createSystem(code: string, flavor: string): Promise<string>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the backend exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the backend was not ready within 120 s:\n${output()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startBackend(label: string): Promise<TestBackend> {
  const database = uniqueName(`registry_${label}`);
  await execAdmin(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(PG_ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'aide-crawler-backend-'));
  const port = await freePort();
  const username = 'crawler-admin@example.com';
  const password = `pw-${randomBytes(8).toString('hex')}`;
  let output = '';
  const child = spawn(process.execPath, [backendMain], {
    cwd: dataDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
      AIDE_JWT_SECRET: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      AIDE_DATA_DIR: join(dataDir, 'data'),
      AIDE_MIGRATE_ON_START: 'true',
      AIDE_SEED_ON_START: 'true',
      AIDE_SUPERUSER_EMAIL: username,
      AIDE_SUPERUSER_PASSWORD: password,
      AIDE_LOGIN_MAX_PER_IP: '100000',
      LOG_LEVEL: 'warn',
      AIDE_LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    await execAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForReady(baseUrl, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  const client = () => new AideClient({ baseUrl, username, password });
  return {
    baseUrl,
    databaseUrl: databaseUrl.toString(),
    username,
    password,
    env: { AIDE_METASTORE_URL: baseUrl, AIDE_METASTORE_USER: username, AIDE_METASTORE_PASSWORD: password },
    client,
    async createSystem(code, flavorCode) {
      const api = client();
      try {
        const flavor = (await api.systemFlavors.list({ code: flavorCode, size: 1 })).items[0];
        if (flavor === undefined) throw new Error(`no flavor ${flavorCode}`);
        await api.systems.create({ code, name: code, flavor_id: flavor.id });
        return code;
      } finally {
        await api.close();
      }
    },
    stop,
  };
}
