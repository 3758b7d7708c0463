// Flavor-specific rules (parent kind, delete guard); the generic contract is in crud-contract.e2e-spec.ts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFlavor, createKind, createSystem, ok, unique, UNKNOWN_ID } from '../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../helpers/test-app.js';

describe('/api/v1/system-flavors', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const create = (body: Record<string, unknown>) =>
    ctx.request('POST', '/api/v1/system-flavors', { token: ctx.adminToken, body });

  it('creates a flavor with vendor and versions under a kind', async () => {
    const kind = await createKind(ctx);
    const code = unique('pg');
    const flavor = ok(
      await create({ code, name: 'PostgreSQL', vendor: 'PGDG', versions: ['16', '17'], kind_id: kind.id }),
      201,
    );
    expect(flavor).toMatchObject({ code, vendor: 'PGDG', versions: ['16', '17'], kind_id: kind.id });
  });

  it('refuses an unknown kind with 404 SYSTEM_KIND_NOT_FOUND and writes nothing', async () => {
    const code = unique('orphan');
    expectEnvelope(await create({ code, name: 'x', kind_id: UNKNOWN_ID }), 404, 'SYSTEM_KIND_NOT_FOUND');
    expect(
      ok(
        await ctx.request('GET', `/api/v1/system-flavors?code=${code}&include_deleted=true`, {
          token: ctx.adminToken,
        }),
      ).total,
    ).toBe(0);
  });

  it('refuses a soft-deleted kind on create and on update', async () => {
    const deletedKind = await createKind(ctx);
    ok(await ctx.request('DELETE', `/api/v1/system-kinds/${deletedKind.id}`, { token: ctx.adminToken }));
    expectEnvelope(
      await create({ code: unique('f'), name: 'x', kind_id: deletedKind.id }),
      404,
      'SYSTEM_KIND_NOT_FOUND',
    );

    const flavor = await createFlavor(ctx);
    const moved = await ctx.request('PATCH', `/api/v1/system-flavors/${flavor.id}`, {
      token: ctx.adminToken,
      body: { kind_id: deletedKind.id, row_version: 1 },
    });
    expectEnvelope(moved, 404, 'SYSTEM_KIND_NOT_FOUND');
    const moveUnknown = await ctx.request('PUT', `/api/v1/system-flavors/${flavor.id}`, {
      token: ctx.adminToken,
      body: { kind_id: UNKNOWN_ID, row_version: 1 },
    });
    expectEnvelope(moveUnknown, 404, 'SYSTEM_KIND_NOT_FOUND');
  });

  it('moves a flavor to another active kind', async () => {
    const flavor = await createFlavor(ctx);
    const other = await createKind(ctx);
    const moved = ok(
      await ctx.request('PATCH', `/api/v1/system-flavors/${flavor.id}`, {
        token: ctx.adminToken,
        body: { kind_id: other.id, row_version: 1 },
      }),
    );
    expect(moved.kind_id).toBe(other.id);
  });

  it('refuses to delete a flavor used by an active system (409 HAS_DEPENDENT_ENTITIES)', async () => {
    const flavor = await createFlavor(ctx);
    const system = await createSystem(ctx, flavor.id);
    expectEnvelope(
      await ctx.request('DELETE', `/api/v1/system-flavors/${flavor.id}`, { token: ctx.adminToken }),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
    ok(await ctx.request('DELETE', `/api/v1/systems/${system.id}`, { token: ctx.adminToken }));
    ok(await ctx.request('DELETE', `/api/v1/system-flavors/${flavor.id}`, { token: ctx.adminToken }));
  });

  it('does not restore a flavor under a deleted kind (404 SYSTEM_KIND_NOT_FOUND)', async () => {
    const kind = await createKind(ctx);
    const flavor = await createFlavor(ctx, kind.id);
    ok(await ctx.request('DELETE', `/api/v1/system-flavors/${flavor.id}`, { token: ctx.adminToken }));
    ok(await ctx.request('DELETE', `/api/v1/system-kinds/${kind.id}`, { token: ctx.adminToken }));
    expectEnvelope(
      await ctx.request('POST', `/api/v1/system-flavors/${flavor.id}/restore`, { token: ctx.adminToken }),
      404,
      'SYSTEM_KIND_NOT_FOUND',
    );
    ok(await ctx.request('POST', `/api/v1/system-kinds/${kind.id}/restore`, { token: ctx.adminToken }));
    expect(
      ok(await ctx.request('POST', `/api/v1/system-flavors/${flavor.id}/restore`, { token: ctx.adminToken }))
        .deleted_at,
    ).toBeNull();
  });

  it('filters by kind_id and kind_id__in', async () => {
    const k1 = await createKind(ctx);
    const k2 = await createKind(ctx);
    const f1 = await createFlavor(ctx, k1.id);
    const f2 = await createFlavor(ctx, k2.id);
    const byKind = ok(
      await ctx.request('GET', `/api/v1/system-flavors?kind_id=${k1.id}`, { token: ctx.userToken }),
    );
    expect(byKind.items.map((f: { id: string }) => f.id)).toEqual([f1.id]);
    const both = ok(
      await ctx.request('GET', `/api/v1/system-flavors?kind_id__in=${k1.id},${k2.id}&sort=code`, {
        token: ctx.userToken,
      }),
    );
    expect(both.items.map((f: { id: string }) => f.id).sort()).toEqual([f1.id, f2.id].sort());
    expectEnvelope(
      await ctx.request('GET', '/api/v1/system-flavors?kind_id=nope', { token: ctx.userToken }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('refuses more than 100 versions and a missing kind_id with 422', async () => {
    const kind = await createKind(ctx);
    const versions = Array.from({ length: 101 }, (_, i) => String(i));
    expectEnvelope(
      await create({ code: unique('f'), name: 'x', kind_id: kind.id, versions }),
      422,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await create({ code: unique('f'), name: 'x' }), 422, 'VALIDATION_ERROR');
    expectEnvelope(
      await create({ code: unique('f'), name: 'x', kind_id: 'not-a-uuid' }),
      422,
      'VALIDATION_ERROR',
    );
  });
});
