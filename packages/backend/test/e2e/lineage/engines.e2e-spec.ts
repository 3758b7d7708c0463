// /engines: polymorphic on kind (debezium, ogg → cdc; spark, impala → compute), per-kind version
// whitelists, kind and code immutable, soft delete and a restore that answers the whole engine.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API } from '../../helpers/catalogue.js';
import { ok, unique, UNKNOWN_ID } from '../../helpers/factories.js';
import { createEngine, engineBody } from '../../helpers/lineage.js';
import { ADMIN, createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

const engines = `${API}/engines`;

describe('engines', () => {
  it.each([
    ['debezium', 'cdc', { envelope_template: { after_path: 'after' }, topic_routing: null }],
    ['ogg', 'cdc', { envelope_template: { after_path: 'after' }, topic_routing: null }],
    ['spark', 'compute', { runtime_opts: { executors: 4 } }],
    ['impala', 'compute', { runtime_opts: null }],
  ])('creates a %s engine with role %s and its kind attributes', async (kind, role, attributes) => {
    const body = engineBody(kind, { note: 'kept on create' });
    const created = ok(await ctx.request('POST', engines, { token: ctx.adminToken, body }), 201);
    expect(created).toEqual({
      ...attributes,
      id: expect.any(String),
      kind,
      role,
      code: body['code'],
      name: body['name'],
      version: body['version'],
      note: 'kept on create',
      row_version: 1,
      created_by: ADMIN.id,
      updated_by: ADMIN.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: null,
    });
    expect(ok(await ctx.request('GET', `${engines}/${created.id}`, { token: ctx.userToken }))).toEqual(
      created,
    );
  });

  it('lists with filters on kind, role, code and version', async () => {
    const prefix = unique('flt');
    const spark = await createEngine(ctx, 'spark', { code: `${prefix}_a` });
    const deb = await createEngine(ctx, 'debezium', { code: `${prefix}_b` });
    const ids = async (query: string) =>
      ok(
        await ctx.request('GET', `${engines}?code__like=${prefix}&${query}`, { token: ctx.userToken }),
      ).items.map((e: { id: string }) => e.id);
    expect(await ids('kind=spark')).toEqual([spark.id]);
    expect(await ids('role=cdc')).toEqual([deb.id]);
    expect(await ids('kind__in=spark,debezium&sort=code')).toEqual([spark.id, deb.id]);
    expect(await ids('version=2.x')).toEqual([deb.id]);
    expectEnvelope(
      await ctx.request('GET', `${engines}?kind=flink`, { token: ctx.userToken }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('refuses a version outside the kind whitelist with 422 ENGINE_VERSION_INVALID naming the allowed ones', async () => {
    const r = await ctx.request('POST', engines, {
      token: ctx.adminToken,
      body: engineBody('impala', { version: '3.x' }),
    });
    expect(expectEnvelope(r, 422, 'ENGINE_VERSION_INVALID').details).toEqual({
      kind: 'impala',
      version: '3.x',
      allowed: ['4.x'],
    });
    const engine = await createEngine(ctx, 'spark');
    const u = await ctx.request('PATCH', `${engines}/${engine.id}`, {
      token: ctx.adminToken,
      body: { kind: 'spark', version: '2.x', row_version: 1 },
    });
    expectEnvelope(u, 422, 'ENGINE_VERSION_INVALID');
  });

  it.each([
    ['an unknown kind', engineBody('flink')],
    ['a CDC envelope without after_path', engineBody('debezium', { envelope_template: { before: 'b' } })],
    ['a role the kind does not have', engineBody('spark', { role: 'cdc' })],
    ['compute attributes on a CDC engine', engineBody('ogg', { runtime_opts: {} })],
    ['no code', { ...engineBody('spark'), code: undefined }],
  ])('refuses %s with 422 VALIDATION_ERROR', async (_what, body) => {
    expectEnvelope(
      await ctx.request('POST', engines, { token: ctx.adminToken, body }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('refuses a duplicate active code with 409 ENGINE_CODE_ALREADY_EXISTS', async () => {
    const first = await createEngine(ctx, 'spark');
    const r = await ctx.request('POST', engines, {
      token: ctx.adminToken,
      body: engineBody('impala', { code: first.code }),
    });
    expectEnvelope(r, 409, 'ENGINE_CODE_ALREADY_EXISTS');
  });

  it('updates partially with row_version; kind is immutable (409) and code cannot change (422)', async () => {
    const engine = await createEngine(ctx, 'debezium');
    const updated = ok(
      await ctx.request('PATCH', `${engines}/${engine.id}`, {
        token: ctx.adminToken,
        body: { kind: 'debezium', version: '1.x', topic_routing: { pattern: 'x.*' }, row_version: 1 },
      }),
    );
    expect(updated).toMatchObject({
      version: '1.x',
      topic_routing: { pattern: 'x.*' },
      envelope_template: { after_path: 'after' },
      row_version: 2,
    });
    const kind = await ctx.request('PUT', `${engines}/${engine.id}`, {
      token: ctx.adminToken,
      body: { kind: 'ogg', row_version: 2 },
    });
    expect(expectEnvelope(kind, 409, 'ENGINE_KIND_IMMUTABLE').details).toEqual({ kind: 'debezium' });
    const code = await ctx.request('PATCH', `${engines}/${engine.id}`, {
      token: ctx.adminToken,
      body: { kind: 'debezium', code: 'other', row_version: 2 },
    });
    expectEnvelope(code, 422, 'VALIDATION_ERROR');
    const stale = await ctx.request('PATCH', `${engines}/${engine.id}`, {
      token: ctx.adminToken,
      body: { kind: 'debezium', name: 'x', row_version: 1 },
    });
    expectEnvelope(stale, 409, 'VERSION_CONFLICT');
  });

  it('is written by superusers only and read by any user; anonymous is 401', async () => {
    expectEnvelope(
      await ctx.request('POST', engines, { token: ctx.userToken, body: engineBody('spark') }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(await ctx.request('GET', engines, { token: null }), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('GET', `${engines}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'ENGINE_NOT_FOUND',
    );
  });

  it('soft-deletes and restores the whole polymorphic engine (the original restore could not)', async () => {
    const engine = await createEngine(ctx, 'ogg');
    const deleted = ok(await ctx.request('DELETE', `${engines}/${engine.id}`, { token: ctx.adminToken }));
    expect(deleted).toMatchObject({ id: engine.id, envelope_template: { after_path: 'after' } });
    expect(deleted.deleted_at).not.toBeNull();
    expectEnvelope(
      await ctx.request('GET', `${engines}/${engine.id}`, { token: ctx.userToken }),
      404,
      'ENGINE_NOT_FOUND',
    );
    const listed = ok(
      await ctx.request('GET', `${engines}?code=${engine.code}&include_deleted=true`, {
        token: ctx.adminToken,
      }),
    );
    expect(listed.items.map((e: { id: string }) => e.id)).toEqual([engine.id]);
    const restored = ok(
      await ctx.request('POST', `${engines}/${engine.id}/restore`, { token: ctx.adminToken }),
    );
    expect(restored).toMatchObject({
      id: engine.id,
      kind: 'ogg',
      role: 'cdc',
      envelope_template: { after_path: 'after' },
      deleted_at: null,
      row_version: 2,
    });
    expectEnvelope(
      await ctx.request('POST', `${engines}/${engine.id}/restore`, { token: ctx.adminToken }),
      400,
      'ENTITY_NOT_DELETED',
    );
  });

  it('refuses restoring an engine whose code another active engine took (409, not 500)', async () => {
    const engine = await createEngine(ctx, 'spark');
    ok(await ctx.request('DELETE', `${engines}/${engine.id}`, { token: ctx.adminToken }));
    await createEngine(ctx, 'impala', { code: engine.code });
    const r = await ctx.request('POST', `${engines}/${engine.id}/restore`, { token: ctx.adminToken });
    expectEnvelope(r, 409, 'ENGINE_CODE_ALREADY_EXISTS');
  });
});
