// Issue 22, items 2 and 3 (ADR 0020, amendment): an API key is a narrow machine credential. On the
// registry routes it sees and changes only its workspaces (reads by id, lists, filters, writes,
// restores); it never administers users, keys or reference data; it reaches the shared catalogue only
// with a scope granted when it was created.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, datasetBody, seedReference } from '../../helpers/catalogue.js';
import { ok, unique } from '../../helpers/factories.js';
import {
  copyBody,
  createDataflowRequest,
  createWorkspace,
  type PipelineFixture,
  pipelineFixture,
} from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext, USER } from '../../helpers/test-app.js';

describe('API keys on the registry routes', () => {
  let ctx: TestContext;
  let w1: PipelineFixture;
  let w2: PipelineFixture;
  let flow1: { id: string };
  let flow2: { id: string };
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    w1 = await pipelineFixture(ctx);
    w2 = await pipelineFixture(ctx);
    flow1 = ok(await createDataflowRequest(ctx, copyBody(w1)), 201);
    flow2 = ok(await createDataflowRequest(ctx, copyBody(w2)), 201);
  });
  afterAll(() => ctx.close());

  const newKey = async (
    workspaceIds: string[],
    options: { token?: string; scopes?: string[] } = {},
  ): Promise<{ id: string; key: string; scopes: string[] }> =>
    ok(
      await ctx.request('POST', `${API}/api-keys`, {
        token: options.token ?? ctx.userToken,
        body: { name: unique('key'), workspace_ids: workspaceIds, scopes: options.scopes },
      }),
      201,
    );
  const asKey = (key: string, method: string, path: string, body?: unknown) =>
    ctx.request(method, path, { token: null, headers: { 'x-api-key': key }, body });

  it("reads, lists and filters only the key's workspaces: another workspace is 403", async () => {
    const { key } = await newKey([w1.workspace.id]);
    const cases: [string, string][] = [
      [`workspaces/${w1.workspace.id}`, `workspaces/${w2.workspace.id}`],
      [`connection-profiles/${w1.erp.id}`, `connection-profiles/${w2.erp.id}`],
      [`dataflows/${flow1.id}`, `dataflows/${flow2.id}`],
    ];
    for (const [mine, theirs] of cases) {
      ok(await asKey(key, 'GET', `${API}/${mine}`));
      const refused = expectEnvelope(await asKey(key, 'GET', `${API}/${theirs}`), 403, 'FORBIDDEN');
      expect(refused.details).toEqual({ workspace_id: w2.workspace.id });
    }

    const workspaces = ok(await asKey(key, 'GET', `${API}/workspaces?size=100`));
    expect(workspaces.items.map((w: { id: string }) => w.id)).toEqual([w1.workspace.id]);
    expect(workspaces.total).toBe(1);
    // A filter that matches other workspaces still answers the key's only.
    const byCode = ok(await asKey(key, 'GET', `${API}/workspaces?code__like=ws`));
    expect(byCode.items.map((w: { id: string }) => w.id)).toEqual([w1.workspace.id]);

    for (const collection of ['connection-profiles', 'dataflows']) {
      const page = ok(await asKey(key, 'GET', `${API}/${collection}?size=100`));
      expect(page.items.length).toBeGreaterThan(0);
      expect(new Set(page.items.map((r: { workspace_id: string }) => r.workspace_id))).toEqual(
        new Set([w1.workspace.id]),
      );
      ok(await asKey(key, 'GET', `${API}/${collection}?workspace_id=${w1.workspace.id}`));
      for (const filter of [
        `workspace_id=${w2.workspace.id}`,
        `workspace_id__in=${w1.workspace.id},${w2.workspace.id}`,
      ]) {
        expectEnvelope(await asKey(key, 'GET', `${API}/${collection}?${filter}`), 403, 'FORBIDDEN');
      }
    }
    // A token still lists every workspace.
    const all = ok(await ctx.request('GET', `${API}/dataflows?size=100`, { token: ctx.userToken }));
    expect(all.items.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([flow1.id, flow2.id]));
  });

  it("changes and restores only the key's workspaces, even a superuser's key", async () => {
    const spare = await createWorkspace(ctx);
    const { key } = await newKey([w1.workspace.id], { token: ctx.adminToken });
    ok(await ctx.request('DELETE', `${API}/workspaces/${spare.id}`, { token: ctx.adminToken }));
    expectEnvelope(await asKey(key, 'POST', `${API}/workspaces/${spare.id}/restore`), 403, 'FORBIDDEN');
    const still = ok(
      await ctx.request('GET', `${API}/workspaces?include_deleted=true&code=${spare.code}`, {
        token: ctx.adminToken,
      }),
    );
    expect(still.items[0].deleted_at).not.toBeNull();
    const patch = { name: 'renamed', row_version: w2.workspace.row_version };
    expectEnvelope(
      await asKey(key, 'PATCH', `${API}/workspaces/${w2.workspace.id}`, patch),
      403,
      'FORBIDDEN',
    );

    // Within its workspace the key still writes: the DataCoolie routes and the registry's alike.
    const mine = await createWorkspace(ctx);
    const scoped = await newKey([mine.id], { token: ctx.adminToken });
    ok(await ctx.request('DELETE', `${API}/workspaces/${mine.id}`, { token: ctx.adminToken }));
    const restored = ok(await asKey(scoped.key, 'POST', `${API}/workspaces/${mine.id}/restore`));
    expect(restored.deleted_at).toBeNull();
    const renamed = { name: 'renamed by its key', row_version: restored.row_version };
    expect(ok(await asKey(scoped.key, 'PATCH', `${API}/workspaces/${mine.id}`, renamed)).name).toBe(
      'renamed by its key',
    );
  });

  it('never administers users: a superuser key creates no user, changes no password', async () => {
    const { key } = await newKey([w1.workspace.id], { token: ctx.adminToken });
    const email = `${unique('escalated')}@example.com`;
    const body = { email, password: 'escalated-password-1', full_name: 'Escalated', is_superuser: true };
    const refused = expectEnvelope(await asKey(key, 'POST', `${API}/users`, body), 403, 'API_KEY_FORBIDDEN');
    expect(refused.details).toBeUndefined();
    expectEnvelope(await ctx.login(email, 'escalated-password-1'), 401, 'INVALID_CREDENTIALS');
    expectEnvelope(await asKey(key, 'GET', `${API}/users`), 403, 'API_KEY_FORBIDDEN');
    expectEnvelope(await asKey(key, 'GET', `${API}/users/me`), 403, 'API_KEY_FORBIDDEN');
    expectEnvelope(
      await asKey(key, 'PATCH', `${API}/users/me`, { password: 'taken-over-password-1', row_version: 1 }),
      403,
      'API_KEY_FORBIDDEN',
    );
    expectEnvelope(await asKey(key, 'POST', `${API}/login/logout-all`), 403, 'API_KEY_FORBIDDEN');
  });

  it("never manages keys: neither another user's nor its owner's other keys", async () => {
    const adminKey = await newKey([w1.workspace.id], { token: ctx.adminToken });
    const usersW2 = await newKey([w2.workspace.id]);
    const usersW1 = await newKey([w1.workspace.id]);
    for (const [holder, target] of [
      [adminKey, usersW2],
      [usersW1, usersW2],
    ] as const) {
      expectEnvelope(
        await asKey(holder.key, 'POST', `${API}/api-keys/${target.id}/revoke`),
        403,
        'API_KEY_FORBIDDEN',
      );
    }
    expectEnvelope(await asKey(usersW1.key, 'GET', `${API}/api-keys`), 403, 'API_KEY_FORBIDDEN');
    expectEnvelope(
      await asKey(usersW1.key, 'GET', `${API}/api-keys/${usersW2.id}`),
      403,
      'API_KEY_FORBIDDEN',
    );
    expectEnvelope(
      await asKey(usersW1.key, 'POST', `${API}/api-keys`, {
        name: 'minted',
        workspace_ids: [w1.workspace.id],
      }),
      403,
      'API_KEY_FORBIDDEN',
    );
    // The target key was not revoked: it still works in its workspace.
    ok(await asKey(usersW2.key, 'GET', `${API}/workspaces/${w2.workspace.id}`));
    const owned = ok(await ctx.request('GET', `${API}/api-keys/${usersW2.id}`, { token: ctx.userToken }));
    expect(owned).toMatchObject({ user_id: USER.id, revoked_at: null });
  });

  it('reaches the shared catalogue only with the scope granted at creation', async () => {
    const bare = await newKey([w1.workspace.id], { token: ctx.adminToken });
    expect(bare.scopes).toEqual([]);
    const reader = await newKey([w1.workspace.id], { token: ctx.adminToken, scopes: ['catalogue:read'] });
    const writer = await newKey([w1.workspace.id], {
      token: ctx.adminToken,
      scopes: ['catalogue:write', 'catalogue:read'],
    });
    expect(writer.scopes).toEqual(['catalogue:write', 'catalogue:read']);
    expect(
      ok(await ctx.request('GET', `${API}/api-keys/${writer.id}`, { token: ctx.adminToken })).scopes,
    ).toEqual(writer.scopes);

    const read = (key: string) => asKey(key, 'GET', `${API}/systems/${w1.pgSystem.id}`);
    expect(expectEnvelope(await read(bare.key), 403, 'API_KEY_FORBIDDEN').details).toEqual({
      required_scope: 'catalogue:read',
    });
    expect(ok(await read(reader.key)).id).toBe(w1.pgSystem.id);
    expectEnvelope(await asKey(bare.key, 'GET', `${API}/system-flavors`), 403, 'API_KEY_FORBIDDEN');
    ok(await asKey(reader.key, 'GET', `${API}/system-flavors`));

    const create = (key: string) =>
      asKey(key, 'POST', `${API}/datasets`, datasetBody('rdbms', w1.pgSystem.id));
    expect(expectEnvelope(await create(reader.key), 403, 'API_KEY_FORBIDDEN').details).toEqual({
      required_scope: 'catalogue:write',
    });
    const created = ok(await create(writer.key), 201);
    // Deletes of shared rows and reference-data administration are no key's, whatever its scopes.
    expectEnvelope(
      await asKey(writer.key, 'DELETE', `${API}/datasets/${created.id}`),
      403,
      'API_KEY_FORBIDDEN',
    );
    expectEnvelope(
      await asKey(writer.key, 'POST', `${API}/system-kinds`, { code: unique('kind'), name: 'Kind' }),
      403,
      'API_KEY_FORBIDDEN',
    );
    // A token is not concerned by key scopes.
    ok(await ctx.request('GET', `${API}/systems/${w1.pgSystem.id}`, { token: ctx.userToken }));
    ok(await ctx.request('GET', `${API}/datasets/${created.id}`, { token: ctx.userToken }));
    expectEnvelope(
      await ctx.request('POST', `${API}/api-keys`, {
        token: ctx.userToken,
        body: { name: 'k', workspace_ids: [w1.workspace.id], scopes: ['users:admin'] },
      }),
      422,
      'VALIDATION_ERROR',
    );
  });
});
