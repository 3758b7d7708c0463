// SIGINT and SIGTERM during crawl and apply, for real: the executable (dist/bin.js) against the real
// registry (the backend, started by this file) and a real PostgreSQL database. The crawl is held in a
// catalog query by a lock the test takes (pg_get_expr of a check constraint waits for its table's ACCESS
// EXCLUSIVE lock; defaults are deparsed without their table, so they do not, ADR 0041); once
// PostgreSQL shows the crawler waiting on it and its crawl run is recorded (the two overlap), the
// signal is sent. The run ends `failed` with "interrupted by SIGINT", the waiting statement is
// cancelled and its connection closed (while the lock is still held), and the exit code is 130
// (SIGINT) or 143 (SIGTERM). A signal while the run's record is being written still records it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { InterruptedError } from '../src/errors.js';
import { main } from '../src/program.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import {
  crawlRuns as runsOf,
  interruptCrawl,
  interruptedStderr,
  startCrawler,
  until,
} from './helpers/interrupt.js';
import { createPgDatabase, type TestPgDatabase } from './helpers/postgres.js';

let backend: TestBackend;
let db: TestPgDatabase;
let tmp: string;

beforeAll(async () => {
  backend = await startBackend('interrupt');
  db = await createPgDatabase('interrupt');
  await db.exec(`CREATE TABLE public.held (id int PRIMARY KEY, amount int NOT NULL DEFAULT 0 CHECK (amount >= 0));
    CREATE TABLE public.other (id int PRIMARY KEY, held_id int REFERENCES public.held (id))`);
  await backend.createSystem('held_pg', 'postgres14');
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-interrupt-'));
}, 180_000);

afterAll(async () => {
  await db?.drop();
  await backend?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

/** A session of the test's own holding `lock` (in `url`'s database) until `release()`. */
async function holdLock(url: string, lock: string) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query(lock);
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** Sessions of `application` in `database` (pg_stat_activity), and whether each waits on a lock. */
async function sessions(database: string, application?: string): Promise<{ waiting: boolean }[]> {
  return db.exec<{ waiting: boolean }>(
    `SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity
     WHERE datname = $1 AND ($2::text IS NULL OR application_name = $2) AND pid <> pg_backend_pid()`,
    [database, application ?? null],
  );
}

const start = (args: string[]) => startCrawler(backend, args);
const crawlRuns = () => runsOf(backend, 'held_pg');

describe('an interrupted crawl', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: the crawl run is marked failed, the catalog query cancelled, the exit code %i',
    async (signal, exitCode) => {
      const lock = await holdLock(db.url, 'LOCK TABLE public.held IN ACCESS EXCLUSIVE MODE');
      try {
        // The crawler's catalog query waits for the lock; its crawl run is recorded meanwhile.
        await interruptCrawl(backend, 'held_pg', ['--connection-url', db.url], signal, exitCode, async () =>
          (await sessions(db.name, 'aide-crawler')).some((s) => s.waiting),
        );
        // The lock is still held: a statement not cancelled would still be waiting on it. The
        // crawler's sessions end (the server notices the closed connection on its own time).
        await until(async () => (await sessions(db.name, 'aide-crawler')).length === 0);
      } finally {
        await lock.release();
      }
    },
    120_000,
  );

  it('SIGINT while the run is being recorded: the run is still recorded, and marked failed', async () => {
    const before = await crawlRuns();
    // The catalog query waits for one lock, the run's insert in the registry for another.
    const catalogLock = await holdLock(db.url, 'LOCK TABLE public.held IN ACCESS EXCLUSIVE MODE');
    const runsLock = await holdLock(backend.databaseUrl, 'LOCK TABLE crawl_runs IN SHARE MODE');
    const registryDatabase = new URL(backend.databaseUrl).pathname.slice(1);
    let released = false;
    try {
      const crawl = start(['crawl', '--system-code', 'held_pg', '--connection-url', db.url]);
      await until(
        async () => (await sessions(db.name, 'aide-crawler')).some((s) => s.waiting),
        crawl.child,
        'waiting on the catalog lock',
      );
      await until(
        async () => (await sessions(registryDatabase)).some((s) => s.waiting),
        crawl.child,
        'the run record waiting on the lock',
      );
      crawl.child.kill('SIGINT');
      // The catalog query is cancelled at once, the catalog lock still held; then the run goes in.
      await until(async () => (await sessions(db.name, 'aide-crawler')).length === 0);
      await runsLock.release();
      released = true;
      expect((await crawl.exited).code).toBe(130);
      expect(crawl.output()).toEqual({ stdout: '', stderr: interruptedStderr('SIGINT') });
    } finally {
      if (!released) await runsLock.release();
      await catalogLock.release();
    }
    const runs = await crawlRuns();
    expect(runs).toHaveLength(before.length + 1);
    expect(runs[runs.length - 1]).toMatchObject({ status: 'failed', error_message: 'interrupted by SIGINT' });
  }, 120_000);

  it('inspect: SIGINT cancels the catalog query and exits 130', async () => {
    const lock = await holdLock(db.url, 'LOCK TABLE public.held IN ACCESS EXCLUSIVE MODE');
    try {
      const inspect = start(['inspect', '--connection-url', db.url]);
      await until(
        async () => (await sessions(db.name, 'aide-crawler')).some((s) => s.waiting),
        inspect.child,
        'waiting on the lock',
      );
      inspect.child.kill('SIGINT');
      expect((await inspect.exited).code).toBe(130);
      expect(inspect.output()).toEqual({ stdout: '', stderr: interruptedStderr('SIGINT') });
      await until(async () => (await sessions(db.name, 'aide-crawler')).length === 0);
    } finally {
      await lock.release();
    }
  }, 120_000);

  it('a signal before the run is recorded records nothing and still exits 130', async () => {
    const before = await crawlRuns();
    const interrupt = new AbortController();
    interrupt.abort(new InterruptedError('SIGINT'));
    let stderr = '';
    const code = await main(['crawl', '--system-code', 'held_pg', '--connection-url', db.url], {
      stdout: () => undefined,
      stderr: (s) => (stderr += s),
      env: backend.env,
      signal: interrupt.signal,
    });
    expect(code).toBe(130);
    expect(stderr).toBe('aide-crawler: interrupted by SIGINT\n');
    expect(await crawlRuns()).toHaveLength(before.length);
  });
});

describe('an interrupted apply', () => {
  it('SIGINT while a batch is written: the batch completes, the apply run is marked failed, exit 130', async () => {
    const report = join(tmp, 'held.json');
    const crawled = start([
      'crawl',
      '--system-code',
      'held_pg',
      '--connection-url',
      db.url,
      '--format',
      'json',
      '-o',
      report,
    ]);
    expect((await crawled.exited).code).toBe(0);

    // The registry's datasets table refuses inserts (SHARE mode lets the snapshot's reads through): the
    // apply records its run, then its batch (datasets created with their versions) waits on the lock.
    const lock = await holdLock(backend.databaseUrl, 'LOCK TABLE datasets IN SHARE MODE');
    const apply = start(['apply', report]);
    let released = false;
    try {
      const registryDatabase = new URL(backend.databaseUrl).pathname.slice(1);
      await until(
        async () => (await sessions(registryDatabase)).some((s) => s.waiting),
        apply.child,
        'the batch waiting on the lock',
      );
      apply.child.kill('SIGINT');
      // Once the crawler acknowledges the signal (it still waits for its batch), let the batch go.
      await new Promise<void>((resolve) => {
        const seen = () => apply.output().stderr.includes('SIGINT received');
        if (seen()) resolve();
        else apply.child.stderr?.on('data', () => seen() && resolve());
      });
      await lock.release();
      released = true;
      const { code } = await apply.exited;
      expect(apply.output().stderr).toBe(interruptedStderr('SIGINT'));
      expect(code).toBe(130);
    } finally {
      if (!released) await lock.release();
    }
    const runs = await crawlRuns();
    const applyRun = runs[runs.length - 1];
    expect(applyRun).toMatchObject({
      status: 'failed',
      error_message: 'interrupted by SIGINT',
      config: { command: 'apply' },
    });
    // The batch in flight was written whole: each dataset with its first version (never a dataset
    // without one, ADR 0037), and recorded with its id and version.
    const applied = (
      applyRun?.diff_payload as {
        applied: { action: string; dataset_id: string | null; version_num: number }[];
      }
    ).applied;
    expect(applied.map((a) => [a.action, a.version_num])).toEqual([
      ['create', 1],
      ['create', 1],
    ]);
    expect(applied.every((a) => typeof a.dataset_id === 'string')).toBe(true);
    // Applying again finds it all applied.
    const again = start(['apply', report]);
    expect((await again.exited).code).toBe(0);
    expect(again.output().stdout).toContain('0 created, 0 published, 2 already applied');
  }, 120_000);
});
