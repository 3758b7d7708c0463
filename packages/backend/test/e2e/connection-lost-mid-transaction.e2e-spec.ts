// A connection lost between two statements of a transaction (issue 22, item 7): PostgreSQL, stopping,
// tells every backend "terminating connection" (57P01). When that notice arrives in the same read as
// the answer to a transaction's statement, node-postgres hands the answer on and then reports the
// error, on which TypeORM releases the transaction's query runner; the transaction's next statement
// then fails with TypeORM's QueryRunnerProviderAlreadyReleasedError — answered 500 until that error
// was recognised as the database being unavailable (503 DATABASE_UNAVAILABLE, Retry-After).
//
// Made deterministic with a TCP gate in front of PostgreSQL: a schema-version publish is stopped on a
// row lock at its first statement, the gate holds what the server sends, the lock is let go (the
// answer is sent, and held), the server process is terminated (its 57P01 notice is held too), and the
// gate passes both on in one write.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { createDataSource } from '../../src/database/data-source.js';
import { connectClient } from '../../src/database/pg-client.js';
import { waitFor } from '../helpers/backend-process.js';
import { API, column, createDataset, createPgSystem, seedReference } from '../helpers/catalogue.js';
import { TcpGate } from '../helpers/tcp-gate.js';
import { createTestContext, type TestContext } from '../helpers/test-app.js';

const GATED = 'aide-metastore-gated';

describe('a connection lost between two statements of a transaction', () => {
  let ctx: TestContext;
  let gate: TcpGate;
  let gatedDataSource: DataSource | undefined;
  let gatedApp: NestFastifyApplication | undefined;
  let gatedUrl: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    const url = new URL(ctx.config.databaseUrl);
    gate = await TcpGate.start(url.hostname, Number(url.port));
    // A second instance of the application whose pool reaches PostgreSQL through the gate.
    gatedDataSource = createDataSource({
      url: gate.through(ctx.config.databaseUrl),
      poolSize: 4,
      applicationName: GATED,
    });
    await gatedDataSource.initialize();
    gatedApp = await createApp(ctx.config, gatedDataSource, pino({ level: 'silent' }));
    await gatedApp.listen({ port: 0, host: '127.0.0.1' });
    const address = gatedApp.getHttpServer().address();
    gatedUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await gatedApp?.close();
    await gatedDataSource?.destroy();
    await gate?.stop();
    await ctx?.close();
  });

  const publishThroughGate = async (datasetId: string, columns: unknown[]) => {
    const response = await fetch(`${gatedUrl}${API}/datasets/${datasetId}/schema-versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ columns }),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as { error_code?: string; version?: { version_num: number } },
    };
  };

  /** The one backend of the gated instance in `state` (and waiting on a lock, when asked). */
  const gatedBackend = (condition: string) =>
    waitFor(`a backend of the gated instance ${condition}`, async () => {
      const rows = await ctx.dataSource.query<{ pid: number }[]>(
        `SELECT pid FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = $1 AND ${condition}`,
        [GATED],
      );
      return rows.length === 1 ? rows[0].pid : undefined;
    });

  it('answers a publish cut after its first statement 503 DATABASE_UNAVAILABLE, writes nothing, and recovers', async () => {
    const system = await createPgSystem(ctx);
    const dataset = await createDataset(ctx, system.id);
    const columns = [column('id', 'integer', null, false), column('name', 'text')];

    // The publish's first statement reads the dataset FOR SHARE: a FOR UPDATE lock stops it there.
    const locker = await connectClient(ctx.config.databaseUrl);
    let answer: ReturnType<typeof publishThroughGate> | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM datasets WHERE id = $1 FOR UPDATE', [dataset.id]);
      answer = publishThroughGate(dataset.id, columns);
      const pid = await gatedBackend(`wait_event_type = 'Lock'`);

      // The answer to that statement is sent once the lock goes, and held by the gate.
      gate.hold();
      await locker.query('COMMIT');
      await gatedBackend(`pid = ${pid} AND state = 'idle in transaction'`);

      // The server process ends (57P01, as in a fast shutdown); its notice is held behind the answer.
      await ctx.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitFor('the termination notice at the gate', () =>
        gate.held().some((bytes) => bytes.includes('57P01')) ? true : undefined,
      );
    } finally {
      gate.release();
      await locker.end();
    }

    expect(await answer).toEqual({
      status: 503,
      retryAfter: '5',
      body: expect.objectContaining({ error_code: 'DATABASE_UNAVAILABLE' }),
    });
    const versions = await ctx.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM dataset_schemas WHERE dataset_id = $1',
      [dataset.id],
    );
    expect(versions[0].n).toBe(0);

    // The pool replaced the dead connection: the same publish through the gate now succeeds.
    const again = await publishThroughGate(dataset.id, columns);
    expect([again.status, again.body.version?.version_num]).toEqual([201, 1]);
  });
});
