// Credential-ref rules; the generic contract is in crud-contract.e2e-spec.ts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createCredentialRef, createFlavor, createSystem, ok, unique } from '../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../helpers/test-app.js';

describe('/api/v1/credential-refs', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const create = (body: Record<string, unknown>) =>
    ctx.request('POST', '/api/v1/credential-refs', { token: ctx.adminToken, body });

  it('is unique on (provider, path): the same path under another provider is fine', async () => {
    const provider = unique('vault');
    ok(await create({ provider, path: 'secret/a' }), 201);
    ok(await create({ provider, path: 'secret/b' }), 201);
    ok(await create({ provider: `${provider}x`, path: 'secret/a' }), 201);
    expectEnvelope(
      await create({ provider, path: 'secret/a', version: 2 }),
      409,
      'CREDENTIAL_REF_ALREADY_EXISTS',
    );
  });

  it('keeps version null as "latest" and refuses out-of-range versions', async () => {
    const ref = ok(await create({ provider: unique('aws'), path: 'arn:aws:secretsmanager:x' }), 201);
    expect(ref.version).toBeNull();
    for (const version of [0, -1, 2 ** 31, 2 ** 53, 1.5, '3']) {
      expectEnvelope(await create({ provider: unique('aws'), path: 'p', version }), 422, 'VALIDATION_ERROR');
    }
    ok(await create({ provider: unique('aws'), path: 'p', version: 2 ** 31 - 1 }), 201);
  });

  it('refuses to delete a reference used by an active system (409 HAS_DEPENDENT_ENTITIES)', async () => {
    const ref = await createCredentialRef(ctx);
    const system = await createSystem(ctx, (await createFlavor(ctx)).id, { credential_ref_id: ref.id });
    expectEnvelope(
      await ctx.request('DELETE', `/api/v1/credential-refs/${ref.id}`, { token: ctx.adminToken }),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
    // Unlinking the system frees the reference.
    ok(
      await ctx.request('PATCH', `/api/v1/systems/${system.id}`, {
        token: ctx.userToken,
        body: { credential_ref_id: null, row_version: 1 },
      }),
    );
    ok(await ctx.request('DELETE', `/api/v1/credential-refs/${ref.id}`, { token: ctx.adminToken }));
  });

  it('filters by provider__in and path__like', async () => {
    const p1 = unique('gcp');
    const p2 = unique('gcp');
    await createCredentialRef(ctx, { provider: p1, path: 'projects/x/secrets/alpha' });
    await createCredentialRef(ctx, { provider: p2, path: 'projects/x/secrets/beta' });
    const both = ok(
      await ctx.request('GET', `/api/v1/credential-refs?provider__in=${p1},${p2}`, { token: ctx.userToken }),
    );
    expect(both.total).toBe(2);
    const beta = ok(
      await ctx.request('GET', `/api/v1/credential-refs?provider__in=${p1},${p2}&path__like=BETA`, {
        token: ctx.userToken,
      }),
    );
    expect(beta.items.map((r: { provider: string }) => r.provider)).toEqual([p2]);
  });
});
