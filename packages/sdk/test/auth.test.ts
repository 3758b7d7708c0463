import type { TokenPair } from '@aide/schemas';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { AideClient, AuthenticationError } from '../src/index.js';
import {
  adminClient,
  backend,
  clientFor,
  createUser,
  recordingDispatcher,
  resignAccessToken,
} from './helpers/backend.js';

const LOGIN = 'POST /api/v1/login';
const REFRESH = 'POST /api/v1/login/refresh';
const ME = 'GET /api/v1/users/me';

let admin: AideClient;
/** A token pair of the superuser, to re-sign (a login costs a bcrypt hash: they are kept few). */
let adminPair: TokenPair;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  admin = adminClient();
  adminPair = await admin.auth.login();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(async () => {
  await admin.close();
});

/** A client of `credentials` whose requests are recorded. */
function recorded(credentials: { username: string; password: string }) {
  const recorder = recordingDispatcher();
  const client = clientFor(credentials, { dispatcher: recorder.dispatcher });
  cleanups.push(async () => {
    await client.close();
    await recorder.close();
  });
  return { client, recorder };
}

describe('login', () => {
  it('is lazy: nothing is sent until the first call, which logs in once', async () => {
    const { client, recorder } = recorded({ username: backend.username, password: backend.password });
    expect(recorder.requests).toEqual([]);
    await client.users.me();
    await client.users.me();
    expect(recorder.requests).toEqual([LOGIN, ME, ME]);
  });

  it('is shared by concurrent first calls', async () => {
    const { client, recorder } = recorded({ username: backend.username, password: backend.password });
    await Promise.all(Array.from({ length: 10 }, () => client.users.me()));
    expect(recorder.count(LOGIN)).toBe(1);
    expect(recorder.count(ME)).toBe(10);
  });

  it('a wrong password surfaces as AuthenticationError INVALID_CREDENTIALS', async () => {
    const client = clientFor({ username: 'nobody@example.com', password: 'wrong-password' });
    cleanups.push(() => client.close());
    const error = await client.users.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, errorCode: 'INVALID_CREDENTIALS' });
  });
});

describe('renewal on 401', () => {
  it('an expired access token is refreshed once and the call retried', async () => {
    const { client, recorder } = recorded({ username: backend.username, password: backend.password });
    const pair = await client.auth.login();
    // The same token re-signed: valid when not expired (so the 401 below is the expiry)...
    const valid = new AideClient({
      baseUrl: backend.baseUrl,
      token: resignAccessToken(pair.access_token, 600),
    });
    cleanups.push(() => valid.close());
    expect((await valid.users.me()).email).toBe(backend.username);

    // ...and expired.
    client.auth.setTokens({ access_token: resignAccessToken(pair.access_token, -60) });
    const me = await client.users.me();
    expect(me.email).toBe(backend.username);
    expect(recorder.requests).toEqual([LOGIN, ME, REFRESH, ME]);
  });

  it('twenty concurrent calls failing with the same expired token share one refresh', async () => {
    const { client, recorder } = recorded({ username: backend.username, password: backend.password });
    const pair = await client.auth.login();
    client.auth.setTokens({ access_token: resignAccessToken(pair.access_token, -60) });
    const results = await Promise.all(Array.from({ length: 20 }, () => client.users.me()));
    expect(results.every((u) => u.email === backend.username)).toBe(true);
    expect(recorder.count(REFRESH)).toBe(1);
    expect(recorder.count(LOGIN)).toBe(1);
    // Each call: one 401 with the expired token, one success with the new one.
    expect(recorder.count(ME)).toBe(40);
  });

  it('when the refresh token is refused (logout-all elsewhere), it logs in again', async () => {
    const credentials = await createUser(admin);
    const { client, recorder } = recorded(credentials);
    await client.users.me();

    // Another session of the same user ends them all: access and refresh tokens.
    const other = clientFor(credentials);
    await other.auth.logoutAll();
    await other.close();

    expect((await client.users.me()).email).toBe(credentials.username);
    expect(recorder.requests).toEqual([LOGIN, ME, ME, REFRESH, LOGIN, ME]);
  });

  it('an initial token with credentials: renewed by logging in', async () => {
    const pair = adminPair;
    const recorder = recordingDispatcher();
    const client = new AideClient({
      baseUrl: backend.baseUrl,
      username: backend.username,
      password: backend.password,
      token: resignAccessToken(pair.access_token, -60),
      dispatcher: recorder.dispatcher,
    });
    cleanups.push(async () => {
      await client.close();
      await recorder.close();
    });
    await client.users.me();
    expect(recorder.requests).toEqual([ME, LOGIN, ME]);
  });

  it('a static token without credentials is never renewed: the 401 surfaces', async () => {
    const pair = adminPair;
    const recorder = recordingDispatcher();
    const client = new AideClient({
      baseUrl: backend.baseUrl,
      token: resignAccessToken(pair.access_token, -60),
      dispatcher: recorder.dispatcher,
    });
    cleanups.push(async () => {
      await client.close();
      await recorder.close();
    });
    const error = await client.users.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED' });
    expect(recorder.requests).toEqual([ME]);
  });
});

describe('client.auth', () => {
  it('refresh rotates the tokens; logout revokes the refresh token and the next call logs in again', async () => {
    // A user of its own: presenting a rotated-out refresh token below ends all of the user's sessions.
    const credentials = await createUser(admin);
    const { client, recorder } = recorded(credentials);
    const first = await client.auth.login();
    const second = await client.auth.refresh();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.token_type).toBe('bearer');
    expect(second.expires_in).toBeGreaterThan(0);

    await client.auth.logout();
    await client.users.me();
    expect(recorder.requests).toEqual([LOGIN, REFRESH, 'POST /api/v1/login/logout', LOGIN, ME]);

    // The rotated-out token is refused.
    const stale = new AideClient({ baseUrl: backend.baseUrl, token: first.access_token });
    cleanups.push(() => stale.close());
    stale.auth.setTokens({ access_token: first.access_token, refresh_token: first.refresh_token });
    await expect(stale.auth.refresh()).rejects.toMatchObject({
      status: 401,
      errorCode: 'REFRESH_TOKEN_REVOKED',
    });
  });

  it('login with other credentials switches the user', async () => {
    const credentials = await createUser(admin);
    const { client } = recorded({ username: backend.username, password: backend.password });
    expect((await client.users.me()).email).toBe(backend.username);
    await client.auth.login(credentials);
    expect((await client.users.me()).email).toBe(credentials.username);
  });
});
