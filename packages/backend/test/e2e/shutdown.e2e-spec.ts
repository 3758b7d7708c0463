import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectClient } from '../../src/database/pg-client.js';
import { type BackendProcess, startBackendProcess, statusOf, waitFor } from '../helpers/backend-process.js';
import { createChain } from '../helpers/factories.js';
import { createTestContext, TEST_JWT_SECRET, type TestContext } from '../helpers/test-app.js';

// Every wait is on a real signal (the server answers, the request waits on the row lock, the listener
// is closed), with generous bounds: the machine running this may be busy.
describe('graceful shutdown (the real entry point, dist/main.js)', () => {
  let ctx: TestContext;
  let backend: BackendProcess;

  beforeAll(async () => {
    ctx = await createTestContext();
    backend = await startBackendProcess({
      DATABASE_URL: ctx.config.databaseUrl,
      AIDE_JWT_SECRET: TEST_JWT_SECRET,
      AIDE_MIGRATE_ON_START: 'false',
      AIDE_SEED_ON_START: 'false',
      AIDE_DB_POOL_SIZE: '4',
      // The drain below waits on a lock this test holds: the default 10 s would be a timing assumption.
      AIDE_SHUTDOWN_TIMEOUT_MS: '120000',
    });
  }, 240_000);
  afterAll(async () => {
    await backend?.kill();
    await ctx?.close();
  });

  it('finishes the request in flight on SIGTERM, then exits 0', async () => {
    const { system } = await createChain(ctx);
    // Hold the row so the update waits inside the server while SIGTERM arrives.
    const blocker = await connectClient(ctx.config.databaseUrl);
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM systems WHERE id = $1 FOR UPDATE', [system.id]);
    const blockerPid = (await blocker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    const inFlight = fetch(`${backend.url}/api/v1/systems/${system.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ctx.userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'renamed during shutdown', row_version: system.row_version }),
    });
    // The server's UPDATE is now waiting on the blocker's row lock.
    await waitFor('the in-flight update to wait on the row lock', async () => {
      const { rows } = await blocker.query(
        `SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`,
        [blockerPid],
      );
      return rows.length > 0 ? true : undefined;
    });
    const exited = once(backend.child, 'exit');
    backend.child.kill('SIGTERM');
    // Draining has begun once the listener is closed: new connections are refused.
    await waitFor('the server to stop accepting connections', async () =>
      (await statusOf(`${backend.url}/health/live`)) === undefined ? true : undefined,
    );
    await blocker.query('COMMIT');
    await blocker.end();

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe('renamed during shutdown');
    const [code] = (await exited) as [number | null];
    expect({ code, output: code === 0 ? '' : backend.output() }).toEqual({ code: 0, output: '' });
    await expect(fetch(`${backend.url}/health/live`)).rejects.toThrow();
  }, 180_000);
});
