// The fetch mode (`fetch` option, used by browsers) against the real backend: login, reads, the error
// mapping, request ids, token renewal and timeouts go through WHATWG fetch instead of undici.
import { describe, expect, it } from '@jest/globals';
import { AideClient, AideConnectionError, AideTimeoutError, NotFoundError } from '../src/index.js';
import { backend } from './helpers/backend.js';
import { startLocalServer } from './helpers/local-server.js';

const fetchCalls: string[] = [];
const countingFetch: typeof fetch = (input, init) => {
  fetchCalls.push(`${init?.method ?? 'GET'} ${input instanceof Request ? input.url : input.toString()}`);
  return fetch(input, init);
};

function client(): AideClient {
  return new AideClient({
    baseUrl: backend.baseUrl,
    username: backend.username,
    password: backend.password,
    fetch: countingFetch,
  });
}

describe('fetch transport', () => {
  it('logs in, reads and maps errors through the given fetch', async () => {
    fetchCalls.length = 0;
    const c = client();
    const me = await c.users.me();
    expect(me.email).toBe(backend.username);
    expect(fetchCalls[0]).toMatch(/^POST .*\/api\/v1\/login$/);
    expect(fetchCalls[1]).toMatch(/^GET .*\/api\/v1\/users\/me$/);
    const error = await c.systems.get('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    await c.close();
  });

  it('renews the access token with the refresh token after a 401, without the password', async () => {
    const login = client();
    const pair = await login.auth.login();
    const c = new AideClient({ baseUrl: backend.baseUrl, token: 'not-a-valid-token', fetch: countingFetch });
    c.auth.setTokens({ access_token: 'not-a-valid-token', refresh_token: pair.refresh_token });
    fetchCalls.length = 0;
    expect((await c.users.me()).email).toBe(backend.username);
    expect(fetchCalls.map((call) => call.split(' ')[0] + ' ' + call.split('/api/v1')[1])).toEqual([
      'GET /users/me',
      'POST /login/refresh',
      'GET /users/me',
    ]);
  });

  it('times out and reports connection failures as the undici path does', async () => {
    const server = await startLocalServer(() => 'stall');
    try {
      const c = new AideClient({ baseUrl: server.url, token: 't', fetch, timeoutMs: 200, maxRetries: 0 });
      await expect(c.systems.list()).rejects.toBeInstanceOf(AideTimeoutError);
    } finally {
      await server.close();
    }
    const closed = new AideClient({ baseUrl: 'http://127.0.0.1:1', token: 't', fetch, maxRetries: 0 });
    await expect(closed.systems.list()).rejects.toBeInstanceOf(AideConnectionError);
  });
});
