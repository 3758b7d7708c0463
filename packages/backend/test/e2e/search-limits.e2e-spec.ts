// Issue 22 item 4: expensive reads get a bounded share. Searches run in at most AIDE_SEARCH_CONCURRENCY
// of the pool's connections (more wait in a queue of AIDE_SEARCH_QUEUE, the rest are 503 SEARCH_BUSY),
// each statement within AIDE_SEARCH_STATEMENT_TIMEOUT_MS (503 SEARCH_TIMEOUT), and no offset page skips
// more than MAX_PAGE_OFFSET rows (422). Searches are held busy deterministically: a connection of the
// test's own holds ACCESS EXCLUSIVE on `fields`, so every search statement waits on the lock (visible
// in pg_locks) until the test releases it.
import { MAX_PAGE_OFFSET } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { connectClient } from '../../src/database/pg-client.js';
import { MAX_SIMILARITY_LENGTH, similarityText } from '../../src/modules/search/search-statement.js';
import { waitFor } from '../helpers/backend-process.js';
import { API, datasetBody, flavorFor } from '../helpers/catalogue.js';
import { createSystem, ok } from '../helpers/factories.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
} from '../helpers/test-app.js';

/** ACCESS EXCLUSIVE on `fields`, held by a connection of its own until `release()`. */
class FieldsLock {
  private constructor(private readonly client: pg.Client) {}

  static async take(ctx: TestContext): Promise<FieldsLock> {
    const client = await connectClient(ctx.config.databaseUrl);
    await client.query('BEGIN');
    await client.query('LOCK TABLE fields IN ACCESS EXCLUSIVE MODE');
    return new FieldsLock(client);
  }

  /** Statements waiting on the lock now: the API's searches (nothing else of the API reads `fields`). */
  async waitingSearches(): Promise<number> {
    const { rows } = await this.client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks
       WHERE NOT granted AND relation = 'fields'::regclass
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    return rows[0].n;
  }

  /** Waits until at least `n` searches wait on the lock (polling pg_locks). */
  async untilWaiting(n: number): Promise<void> {
    await waitFor(`${n} searches waiting on the lock`, async () =>
      (await this.waitingSearches()) >= n ? true : undefined,
    );
  }

  async release(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}

const search = (ctx: TestContext, query = 'q=customer') =>
  ctx.request('GET', `${API}/search?${query}`, { token: ctx.userToken });

async function seed(ctx: TestContext): Promise<void> {
  const flavor = await flavorFor(ctx, 'rdbms');
  const system = await createSystem(ctx, flavor.id, { code: 'crm_db' });
  const body = datasetBody('rdbms', system.id, { object_name: 'public.customers', table_name: 'customers' });
  const dataset = ok(await ctx.request('POST', `${API}/datasets`, { token: ctx.userToken, body }), 201);
  const field = { dataset_id: dataset.id, name: 'customer_id' };
  ok(await ctx.request('POST', `${API}/fields`, { token: ctx.userToken, body: field }), 201);
}

describe('searches under saturation (pool of 4, 2 search slots, no queue)', () => {
  let ctx: TestContext;
  let lock: FieldsLock | undefined;

  beforeAll(async () => {
    ctx = await createTestContext({
      AIDE_DB_POOL_SIZE: '4',
      AIDE_SEARCH_CONCURRENCY: '2',
      AIDE_SEARCH_QUEUE: '0',
      // The held searches wait for the test, not for a timeout.
      AIDE_SEARCH_STATEMENT_TIMEOUT_MS: '600000',
    });
    await seed(ctx);
  });
  afterAll(async () => {
    await lock?.release();
    await ctx.close();
  });

  it('answers GET /systems while searches hold every search slot, and refuses more with 503 SEARCH_BUSY', async () => {
    lock = await FieldsLock.take(ctx);
    // As many searches as the pool has connections: without a share of their own they would hold all.
    const flood = Array.from({ length: 4 }, () => search(ctx));
    let answers: TestResponse[];
    try {
      await lock.untilWaiting(2);
      ok(await ctx.request('GET', `${API}/systems`, { token: ctx.userToken }));
      const refused = await search(ctx, 'q=orders');
      const body = expectEnvelope(refused, 503, 'SEARCH_BUSY');
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(body.details).toEqual({ concurrency: 2, queue: 0 });
      expect(await lock.waitingSearches()).toBe(2);
    } finally {
      await lock.release();
      answers = await Promise.all(flood);
    }
    // The two that had slots finish once the lock is gone; the other two were refused at once.
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 503, 503]);
    for (const answer of answers.filter((a) => a.status === 503)) expectEnvelope(answer, 503, 'SEARCH_BUSY');
    // The slots are free again.
    expect(ok(await search(ctx)).items.map((i: { name: string }) => i.name)).toContain('customer_id');
  });

  it.each([
    ['search', 'search?q=customer&size=50', 50],
    ['systems', 'systems?size=100', 100],
    ['fields', 'fields?size=1', 1],
    ['datasets', 'datasets?size=100', 100],
  ])(
    'refuses a %s page that skips more than MAX_PAGE_OFFSET rows with 422, naming the deepest page',
    async (_name, path, size) => {
      const maxPage = MAX_PAGE_OFFSET / size + 1;
      ok(await ctx.request('GET', `${API}/${path}&page=${maxPage}`, { token: ctx.userToken }));
      for (const page of [maxPage + 1, 1_000_000]) {
        const response = await ctx.request('GET', `${API}/${path}&page=${page}`, { token: ctx.userToken });
        const body = expectEnvelope(response, 422, 'VALIDATION_ERROR');
        expect(body.details.issues).toEqual([
          expect.objectContaining({
            path: ['page'],
            params: { max_page: maxPage, max_offset: MAX_PAGE_OFFSET },
          }),
        ]);
      }
    },
  );

  it.each(['datasets', 'fields', 'systems'])(
    'points a too-deep page of a collection (%s) to the cursor',
    async (path) => {
      const response = await ctx.request('GET', `${API}/${path}?size=100&page=102`, { token: ctx.userToken });
      expect(expectEnvelope(response, 422, 'VALIDATION_ERROR').details.issues[0].message).toContain(
        'page further with cursor',
      );
    },
  );
});

describe('a search past its statement timeout', () => {
  let ctx: TestContext;
  let lock: FieldsLock | undefined;

  beforeAll(async () => {
    // Long enough for any search of this small catalogue on a busy machine; the lock outlasts it.
    ctx = await createTestContext({ AIDE_SEARCH_STATEMENT_TIMEOUT_MS: '2000' });
    await seed(ctx);
  });
  afterAll(async () => {
    await lock?.release();
    await ctx.close();
  });

  it('is cancelled by PostgreSQL and answered 503 SEARCH_TIMEOUT with Retry-After, not 500', async () => {
    lock = await FieldsLock.take(ctx);
    let answer: TestResponse;
    try {
      // The statement waits on the lock, which is held until the answer is in: only the timeout ends it.
      answer = await search(ctx);
    } finally {
      await lock.release();
    }
    const body = expectEnvelope(answer, 503, 'SEARCH_TIMEOUT');
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(body.details).toEqual({ statement_timeout_ms: 2000 });
    // The connection and the slot are fine afterwards.
    expect(ok(await search(ctx)).total).toBeGreaterThan(0);
  });
});

describe('the text compared by similarity', () => {
  it('is the words of the query, so that quotes count for nothing', () => {
    expect(similarityText(`${"'".repeat(199)}a`)).toBe('a');
    expect(similarityText('Sales.Ledger_Refund-4242')).toBe('sales ledger refund 4242');
  });

  it(`is at most ${MAX_SIMILARITY_LENGTH} characters`, () => {
    const long = similarityText(Array.from({ length: 20 }, (_, i) => `warehouse${i}`).join(' '));
    expect(long.length).toBeLessThanOrEqual(MAX_SIMILARITY_LENGTH);
    expect(long.length).toBeGreaterThan(MAX_SIMILARITY_LENGTH - 'warehouse19 '.length);
    expect(long.startsWith('warehouse0 warehouse1 ')).toBe(true);
  });
});
