// Kind-specific rules; the generic contract is in crud-contract.e2e-spec.ts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFlavor, createKind, ok } from '../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../helpers/test-app.js';

describe('/api/v1/system-kinds', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('refuses to delete a kind with active flavors (409 HAS_DEPENDENT_ENTITIES), allows it once they are deleted', async () => {
    const kind = await createKind(ctx);
    const flavor = await createFlavor(ctx, kind.id);
    expectEnvelope(
      await ctx.request('DELETE', `/api/v1/system-kinds/${kind.id}`, { token: ctx.adminToken }),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
    expect(
      ok(await ctx.request('GET', `/api/v1/system-kinds/${kind.id}`, { token: ctx.userToken })).deleted_at,
    ).toBeNull();

    ok(await ctx.request('DELETE', `/api/v1/system-flavors/${flavor.id}`, { token: ctx.adminToken }));
    const deleted = ok(
      await ctx.request('DELETE', `/api/v1/system-kinds/${kind.id}`, { token: ctx.adminToken }),
    );
    expect(deleted).toMatchObject({ id: kind.id, code: kind.code });
    expect(deleted.deleted_at).not.toBeNull();
  });

  it('lets a superuser rename the code, which frees the old one', async () => {
    const kind = await createKind(ctx);
    const renamed = ok(
      await ctx.request('PUT', `/api/v1/system-kinds/${kind.id}`, {
        token: ctx.adminToken,
        body: { code: `${kind.code}_v2`, row_version: 1 },
      }),
    );
    expect(renamed).toMatchObject({ code: `${kind.code}_v2`, name: kind.name, row_version: 2 });
    // The old code is free again.
    await createKind(ctx, { code: kind.code });
  });

  it('filters by name__like and sorts by name', async () => {
    const a = await createKind(ctx, { name: 'Zeta relational family' });
    const b = await createKind(ctx, { name: 'Alpha relational family' });
    const list = ok(
      await ctx.request('GET', '/api/v1/system-kinds?name__like=relational%20family&sort=name', {
        token: ctx.userToken,
      }),
    );
    expect(list.items.map((k: { id: string }) => k.id)).toEqual([b.id, a.id]);
  });

  it('stores and clears the note', async () => {
    const kind = await createKind(ctx, { note: 'first' });
    expect(kind.note).toBe('first');
    const cleared = ok(
      await ctx.request('PATCH', `/api/v1/system-kinds/${kind.id}`, {
        token: ctx.adminToken,
        body: { note: null, row_version: 1 },
      }),
    );
    expect(cleared.note).toBeNull();
  });
});
