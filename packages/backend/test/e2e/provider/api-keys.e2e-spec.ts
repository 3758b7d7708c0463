// API keys: created by any user for themselves, shown once, stored hashed, scoped to workspaces,
// visible to their owner (and superusers), revocable at once.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { createApp } from '../../../src/app.factory.js';
import { createDataSource } from '../../../src/database/data-source.js';
import { API } from '../../helpers/catalogue.js';
import { ok, unique } from '../../helpers/factories.js';
import { createWorkspace } from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext, USER } from '../../helpers/test-app.js';
import { ApiKeysService } from '../../../src/modules/api-keys/api-keys.service.js';

describe('/api/v1/api-keys', () => {
  let ctx: TestContext;
  let service: ApiKeysService;
  beforeAll(async () => {
    ctx = await createTestContext();
    service = ctx.app.get(ApiKeysService);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const create = (body: Record<string, unknown>, token = ctx.userToken) =>
    ctx.request('POST', `${API}/api-keys`, { token, body });

  it('shows the key once and keeps only its hash', async () => {
    const ws = await createWorkspace(ctx);
    const created = ok(await create({ name: 'pipeline', workspace_ids: [ws.id, ws.id] }), 201);
    expect(created).toMatchObject({
      name: 'pipeline',
      user_id: USER.id,
      workspace_ids: [ws.id],
      revoked_at: null,
    });
    expect(created.key).toMatch(/^aidek_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const read = ok(await ctx.request('GET', `${API}/api-keys/${created.id}`, { token: ctx.userToken }));
    expect(read).not.toHaveProperty('key');
    expect(JSON.stringify(read)).not.toContain(created.key.slice(8));
    const rows: { key_hash: string }[] = await ctx.dataSource.query(
      'SELECT key_hash FROM api_keys WHERE id = $1',
      [created.id],
    );
    expect(rows[0].key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));
  });

  it('lets users see their own keys only; superusers see all', async () => {
    const ws = await createWorkspace(ctx);
    const mine = ok(await create({ name: 'mine', workspace_ids: [ws.id] }), 201);
    const admins = ok(await create({ name: 'admins', workspace_ids: [ws.id] }, ctx.adminToken), 201);
    const userList = ok(await ctx.request('GET', `${API}/api-keys?size=100`, { token: ctx.userToken }));
    expect(userList.items.every((k: { user_id: string }) => k.user_id === USER.id)).toBe(true);
    expect(userList.items.map((k: { id: string }) => k.id)).toContain(mine.id);
    expectEnvelope(
      await ctx.request('GET', `${API}/api-keys/${admins.id}`, { token: ctx.userToken }),
      404,
      'API_KEY_NOT_FOUND',
    );
    const adminList = ok(await ctx.request('GET', `${API}/api-keys?size=100`, { token: ctx.adminToken }));
    expect(adminList.items.map((k: { id: string }) => k.id)).toEqual(
      expect.arrayContaining([mine.id, admins.id]),
    );
    ok(await ctx.request('GET', `${API}/api-keys/${mine.id}`, { token: ctx.adminToken }));
  });

  it('needs existing workspaces and a future expiry; keys are not edited', async () => {
    expectEnvelope(
      await create({ name: 'k', workspace_ids: ['00000000-0000-4000-8000-0000000000aa'] }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    const ws = await createWorkspace(ctx);
    expectEnvelope(await create({ name: 'k', workspace_ids: [] }), 422, 'VALIDATION_ERROR');
    expectEnvelope(
      await create({ name: 'k', workspace_ids: [ws.id], expires_at: '2001-01-01T00:00:00Z' }),
      422,
      'VALIDATION_ERROR',
    );
    const key = ok(await create({ name: 'k', workspace_ids: [ws.id] }), 201);
    expectEnvelope(
      await ctx.request('PATCH', `${API}/api-keys/${key.id}`, {
        token: ctx.userToken,
        body: { row_version: 1 },
      }),
      405,
      'METHOD_NOT_ALLOWED',
    );
    expectEnvelope(await ctx.request('GET', `${API}/api-keys`, {}), 401, 'UNAUTHORIZED');
  });

  it('authenticates by X-API-Key or as a bearer token, until revoked (by its owner or a superuser) or expired', async () => {
    const ws = await createWorkspace(ctx);
    const key = ok(await create({ name: 'k', workspace_ids: [ws.id] }), 201);
    const asKey = (headers: Record<string, string>) =>
      ctx.request('GET', `${API}/workspaces/${ws.id}`, { token: null, headers });
    expect(ok(await asKey({ 'x-api-key': key.key })).id).toBe(ws.id);
    expect(ok(await asKey({ authorization: `Bearer ${key.key}` })).id).toBe(ws.id);
    expect(await service.verify(key.key)).toMatchObject({ user_id: USER.id, workspace_ids: [ws.id] });
    expectEnvelope(await asKey({ 'x-api-key': `${key.key}x` }), 401, 'UNAUTHORIZED');
    // Another user's key is not found for a regular user.
    const admins = ok(await create({ name: 'a', workspace_ids: [ws.id] }, ctx.adminToken), 201);
    expectEnvelope(
      await ctx.request('POST', `${API}/api-keys/${admins.id}/revoke`, { token: ctx.userToken }),
      404,
      'API_KEY_NOT_FOUND',
    );
    const revoked = ok(
      await ctx.request('POST', `${API}/api-keys/${key.id}/revoke`, { token: ctx.userToken }),
    );
    expect(revoked).toMatchObject({ revoked_by: USER.id });
    expect(revoked.revoked_at).not.toBeNull();
    expectEnvelope(await asKey({ 'x-api-key': key.key }), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('POST', `${API}/api-keys/${key.id}/revoke`, { token: ctx.adminToken }),
      409,
      'API_KEY_REVOKED',
    );
    ok(await ctx.request('POST', `${API}/api-keys/${admins.id}/revoke`, { token: ctx.adminToken }));
    const soon = ok(
      await create({
        name: 'k2',
        workspace_ids: [ws.id],
        expires_at: new Date(Date.now() + 60_000).toISOString(),
      }),
      201,
    );
    ok(await asKey({ 'x-api-key': soon.key }));
    await ctx.dataSource.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      soon.id,
    ]);
    expectEnvelope(await asKey({ 'x-api-key': soon.key }), 401, 'UNAUTHORIZED');
    expect(await service.verify(key.key)).toBeUndefined();
  });

  it('records when a key was last used, at most once a minute', async () => {
    const ws = await createWorkspace(ctx);
    const key = ok(await create({ name: 'used', workspace_ids: [ws.id] }), 201);
    const read = async () =>
      ok(await ctx.request('GET', `${API}/api-keys/${key.id}`, { token: ctx.userToken })).last_used_at;
    expect(await read()).toBeNull();
    const use = () =>
      ctx.request('GET', `${API}/workspaces/${ws.id}`, { token: null, headers: { 'x-api-key': key.key } });
    ok(await use());
    const first = await read();
    expect(first).not.toBeNull();
    ok(await use());
    expect(await read()).toBe(first);
    await ctx.dataSource.query(
      `UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE id = $1`,
      [key.id],
    );
    ok(await use());
    expect(Date.parse(await read())).toBeGreaterThanOrEqual(Date.parse(first));
  });

  it('a revocation through one replica refuses the key on the next request to another', async () => {
    // A second API process on the same database: no state about keys is kept between requests.
    const dataSource = createDataSource({ url: ctx.config.databaseUrl, poolSize: 2 });
    await dataSource.initialize();
    const other = await createApp(ctx.config, dataSource, pino({ level: 'silent' }));
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const ws = await createWorkspace(ctx);
      const key = ok(await create({ name: 'replicas', workspace_ids: [ws.id] }), 201);
      const onOther = () =>
        fetch(`http://127.0.0.1:${port}${API}/workspaces/${ws.id}/connections`, {
          headers: { 'x-api-key': key.key },
        });
      expect((await onOther()).status).toBe(200);
      ok(await ctx.request('POST', `${API}/api-keys/${key.id}/revoke`, { token: ctx.userToken }));
      const refused = await onOther();
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error_code: string }).error_code).toBe('UNAUTHORIZED');
    } finally {
      await other.close();
      await dataSource.destroy();
    }
  });

  it("stops a deactivated owner's keys at once", async () => {
    const ws = await createWorkspace(ctx);
    const email = `${unique('pipeline')}@example.com`;
    const password = 'pipeline-password-1';
    const owner = ok(
      await ctx.request('POST', `${API}/users`, {
        token: ctx.adminToken,
        body: { email, password, full_name: 'Pipeline', user_type: 'technical' },
      }),
      201,
    );
    const token = ok(await ctx.login(email, password)).access_token as string;
    const key = ok(await create({ name: 'k', workspace_ids: [ws.id] }, token), 201);
    const headers = { 'x-api-key': key.key };
    ok(await ctx.request('GET', `${API}/workspaces/${ws.id}`, { token: null, headers }));
    ok(
      await ctx.request('PATCH', `${API}/users/${owner.id}`, {
        token: ctx.adminToken,
        body: { is_active: false, row_version: owner.row_version },
      }),
    );
    expectEnvelope(
      await ctx.request('GET', `${API}/workspaces/${ws.id}`, { token: null, headers }),
      401,
      'UNAUTHORIZED',
    );
  });
});
