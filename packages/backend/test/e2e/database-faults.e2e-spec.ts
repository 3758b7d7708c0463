import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type EmbeddedPostgresHandle,
  freePort,
  startEmbeddedPostgres,
} from '../../src/database/embedded-postgres.js';
import { withDatabase } from '../../src/database/naming.js';
import { withClient } from '../../src/database/pg-client.js';
import { type BackendProcess, startBackendProcess, statusOf, waitFor } from '../helpers/backend-process.js';

// The server under load while its database goes away: backends terminated, then PostgreSQL stopped and
// started again. This file owns its PostgreSQL cluster (the shared one of the other test files stays up)
// and runs the real entry point, so a crash is the process exiting, as in production.

// Not test-app.ts's: importing it would compile the whole application into this worker for one constant.
const JWT_SECRET = 'database-faults-test-secret-long-enough-for-hs256';
const SUPERUSER = { email: 'faults-admin@example.com', password: 'faults-admin-password-1' };

interface Outcome {
  loop: string;
  status: number | 'network-error';
  code?: string;
  retryAfter?: string | null;
  /** The system kind a write created (201), to find it again after the restart. */
  createdId?: string;
}

/** Request loops that run until stopped, recording every outcome. */
class Load {
  readonly outcomes: Outcome[] = [];
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  start(readers: number, writers: number): void {
    for (let i = 0; i < readers; i++) this.loops.push(this.run(`read-${i}`, () => this.read()));
    for (let i = 0; i < writers; i++) this.loops.push(this.run(`write-${i}`, (n) => this.write(i, n)));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Outcomes recorded after `mark` (an index into `outcomes`). */
  since(mark: number): Outcome[] {
    return this.outcomes.slice(mark);
  }

  private async run(loop: string, request: (n: number) => Promise<Response>): Promise<void> {
    for (let n = 0; this.running; n++) {
      try {
        const response = await request(n);
        const body = (await response.json().catch(() => undefined)) as
          { error_code?: string; id?: string } | undefined;
        this.outcomes.push({
          loop,
          status: response.status,
          code: body?.error_code,
          retryAfter: response.headers.get('retry-after'),
          createdId: response.status === 201 ? body?.id : undefined,
        });
      } catch {
        this.outcomes.push({ loop, status: 'network-error' });
      }
    }
  }

  private read(): Promise<Response> {
    return fetch(`${this.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${this.token}` } });
  }

  private write(writer: number, n: number): Promise<Response> {
    return fetch(`${this.url}/api/v1/system-kinds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: `fault_${writer}_${n}`, name: `written under faults ${writer}/${n}` }),
    });
  }
}

describe('database faults under load (dist/main.js on a PostgreSQL this test restarts)', () => {
  let pgDir: string;
  let pgPort: number;
  let embedded: EmbeddedPostgresHandle;
  let databaseUrl: string;
  let backend: BackendProcess;
  let token: string;

  beforeAll(async () => {
    pgDir = mkdtempSync(join(tmpdir(), 'aide-faults-pg-'));
    pgPort = await freePort();
    embedded = await startEmbeddedPostgres({ dir: pgDir, port: pgPort });
    await withClient(embedded.url, (client) => client.query('CREATE DATABASE aide_faults'));
    databaseUrl = withDatabase(embedded.url, 'aide_faults');
    backend = await startBackendProcess({
      DATABASE_URL: databaseUrl,
      AIDE_JWT_SECRET: JWT_SECRET,
      AIDE_MIGRATE_ON_START: 'true',
      AIDE_SEED_ON_START: 'false',
      AIDE_SUPERUSER_EMAIL: SUPERUSER.email,
      AIDE_SUPERUSER_PASSWORD: SUPERUSER.password,
      AIDE_DB_POOL_SIZE: '6',
    });
    const login = await fetch(`${backend.url}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: SUPERUSER.email, password: SUPERUSER.password }).toString(),
    });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { access_token: string }).access_token;
  }, 300_000);

  afterAll(async () => {
    await backend?.kill();
    await embedded?.stop();
    if (pgDir) rmSync(pgDir, { recursive: true, force: true });
  });

  /** Asserts the server process is the one started in beforeAll and still running. */
  function expectAlive(): void {
    const unhandled = /Unhandled 'error' event|uncaught/i.test(backend.output());
    expect({ exitCode: backend.child.exitCode, signal: backend.child.signalCode, unhandled }).toEqual({
      exitCode: null,
      signal: null,
      unhandled: false,
    });
  }

  /** Waits until every loop has had a successful response after `mark`. */
  async function everyLoopSucceedsAfter(load: Load, mark: number, loops: string[]): Promise<void> {
    await waitFor(
      'every request loop to succeed again',
      () => {
        expectAlive();
        const ok = new Set(
          load
            .since(mark)
            .filter((o) => o.status === 200 || o.status === 201)
            .map((o) => o.loop),
        );
        return loops.every((l) => ok.has(l)) ? true : undefined;
      },
      120_000,
    );
  }

  it('answers 503 DATABASE_UNAVAILABLE while the database is away and recovers without a restart', async () => {
    const load = new Load(backend.url, token);
    const loops = [...Array.from({ length: 8 }, (_, i) => `read-${i}`), 'write-0', 'write-1'];
    load.start(8, 2);
    try {
      await everyLoopSucceedsAfter(load, 0, loops);

      // 1. The server's connections are terminated (as by a DBA or a failover), three times over.
      for (let round = 0; round < 3; round++) {
        const mark = load.outcomes.length;
        await withClient(embedded.url, (client) =>
          client.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'aide-metastore'",
          ),
        );
        await everyLoopSucceedsAfter(load, mark, loops);
      }

      // 2. PostgreSQL stops: requests get 503 DATABASE_UNAVAILABLE and readiness says unready.
      await embedded.stop();
      const downMark = load.outcomes.length;
      await waitFor('/health/ready to answer 503', async () =>
        (await statusOf(`${backend.url}/health/ready`)) === 503 ? true : undefined,
      );
      const ready = await fetch(`${backend.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error_code: string }).error_code).toBe('DATABASE_UNAVAILABLE');
      await waitFor('every loop to see the database unavailable', () => {
        const unavailable = new Set(
          load
            .since(downMark)
            .filter((o) => o.status === 503)
            .map((o) => o.loop),
        );
        return loops.every((l) => unavailable.has(l)) ? true : undefined;
      });
      expect(await statusOf(`${backend.url}/health/live`)).toBe(200);
      expectAlive();

      // 3. PostgreSQL starts again on the same port: the pool reconnects, nothing is restarted.
      const upMark = load.outcomes.length;
      embedded = await startEmbeddedPostgres({ dir: pgDir, port: pgPort });
      await waitFor('/health/ready to answer 200', async () =>
        (await statusOf(`${backend.url}/health/ready`)) === 200 ? true : undefined,
      );
      await everyLoopSucceedsAfter(load, upMark, loops);
    } finally {
      await load.stop();
    }
    expectAlive();

    // Only successes and 503 DATABASE_UNAVAILABLE with Retry-After: never a 500, never a dropped connection.
    const unexpected = load.outcomes.filter(
      (o) =>
        !(o.status === 200 || o.status === 201) &&
        !(o.status === 503 && o.code === 'DATABASE_UNAVAILABLE' && o.retryAfter === '5'),
    );
    expect(unexpected).toEqual([]);
    expect(load.outcomes.filter((o) => o.status === 503).length).toBeGreaterThan(0);

    // Nothing acknowledged was lost: every 201 of the run is in the database after the restart.
    const created = load.outcomes.flatMap((o) => (o.createdId ? [o.createdId] : []));
    expect(created.length).toBeGreaterThan(0);
    const stored = await withClient(databaseUrl, (client) =>
      client.query<{ id: string }>('SELECT id FROM system_kinds WHERE id = ANY($1::uuid[])', [created]),
    );
    expect(stored.rows.map((r) => r.id).sort()).toEqual([...created].sort());
  }, 600_000);
});
