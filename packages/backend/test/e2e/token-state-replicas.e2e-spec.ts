// Two replicas of the API on one database (ADR 0023): each keeps the users' token state in memory,
// kept current by PostgreSQL LISTEN/NOTIFY. Revocation (logout-all), deactivation and demotion done
// through either replica take effect on the very next request on both, also while the other
// replica's notification connection is cut or cannot come back. Every wait below is for an event
// of the cache (live, lost, message), never for time.
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { TokenStateCache } from '../../src/common/auth/token-state-cache.js';
import type { TokenStateMessage } from '../../src/common/auth/token-state-listener.js';
import { createDataSource } from '../../src/database/data-source.js';
import { sqlCounter } from '../helpers/catalogue.js';
import { insertUser, ok } from '../helpers/factories.js';
import { TcpGate } from '../helpers/tcp-gate.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
} from '../helpers/test-app.js';

interface Replica {
  name: string;
  app: NestFastifyApplication;
  dataSource: DataSource;
  cache: TokenStateCache;
  get(path: string, token: string): Promise<TestResponse>;
  send(method: string, path: string, token: string, body?: unknown): Promise<TestResponse>;
}

function replicaOf(name: string, app: NestFastifyApplication, dataSource: DataSource): Replica {
  const address = app.getHttpServer().address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const send = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : text };
  };
  return {
    name,
    app,
    dataSource,
    cache: app.get(TokenStateCache),
    get: (path, token) => send('GET', path, token),
    send,
  };
}

/** Resolves when the cache serves from memory (now, or at its next `live`). */
async function live(cache: TokenStateCache): Promise<void> {
  if (!cache.trusted) await once(cache, 'live');
}

/** Resolves when `cache` has applied the trigger's message for `userId`. */
function messageFor(cache: TokenStateCache, userId: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (message: TokenStateMessage) => {
      if (message.kind === 'user' && message.userId === userId) {
        cache.off('message', listener);
        resolve();
      }
    };
    cache.on('message', listener);
  });
}

describe('token-state cache: two replicas on one database', () => {
  let ctx: TestContext;
  let gate: TcpGate;
  let a: Replica;
  let b: Replica;
  let bApp: NestFastifyApplication | undefined;
  let bDataSource: DataSource | undefined;

  beforeAll(async () => {
    ctx = await createTestContext();
    const url = new URL(ctx.config.databaseUrl);
    // Replica B's notification connection goes through a gate the tests can shut; its pool does not.
    gate = await TcpGate.start(url.hostname, Number(url.port));
    bDataSource = createDataSource({ url: ctx.config.databaseUrl, poolSize: 10 });
    await bDataSource.initialize();
    bApp = await createApp(
      { ...ctx.config, databaseUrl: gate.through(ctx.config.databaseUrl) },
      bDataSource,
      pino({ level: 'silent' }),
    );
    await bApp.listen({ port: 0, host: '127.0.0.1' });
    a = replicaOf('A', ctx.app, ctx.dataSource);
    b = replicaOf('B', bApp, bDataSource);
    await Promise.all([live(a.cache), live(b.cache)]);
  });

  afterAll(async () => {
    await bApp?.close();
    await bDataSource?.destroy();
    await gate?.stop();
    await ctx?.close();
  });

  const ME = '/api/v1/users/me';
  const expect401 = (r: TestResponse) => expectEnvelope(r, 401, 'UNAUTHORIZED');

  /** A user of its own, logged in, whose token both replicas have cached. */
  const session = async (overrides: { is_superuser?: boolean } = {}) => {
    const user = await insertUser(ctx, overrides);
    const token = ok(await ctx.login(user.email, user.password)).access_token as string;
    expect(ok(await a.get(ME, token)).id).toBe(user.id);
    expect(ok(await b.get(ME, token)).id).toBe(user.id);
    return { ...user, token };
  };

  /** The statements reading users that one request runs on a replica. */
  const userReadsOf = async (replica: Replica, token: string, expected: number) => {
    const counter = sqlCounter({ dataSource: replica.dataSource } as TestContext);
    counter.start();
    const response = await replica.get('/api/v1/system-kinds?size=1', token);
    const reads = counter.stop().filter((sql) => /\bFROM users\b/i.test(sql));
    expect({ status: response.status, userReads: reads.length }).toEqual({
      status: 200,
      userReads: expected,
    });
  };

  it('serves a known token from memory on both replicas: no read of the user row', async () => {
    const s = await session();
    expect([a.cache.trusted, b.cache.trusted]).toEqual([true, true]);
    await userReadsOf(a, s.token, 0);
    await userReadsOf(b, s.token, 0);
  });

  it('logout-all through one replica: the next request on either replica refuses the earlier tokens', async () => {
    const s = await session();
    const other = ok(await ctx.login(s.email, s.password)).access_token as string;
    ok(await b.get(ME, other));
    expect((await a.send('POST', '/api/v1/login/logout-all', s.token)).status).toBe(204);
    expect401(await b.get(ME, s.token));
    expect401(await b.get(ME, other));
    expect401(await a.get(ME, s.token));
    const fresh = ok(await ctx.login(s.email, s.password)).access_token as string;
    ok(await b.get(ME, fresh));
    ok(await a.get(ME, fresh));
  });

  it('deactivation through one replica: the next request on the other is refused, and so is a new login', async () => {
    const s = await session();
    ok(await b.send('PATCH', `/api/v1/users/${s.id}`, ctx.adminToken, { is_active: false, row_version: 1 }));
    expect401(await a.get(ME, s.token));
    expect401(await b.get(ME, s.token));
    expectEnvelope(await ctx.login(s.email, s.password), 401, 'INVALID_CREDENTIALS');
  });

  it('demotion and promotion through one replica: the next request on the other sees the new role', async () => {
    const s = await session({ is_superuser: true });
    ok(await b.get('/api/v1/users', s.token));
    ok(
      await a.send('PATCH', `/api/v1/users/${s.id}`, ctx.adminToken, { is_superuser: false, row_version: 1 }),
    );
    expectEnvelope(await b.get('/api/v1/users', s.token), 403, 'FORBIDDEN');
    expectEnvelope(await a.get('/api/v1/users', s.token), 403, 'FORBIDDEN');
    ok(
      await a.send('PATCH', `/api/v1/users/${s.id}`, ctx.adminToken, { is_superuser: true, row_version: 2 }),
    );
    ok(await b.get('/api/v1/users', s.token));
  });

  it('a change written straight to the database (not through the API) reaches both caches by the trigger', async () => {
    const s = await session();
    const seen = Promise.all([messageFor(a.cache, s.id), messageFor(b.cache, s.id)]);
    await ctx.dataSource.query('UPDATE users SET token_version = token_version + 1 WHERE id = $1', [s.id]);
    await seen;
    expect401(await a.get(ME, s.token));
    expect401(await b.get(ME, s.token));
  });

  it('notification connection cut (pg_terminate_backend): a revocation right after is refused on the next request', async () => {
    const s = await session();
    const pid = b.cache.listenerPid;
    expect(typeof pid).toBe('number');
    const back = once(b.cache, 'live');
    await ctx.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
    // No wait for B to notice: whatever state it is in (not yet aware, reconnecting, live again).
    expect((await a.send('POST', '/api/v1/login/logout-all', s.token)).status).toBe(204);
    expect401(await b.get(ME, s.token));
    await back;
    expect(b.cache.listenerPid).not.toBe(pid);
    expect401(await b.get(ME, s.token));
    ok(await b.get(ME, ok(await ctx.login(s.email, s.password)).access_token));
  });

  it('while the notification connection is down and cannot come back, every request reads the row', async () => {
    const s = await session();
    const demoted = await session({ is_superuser: true });
    gate.close();
    const lost = once(b.cache, 'lost');
    await ctx.dataSource.query('SELECT pg_terminate_backend($1)', [b.cache.listenerPid]);
    await lost;
    expect(b.cache.trusted).toBe(false);
    try {
      // Revocation, deactivation and demotion through A while B is cut off: B refuses at once.
      expect((await a.send('POST', '/api/v1/login/logout-all', s.token)).status).toBe(204);
      expect401(await b.get(ME, s.token));
      ok(
        await a.send('PATCH', `/api/v1/users/${demoted.id}`, ctx.adminToken, {
          is_superuser: false,
          row_version: 1,
        }),
      );
      expectEnvelope(await b.get('/api/v1/users', demoted.token), 403, 'FORBIDDEN');
      // A valid token still works on B, one read of the user row per request.
      const fresh = ok(await ctx.login(s.email, s.password)).access_token as string;
      await userReadsOf(b, fresh, 1);
      await userReadsOf(b, fresh, 1);
      expect(b.cache.trusted).toBe(false);
    } finally {
      gate.open();
    }
    await live(b.cache);
    expect401(await b.get(ME, s.token));
    const fresh = ok(await ctx.login(s.email, s.password)).access_token as string;
    ok(await b.get(ME, fresh));
    await userReadsOf(b, fresh, 0);
  });

  it('while the notification connection lags, a revocation answers only once the lagging replica no longer trusts its memory', async () => {
    const s = await session();
    // B's link is up but nothing PostgreSQL sends on it arrives: no message, no lease renewal.
    gate.hold();
    try {
      expect((await a.send('POST', '/api/v1/login/logout-all', s.token)).status).toBe(204);
      expect(b.cache.trusted).toBe(false);
      expect401(await b.get(ME, s.token));
    } finally {
      gate.release();
    }
    await live(b.cache);
    expect401(await b.get(ME, s.token));
  });
});
