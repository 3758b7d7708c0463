import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFlavor, ok, unique } from '../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../helpers/test-app.js';

describe('Idempotency-Key on POST', () => {
  let ctx: TestContext;
  let flavorId: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    flavorId = (await createFlavor(ctx)).id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const create = (key: string | undefined, body: Record<string, unknown>, token = ctx.userToken) =>
    ctx.request('POST', '/api/v1/systems', { token, body, headers: key ? { 'idempotency-key': key } : {} });
  const countByCode = async (code: string) =>
    ok(await ctx.request('GET', `/api/v1/systems?code=${code}`, { token: ctx.userToken })).total as number;

  it('replays the first response for the same key and body, and writes once', async () => {
    const key = unique('key');
    const body = { code: unique('sys'), name: 'S', flavor_id: flavorId };
    const first = await create(key, body);
    expect(first.status).toBe(201);
    const again = await create(key, body);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countByCode(body.code)).toBe(1);
  });

  it('refuses the same key with another body (422) and writes nothing', async () => {
    const key = unique('key');
    const body = { code: unique('sys'), name: 'S', flavor_id: flavorId };
    ok(await create(key, body), 201);
    const other = { ...body, code: unique('sys') };
    expectEnvelope(await create(key, other), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await countByCode(other.code)).toBe(0);
  });

  it('frees the key of a failed request, so a corrected retry runs', async () => {
    const key = unique('key');
    const bad = { code: unique('sys'), name: 'S', flavor_id: '00000000-0000-4000-8000-00000000dead' };
    expectEnvelope(await create(key, bad), 404, 'SYSTEM_FLAVOR_NOT_FOUND');
    expect((await create(key, bad)).status).toBe(404);
    ok(await create(key, { ...bad, flavor_id: flavorId }), 201);
  });

  it('keeps keys per user and validates their shape', async () => {
    const key = unique('key');
    const body = { code: unique('sys'), name: 'S', flavor_id: flavorId };
    ok(await create(key, body), 201);
    // The same key from another user is that user's own key: it runs (and meets the duplicate code).
    expectEnvelope(await create(key, body, ctx.adminToken), 409, 'SYSTEM_ALREADY_EXISTS');
    expectEnvelope(await create('has spaces', { ...body, code: unique('sys') }), 422, 'VALIDATION_ERROR');
  });

  it('does nothing without a key: a repeated create is a duplicate', async () => {
    const body = { code: unique('sys'), name: 'S', flavor_id: flavorId };
    ok(await create(undefined, body), 201);
    expectEnvelope(await create(undefined, body), 409, 'SYSTEM_ALREADY_EXISTS');
  });
});
