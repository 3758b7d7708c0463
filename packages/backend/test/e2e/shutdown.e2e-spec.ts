import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createChain } from '../helpers/factories.js';
import { createTestContext, TEST_JWT_SECRET, type TestContext } from '../helpers/test-app.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

describe('graceful shutdown (the real entry point, dist/main.js)', () => {
  let ctx: TestContext;
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        DATABASE_URL: ctx.config.databaseUrl,
        AIDE_JWT_SECRET: TEST_JWT_SECRET,
        PORT: String(port),
        HOST: '127.0.0.1',
        AIDE_MIGRATE_ON_START: 'false',
        AIDE_SEED_ON_START: 'false',
        LOG_LEVEL: 'warn',
        AIDE_LOG_FORMAT: 'json',
      },
      stdio: 'ignore',
    });
    await waitReady(url);
  });
  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await ctx.close();
  });

  it('finishes the request in flight on SIGTERM, then exits 0', async () => {
    const { system } = await createChain(ctx);
    // Hold the row so the update waits inside the server while SIGTERM arrives.
    const blocker = new pg.Client({ connectionString: ctx.config.databaseUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM systems WHERE id = $1 FOR UPDATE', [system.id]);
    const inFlight = fetch(`${url}/api/v1/systems/${system.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ctx.userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'renamed during shutdown', row_version: system.row_version }),
    });
    await new Promise((r) => setTimeout(r, 300));
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await blocker.query('COMMIT');
    await blocker.end();

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe('renamed during shutdown');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
  });
});
