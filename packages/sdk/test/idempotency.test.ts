// Idempotency-Key against the real backend: replay of a keyed POST, refusal of a reused key, and the
// case keys exist for — a create whose answer is lost on the way back is retried without a duplicate.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AideClient, AideConnectionError, ValidationError } from '../src/index.js';
import { adminClient, backend, unique } from './helpers/backend.js';
import { startFaultyProxy, type FaultyProxy } from './helpers/local-server.js';

const KINDS = '/api/v1/system-kinds';
let admin: AideClient;

beforeAll(() => {
  admin = adminClient();
});

afterAll(async () => {
  await admin.close();
});

describe('Idempotency-Key', () => {
  it('the same key and body replays the first answer; another body with the key is refused', async () => {
    const key = randomUUID();
    const body = { code: unique('idem'), name: 'Once' };
    const first = await admin.systemKinds.create(body, { idempotencyKey: key });
    const again = await admin.systemKinds.create(body, { idempotencyKey: key });
    expect(again).toEqual(first);
    expect((await admin.systemKinds.list({ code: body.code })).total).toBe(1);

    const error = await admin.systemKinds
      .create({ code: unique('idem'), name: 'Other' }, { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, errorCode: 'IDEMPOTENCY_KEY_REUSED' });
  });

  describe('a create whose response is lost', () => {
    let proxy: FaultyProxy;
    let client: AideClient;

    beforeAll(async () => {
      // Every other create reaches the server, which commits it, but its answer is dropped on the way back.
      proxy = await startFaultyProxy(backend.baseUrl, (method, path, index) => {
        if (method !== 'POST' || path !== KINDS) return false;
        const earlier = proxy.requests.slice(0, index).filter((r) => r === `POST ${KINDS}`).length;
        return earlier % 2 === 0;
      });
      client = new AideClient({ baseUrl: proxy.url, username: backend.username, password: backend.password });
    });

    afterAll(async () => {
      await client.close();
      await proxy.close();
    });

    it('with a key: retried, and the server replays the created entity', async () => {
      const code = unique('lost');
      const kind = await client.systemKinds.create(
        { code, name: 'Lost answer' },
        { idempotencyKey: randomUUID() },
      );
      expect(kind.code).toBe(code);
      expect(proxy.requests.filter((r) => r === `POST ${KINDS}`)).toHaveLength(2);
      expect((await admin.systemKinds.list({ code })).total).toBe(1);
    });

    it('without a key: not retried — the caller gets the connection error though the kind exists', async () => {
      const code = unique('lost');
      const error = await client.systemKinds.create({ code, name: 'Lost answer' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AideConnectionError);
      expect((await admin.systemKinds.list({ code })).total).toBe(1);
    });
  });
});
