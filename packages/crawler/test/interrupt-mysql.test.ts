// SIGINT and SIGTERM during a crawl of MariaDB/MySQL (AIDE_TEST_MYSQL_URL), for real: the executable
// against the real registry and the real server. The crawl is held in a catalog query by a metadata
// lock the test takes: a RENAME TABLE of two tables holds the exclusive lock of the first while it
// waits for the second, which a transaction of the test has read, and information_schema waits for
// that exclusive lock. Once the processlist shows the crawler waiting on it and its crawl run is
// recorded, the signal is sent. The query must end on the server (KILL QUERY) while the lock is still
// held: a query not killed would wait for as long as the lock is held, and the crawler with it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mysql from 'mysql2/promise';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { interruptCrawl, interruptedStderr, startCrawler, until } from './helpers/interrupt.js';
import { connectMysql, MYSQL_URL, type TestMysql } from './helpers/mysql.js';

let backend: TestBackend;
let my: TestMysql;
let database: string;

const METADATA_LOCK_WAIT = 'Waiting for table metadata lock';

beforeAll(async () => {
  backend = await startBackend('interrupt_mysql');
  my = await connectMysql('interrupt');
  database = `${my.prefix}_held`;
  await my.exec(`CREATE DATABASE \`${database}\`;
    CREATE TABLE \`${database}\`.aa_held (id int PRIMARY KEY, amount int NOT NULL DEFAULT 0);
    CREATE TABLE \`${database}\`.zz_read (id int PRIMARY KEY)`);
  await backend.createSystem('held_my', 'mysql8');
}, 180_000);

afterAll(async () => {
  await my?.drop();
  await backend?.stop();
}, 60_000);

interface Session {
  id: number;
  db: string | null;
  command: string;
  state: string | null;
}

/** The server's sessions (information_schema.PROCESSLIST), read from the test's own connection. */
const processlist = () =>
  my.exec<Session>(
    'SELECT ID AS id, DB AS db, COMMAND AS command, STATE AS state FROM information_schema.PROCESSLIST',
  );

/** The crawler's sessions: the only ones on the crawled database (the test's use `test`). */
const crawlerSessions = async () => (await processlist()).filter((s) => s.db === database);

/**
 * Holds the exclusive metadata lock of `aa_held` until `release()`: a transaction reads `zz_read`,
 * and a RENAME of both tables takes `aa_held`'s exclusive lock, then waits for `zz_read`'s.
 */
async function holdMetadataLock() {
  const reader = await mysql.createConnection({ uri: MYSQL_URL });
  const renamer = await mysql.createConnection({ uri: MYSQL_URL });
  await reader.query('BEGIN');
  await reader.query(`SELECT * FROM \`${database}\`.zz_read`);
  const table = (name: string) => `\`${database}\`.${name}`;
  const renamed = renamer.query(
    `RENAME TABLE ${table('aa_held')} TO ${table('aa_moved')}, ${table('zz_read')} TO ${table('zz_moved')}`,
  );
  const renaming = async () =>
    (await processlist()).some((s) => s.id === renamer.threadId && s.state === METADATA_LOCK_WAIT);
  await until(renaming);
  return {
    /** The RENAME still waits, so the lock is still held. */
    held: renaming,
    /** The RENAME is killed (nothing is renamed), then the transaction ends. */
    async release() {
      await my.exec(`KILL QUERY ${renamer.threadId}`);
      await expect(renamed).rejects.toThrow('interrupted');
      await reader.query('ROLLBACK');
      await reader.end();
      await renamer.end();
    },
  };
}

const start = (args: string[]) => startCrawler(backend, args);
const waitingCrawler = async () =>
  (await crawlerSessions()).some((s) => s.command === 'Query' && s.state === METADATA_LOCK_WAIT);

describe('an interrupted crawl of MariaDB/MySQL', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: the crawl run is marked failed, the catalog query killed on the server, the exit code %i',
    async (signal, exitCode) => {
      const lock = await holdMetadataLock();
      try {
        await interruptCrawl(
          backend,
          'held_my',
          ['--connection-url', my.url(database)],
          signal,
          exitCode,
          waitingCrawler,
        );
        // The crawler waited for its query to end before it closed its connection and exited: with
        // the lock still held, only KILL QUERY can have ended it. Its sessions are gone.
        expect(await lock.held()).toBe(true);
        await until(async () => (await crawlerSessions()).length === 0);
        expect(await lock.held()).toBe(true);
      } finally {
        await lock.release();
      }
    },
    120_000,
  );

  it('inspect: SIGINT kills the catalog query and exits 130', async () => {
    const lock = await holdMetadataLock();
    try {
      const inspect = start(['inspect', '--connection-url', my.url(database)]);
      await until(waitingCrawler, inspect.child, 'waiting on the metadata lock');
      inspect.child.kill('SIGINT');
      expect((await inspect.exited).code).toBe(130);
      expect(inspect.output()).toEqual({ stdout: '', stderr: interruptedStderr('SIGINT') });
      expect(await lock.held()).toBe(true);
      await until(async () => (await crawlerSessions()).length === 0);
    } finally {
      await lock.release();
    }
  }, 120_000);

  it('a crawl not interrupted reads the database once the lock is released', async () => {
    const lock = await holdMetadataLock();
    const crawl = start(['crawl', '--system-code', 'held_my', '--connection-url', my.url(database)]);
    try {
      await until(waitingCrawler, crawl.child, 'waiting on the metadata lock');
    } finally {
      await lock.release();
    }
    expect((await crawl.exited).code).toBe(0);
    expect(crawl.output().stdout).toMatch(/_held\.aa_held {2}new, 2 columns/);
    expect(crawl.output().stdout).toMatch(/_held\.zz_read {2}new, 1 column/);
  }, 120_000);
});
