// Retries, backoff, timeouts and wire details, against a real node:http server on loopback that answers
// by script (503 then 200, 429 with Retry-After, stalls, resets) and counts what it receives.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  AideClient,
  AideConnectionError,
  AideContractError,
  AideError,
  AideTimeoutError,
  AideUserAbortError,
  ConflictError,
  InternalServerError,
  RateLimitError,
  VERSION,
  type AideClientBaseOptions,
} from '../src/index.js';
import { retryAfterSeconds } from '../src/core/errors.js';
import { backoffMs, MAX_BACKOFF_MS } from '../src/internal/retry.js';
import { startLocalServer, type LocalServer, type Reply, type Script } from './helpers/local-server.js';

const ID = '4f1c2a8e-6b3d-4e2f-9a1b-0c2d3e4f5a6b';
const NOW = '2026-01-01T00:00:00.000Z';
const KIND = {
  id: ID,
  code: 'rdbms',
  name: 'Relational',
  created_at: NOW,
  updated_at: NOW,
  created_by: null,
  updated_by: null,
  note: null,
  row_version: 1,
  deleted_at: null,
};
const ok: Reply = { status: 200, body: KIND };
const created: Reply = { status: 201, body: KIND };
const unavailable: Reply = {
  status: 503,
  body: { error_code: 'SERVICE_UNAVAILABLE', detail: 'The database is not reachable.', request_id: 'r-503' },
};

const open: { server: LocalServer; client: AideClient }[] = [];

afterEach(async () => {
  for (const { server, client } of open.splice(0)) {
    await client.close();
    await server.close();
  }
});

async function setup(
  script: Script,
  options: Omit<AideClientBaseOptions, 'baseUrl'> & { path?: string } = {},
) {
  const server = await startLocalServer(script);
  const { path = '', ...clientOptions } = options;
  const client = new AideClient({ baseUrl: `${server.url}${path}`, token: 'static-token', ...clientOptions });
  open.push({ server, client });
  return { server, client };
}

/** A client logging in with a username and password against a scripted server. */
async function withCredentials(script: Script, options: Omit<AideClientBaseOptions, 'baseUrl'> = {}) {
  const server = await startLocalServer(script);
  const client = new AideClient({
    baseUrl: server.url,
    username: 'me@example.com',
    password: 'a-long-password',
    ...options,
  });
  open.push({ server, client });
  return { server, client };
}

/**
 * The retry pauses `run` schedules, in ms: the setTimeout calls made from internal/retry's sleep()
 * (not the per-attempt timeout timers, nor undici's). How long the client waits, without a clock.
 */
async function retryPauses(run: () => Promise<unknown>): Promise<number[]> {
  const pauses: number[] = [];
  const original = globalThis.setTimeout;
  const spy = jest.spyOn(globalThis, 'setTimeout').mockImplementation((callback: () => void, ms?: number) => {
    if (/internal[\\/]retry\.[jt]s/.test(new Error().stack ?? '')) pauses.push(ms ?? 0);
    return original(callback, ms);
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return pauses;
}

/** Answers `replies` in order, then repeats the last one. */
function sequence(...replies: (Reply | 'stall' | 'reset')[]): Script {
  return (_request, index) => replies[Math.min(index, replies.length - 1)]!;
}

describe('retries', () => {
  it('a GET answered 503 is retried and succeeds', async () => {
    const { server, client } = await setup(sequence(unavailable, ok));
    expect(await client.systemKinds.get(ID)).toEqual(KIND);
    expect(server.requests).toHaveLength(2);
    // The same request id on every attempt, so the server's logs tie them together.
    expect(server.requests[0]!.headers['x-request-id']).toBe(server.requests[1]!.headers['x-request-id']);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { server, client } = await setup(sequence(unavailable), { maxRetries: 2 });
    const error = await client.systemKinds.get(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      status: 503,
      errorCode: 'SERVICE_UNAVAILABLE',
      detail: 'The database is not reachable.',
    });
    expect(server.requests).toHaveLength(3);
  });

  it('a POST without an idempotency key is not retried', async () => {
    const { server, client } = await setup(sequence(unavailable, created));
    await expect(client.systemKinds.create({ code: 'rdbms', name: 'Relational' })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a POST with an idempotency key is retried, with the same Idempotency-Key each time', async () => {
    const { server, client } = await setup(sequence(unavailable, 'reset', created));
    const key = randomUUID();
    expect(
      await client.systemKinds.create({ code: 'rdbms', name: 'Relational' }, { idempotencyKey: key }),
    ).toEqual(KIND);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual([key, key, key]);
    expect(JSON.parse(server.requests[2]!.body)).toEqual({ code: 'rdbms', name: 'Relational' });
  });

  it('a keyed POST answered 409 IDEMPOTENCY_KEY_IN_PROGRESS is retried; other conflicts are not', async () => {
    const inProgress: Reply = {
      status: 409,
      body: { error_code: 'IDEMPOTENCY_KEY_IN_PROGRESS', detail: 'Still running.', request_id: 'r' },
    };
    const { server, client } = await setup(sequence(inProgress, created));
    expect(await client.systemKinds.create({ code: 'a', name: 'b' }, { idempotencyKey: 'k-1' })).toEqual(
      KIND,
    );
    expect(server.requests).toHaveLength(2);

    const duplicate: Reply = {
      status: 409,
      body: { error_code: 'SYSTEM_KIND_ALREADY_EXISTS', detail: 'Exists.', request_id: 'r' },
    };
    const { server: other, client: second } = await setup(sequence(duplicate, created));
    await expect(
      second.systemKinds.create({ code: 'a', name: 'b' }, { idempotencyKey: 'k-2' }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(other.requests).toHaveLength(1);
  });

  it('cast resolution, a read sent as POST, is retried without a key; publishing a version is not', async () => {
    const resolved = {
      cast_rule_id: ID,
      source_data_type_id: ID,
      source_code: 'numeric',
      target_data_type_id: ID,
      target_code: 'decimal',
      target_flavor: 'iceberg_v2',
      type_params: { precision: 12, scale: 2 },
      rendered: 'decimal(12,2)',
      safety: 'safe',
      fidelity: 'exact',
      loss: [],
    };
    const { server, client } = await setup(sequence(unavailable, 'reset', { status: 200, body: resolved }));
    const body = { type_instance_id: ID, target_flavor: 'iceberg_v2' };
    expect(await client.castRules.resolve(body)).toEqual(resolved);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(
      Array(3).fill('POST /api/v1/cast-rules/resolve'),
    );
    expect(server.requests[0]!.headers['idempotency-key']).toBeUndefined();

    const { server: other, client: second } = await setup(sequence(unavailable));
    await expect(
      second.datasets.publishSchemaVersion(ID, { columns: [{ name: 'id', type: { data_type: 'bigint' } }] }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(other.requests).toHaveLength(1);
  });

  it('a PATCH without a key is not retried', async () => {
    const { server, client } = await setup(sequence(unavailable, ok));
    await expect(client.systemKinds.update(ID, { name: 'x', row_version: 1 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 is retried after Retry-After seconds', async () => {
    const { server, client } = await setup(
      sequence(
        {
          status: 429,
          headers: { 'retry-after': '1' },
          body: { error_code: 'TOO_MANY_REQUESTS', detail: 'Slow down.', request_id: 'r' },
        },
        ok,
      ),
    );
    const pauses = await retryPauses(async () => {
      expect(await client.systemKinds.get(ID)).toEqual(KIND);
    });
    expect(pauses).toEqual([1000]);
    expect(server.requests).toHaveLength(2);
  });

  it('a login answered 429 is retried after Retry-After, within maxRetries', async () => {
    const throttled: Reply = {
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error_code: 'TOO_MANY_REQUESTS', detail: 'Too many logins.', request_id: 'r' },
    };
    const tokens: Reply = {
      status: 200,
      body: { access_token: 'access', refresh_token: 'refresh', token_type: 'bearer', expires_in: 1800 },
    };
    // Lazy login on the first call: 429, then the token pair, then the call itself.
    const first = await withCredentials(sequence(throttled, tokens, ok));
    expect(await first.client.systemKinds.get(ID)).toEqual(KIND);
    expect(first.server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/login',
      'POST /api/v1/login',
      `GET /api/v1/system-kinds/${ID}`,
    ]);
    expect(first.server.requests[2]!.headers.authorization).toBe('Bearer access');

    // The retry budget bounds it: maxRetries 1 is two attempts, then the RateLimitError surfaces.
    const second = await withCredentials(sequence(throttled), { maxRetries: 1 });
    await expect(second.client.auth.login()).rejects.toBeInstanceOf(RateLimitError);
    expect(second.server.requests).toHaveLength(2);
  });

  it('a login answered 503 is not retried: it may have been processed', async () => {
    const { server, client } = await withCredentials(sequence(unavailable));
    await expect(client.auth.login()).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('Retry-After as an HTTP date is honoured', async () => {
    const past = new Date(Date.now() - 5_000).toUTCString();
    const { server, client } = await setup(sequence({ status: 503, headers: { 'retry-after': past } }, ok));
    // A date already past means "now": no pause, where an ignored hint would be a 499 ms backoff.
    const random = jest.spyOn(Math, 'random').mockReturnValue(0.999);
    try {
      expect(await retryPauses(() => client.systemKinds.get(ID))).toEqual([0]);
    } finally {
      random.mockRestore();
    }
    expect(server.requests).toHaveLength(2);
  });

  it('a Retry-After beyond the cap is not waited for: the RateLimitError surfaces with it', async () => {
    const { server, client } = await setup(
      sequence({
        status: 429,
        headers: { 'retry-after': '120' },
        body: { error_code: 'TOO_MANY_REQUESTS', detail: 'Later.', request_id: 'r' },
      }),
    );
    const error = await client.systemKinds.get(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(120);
    expect(server.requests).toHaveLength(1);
  });

  it('a connection reset is retried for a GET', async () => {
    const { server, client } = await setup(sequence('reset', ok));
    expect(await client.systemKinds.get(ID)).toEqual(KIND);
    expect(server.requests).toHaveLength(2);
  });

  it('maxRetries: 0 per call disables retrying', async () => {
    const { server, client } = await setup(sequence(unavailable, ok));
    await expect(client.systemKinds.get(ID, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('backoff is exponential with full jitter, capped', () => {
    expect(backoffMs(0, () => 0.999)).toBe(499);
    expect(backoffMs(2, () => 0.5)).toBe(1000);
    expect(backoffMs(10, () => 0.999)).toBe(MAX_BACKOFF_MS - 8);
    expect(backoffMs(3, () => 0)).toBe(0);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', Date.parse(NOW))).toBe(30);
    expect(retryAfterSeconds('2.5')).toBe(2.5);
    expect(retryAfterSeconds('soon')).toBeUndefined();
  });
});

describe('timeouts, aborts and connection errors', () => {
  it('a stalled response times out with AideTimeoutError; a GET is retried first', async () => {
    const { server, client } = await setup(sequence('stall'), { timeoutMs: 150, maxRetries: 1 });
    const error = await client.systemKinds.get(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AideTimeoutError);
    expect(error).toBeInstanceOf(AideConnectionError);
    expect((error as AideTimeoutError).route).toBe(`GET /api/v1/system-kinds/${ID}`);
    expect(server.requests).toHaveLength(2);
  });

  it('a POST that times out is not retried; timeoutMs per call overrides the client', async () => {
    const { server, client } = await setup(sequence('stall'));
    await expect(
      client.systemKinds.create({ code: 'a', name: 'b' }, { timeoutMs: 100 }),
    ).rejects.toBeInstanceOf(AideTimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('an AbortSignal ends the call with AideUserAbortError, also during a retry delay', async () => {
    const { client } = await setup(sequence('stall'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(client.systemKinds.get(ID, { signal: controller.signal })).rejects.toBeInstanceOf(
      AideUserAbortError,
    );

    const { server: slow, client: waiting } = await setup(
      sequence({ status: 503, headers: { 'retry-after': '30' } }, ok),
    );
    // Abort once the 503 has been answered, so the abort lands in the 30 s retry delay.
    const second = new AbortController();
    const call = waiting.systemKinds.get(ID, { signal: second.signal }).catch((e: unknown) => e);
    while (slow.requests.length === 0) await new Promise((r) => setImmediate(r));
    second.abort();
    expect(await call).toBeInstanceOf(AideUserAbortError);
    expect(slow.requests).toHaveLength(1);
  });

  it('a refused connection is an AideConnectionError whose cause is the undici error', async () => {
    const server = await startLocalServer(() => ok);
    const url = server.url;
    await server.close();
    const client = new AideClient({ baseUrl: url, token: 't', maxRetries: 1 });
    const error = await client.systemKinds.get(ID).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(AideConnectionError);
    expect(error).not.toBeInstanceOf(AideTimeoutError);
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });
});

describe('responses and errors', () => {
  it('a body that does not match the contract is an AideContractError naming the route and the fields', async () => {
    const { client } = await setup(() => ({
      status: 200,
      body: { ...KIND, code: 42, created_at: 'yesterday' },
    }));
    const error = await client.systemKinds.get(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AideContractError);
    const contract = error as AideContractError;
    expect(contract.route).toBe(`GET /api/v1/system-kinds/${ID}`);
    expect(contract.issues.map((i) => i.path.join('.')).sort()).toEqual(['code', 'created_at']);
    expect(contract.message).toMatch(/SystemKind/);

    const page = await client.systemKinds.list().catch((e: unknown) => e);
    expect(page).toBeInstanceOf(AideContractError);
    expect((page as AideContractError).message).toMatch(/Page<SystemKind>/);
  });

  it('validateResponses: false hands the body over unchecked', async () => {
    const { client } = await setup(() => ({ status: 200, body: { ...KIND, code: 42 } }), {
      validateResponses: false,
    });
    expect((await client.systemKinds.get(ID)).code).toBe(42);
  });

  it('validation strips fields the contract does not know (a newer server stays compatible)', async () => {
    const { client } = await setup(() => ({ status: 200, body: { ...KIND, added_later: true } }));
    expect(await client.systemKinds.get(ID)).toEqual(KIND);
  });

  it('an error that is not the envelope (a proxy page) still maps by status', async () => {
    const { client } = await setup(
      () => ({ status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad gateway</h1>' }),
      {
        maxRetries: 0,
      },
    );
    const error = await client.systemKinds.get(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, errorCode: 'UNKNOWN', detail: '<h1>Bad gateway</h1>' });
    expect((error as InternalServerError).hasKnownCode()).toBe(false);
  });
});

describe('the wire', () => {
  it('sends the bearer token, JSON, the user agent and a request id; encodes query parameters', async () => {
    const { server, client } = await setup(
      () => ({ status: 200, body: { items: [], total: 0, page: 1, size: 10, pages: 0 } }),
      {
        userAgent: 'my-service/1.2',
      },
    );
    await client.systemKinds.list(
      {
        size: 10,
        sort: ['-created_at', 'code'],
        code__in: ['a', 'b c'],
        created_at__gte: new Date(NOW),
        include_deleted: true,
        name: undefined,
      },
      { requestId: 'trace-42' },
    );
    const [request] = server.requests;
    const url = new URL(request!.url, server.url);
    expect(url.pathname).toBe('/api/v1/system-kinds');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      size: '10',
      sort: '-created_at,code',
      code__in: 'a,b c',
      created_at__gte: NOW,
      include_deleted: 'true',
      page: '1',
    });
    expect(request!.headers).toMatchObject({
      authorization: 'Bearer static-token',
      accept: 'application/json',
      'x-request-id': 'trace-42',
      'user-agent': `my-service/1.2 aide-sdk/${VERSION} node/${process.version}`,
    });
  });

  it('refuses list values containing commas, which the server would split', async () => {
    const { client } = await setup(() => ok);
    await expect(client.systemKinds.list({ code__in: ['a,b'] })).rejects.toThrow(TypeError);
  });

  it('keeps a path prefix of the base URL and percent-encodes ids', async () => {
    const { server, client } = await setup(() => ok, { path: '/registry/' });
    await client.systemKinds.get(ID);
    await client.systemKinds.get('a/b').catch(() => undefined);
    expect(server.requests.map((r) => r.url)).toEqual([
      `/registry/api/v1/system-kinds/${ID}`,
      '/registry/api/v1/system-kinds/a%2Fb',
    ]);
  });

  it('after close() every call fails with AideError; close() is idempotent', async () => {
    const { server, client } = await setup(() => ok);
    await client.close();
    await client.close();
    const error = await client.systemKinds.get(ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AideError);
    expect((error as Error).message).toMatch(/closed/);
    expect(server.requests).toHaveLength(0);
  });

  it('checks its options', () => {
    expect(() => new AideClient({ baseUrl: 'localhost:8001', token: 't' })).toThrow(TypeError);
    expect(() => new AideClient({ baseUrl: 'http://x', token: 't', maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new AideClient({ baseUrl: 'http://x', token: 't', timeoutMs: 0 })).toThrow(/timeoutMs/);
    // @ts-expect-error a password without a username
    expect(() => new AideClient({ baseUrl: 'http://x', password: 'p' })).toThrow(TypeError);
  });
});
