// System rules: parents, restore under a deleted parent, batch create; the generic contract is in
// crud-contract.e2e-spec.ts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createCredentialRef,
  createFlavor,
  createSystem,
  ok,
  unique,
  UNKNOWN_ID,
} from '../helpers/factories.js';
import { createDataset, createSystemFor } from '../helpers/catalogue.js';
import { createTestContext, expectEnvelope, type TestContext, USER } from '../helpers/test-app.js';

describe('/api/v1/systems', () => {
  let ctx: TestContext;
  let flavorId: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    flavorId = (await createFlavor(ctx)).id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const create = (body: Record<string, unknown>) =>
    ctx.request('POST', '/api/v1/systems', { token: ctx.userToken, body });
  const countByPrefix = async (prefix: string) =>
    ok(
      await ctx.request('GET', `/api/v1/systems?code__like=${prefix}&include_deleted=true`, {
        token: ctx.adminToken,
      }),
    ).total;

  describe('parents', () => {
    it('creates a system with a credential reference, tags and extra', async () => {
      const ref = await createCredentialRef(ctx);
      const code = unique('pg');
      const system = ok(
        await create({
          code,
          name: 'Warehouse',
          flavor_id: flavorId,
          credential_ref_id: ref.id,
          tags: ['prod', 'eu'],
          extra: { host: 'db', nested: { port: 5432, tls: true } },
        }),
        201,
      );
      expect(system).toMatchObject({
        code,
        is_active: true,
        credential_ref_id: ref.id,
        tags: ['prod', 'eu'],
        extra: { host: 'db', nested: { port: 5432, tls: true } },
        created_by: USER.id,
      });
    });

    it.each([
      ['an unknown flavor', () => ({ flavor_id: UNKNOWN_ID }), 'SYSTEM_FLAVOR_NOT_FOUND'],
      [
        'an unknown credential ref',
        () => ({ flavor_id: flavorId, credential_ref_id: UNKNOWN_ID }),
        'CREDENTIAL_REF_NOT_FOUND',
      ],
    ])('refuses %s on create (404) and writes nothing', async (_what, parents, code) => {
      const key = unique('orphan');
      expectEnvelope(await create({ code: key, name: 'x', ...parents() }), 404, code);
      expect(await countByPrefix(key)).toBe(0);
    });

    it('refuses a soft-deleted flavor or credential ref, on create and update', async () => {
      const goneFlavor = await createFlavor(ctx);
      ok(await ctx.request('DELETE', `/api/v1/system-flavors/${goneFlavor.id}`, { token: ctx.adminToken }));
      const goneRef = await createCredentialRef(ctx);
      ok(await ctx.request('DELETE', `/api/v1/credential-refs/${goneRef.id}`, { token: ctx.adminToken }));

      expectEnvelope(
        await create({ code: unique('s'), name: 'x', flavor_id: goneFlavor.id }),
        404,
        'SYSTEM_FLAVOR_NOT_FOUND',
      );
      expectEnvelope(
        await create({ code: unique('s'), name: 'x', flavor_id: flavorId, credential_ref_id: goneRef.id }),
        404,
        'CREDENTIAL_REF_NOT_FOUND',
      );
      const system = await createSystem(ctx, flavorId);
      const path = `/api/v1/systems/${system.id}`;
      expectEnvelope(
        await ctx.request('PATCH', path, {
          token: ctx.userToken,
          body: { flavor_id: goneFlavor.id, row_version: 1 },
        }),
        404,
        'SYSTEM_FLAVOR_NOT_FOUND',
      );
      expectEnvelope(
        await ctx.request('PUT', path, {
          token: ctx.userToken,
          body: { credential_ref_id: goneRef.id, row_version: 1 },
        }),
        404,
        'CREDENTIAL_REF_NOT_FOUND',
      );
      expect(ok(await ctx.request('GET', path, { token: ctx.userToken })).row_version).toBe(1);
    });

    it('does not restore a system whose flavor was deleted meanwhile', async () => {
      const flavor = await createFlavor(ctx);
      const system = await createSystem(ctx, flavor.id);
      ok(await ctx.request('DELETE', `/api/v1/systems/${system.id}`, { token: ctx.adminToken }));
      ok(await ctx.request('DELETE', `/api/v1/system-flavors/${flavor.id}`, { token: ctx.adminToken }));
      expectEnvelope(
        await ctx.request('POST', `/api/v1/systems/${system.id}/restore`, { token: ctx.adminToken }),
        404,
        'SYSTEM_FLAVOR_NOT_FOUND',
      );
    });

    it('filters by flavor_id, is_active and credential_ref_id', async () => {
      const flavor = await createFlavor(ctx);
      const ref = await createCredentialRef(ctx);
      const on = await createSystem(ctx, flavor.id, { credential_ref_id: ref.id });
      const off = await createSystem(ctx, flavor.id, { is_active: false });
      const get = async (q: string) =>
        ok(await ctx.request('GET', `/api/v1/systems?${q}`, { token: ctx.userToken })).items.map(
          (s: { id: string }) => s.id,
        );
      expect((await get(`flavor_id=${flavor.id}`)).sort()).toEqual([on.id, off.id].sort());
      expect(await get(`flavor_id=${flavor.id}&is_active=false`)).toEqual([off.id]);
      expect(await get(`credential_ref_id=${ref.id}`)).toEqual([on.id]);
      expectEnvelope(
        await ctx.request('GET', '/api/v1/systems?is_active=yes', { token: ctx.userToken }),
        422,
        'VALIDATION_ERROR',
      );
    });
  });

  describe('POST /api/v1/systems/batch', () => {
    const batch = (items: unknown[], token = ctx.userToken) =>
      ctx.request('POST', '/api/v1/systems/batch', { token, body: { items } });
    const item = (code: string, extra: Record<string, unknown> = {}) => ({
      code,
      name: `S ${code}`,
      flavor_id: flavorId,
      ...extra,
    });

    it('creates every item in one call and answers {items, count} in input order', async () => {
      const prefix = unique('b');
      const codes = [`${prefix}_z`, `${prefix}_m`, `${prefix}_a`];
      const ref = await createCredentialRef(ctx);
      const r = await batch(codes.map((code, i) => item(code, i === 1 ? { credential_ref_id: ref.id } : {})));
      const body = ok(r, 201);
      expect(body.count).toBe(3);
      expect(body.items.map((s: { code: string }) => s.code)).toEqual(codes);
      expect(body.items[1]).toMatchObject({
        credential_ref_id: ref.id,
        row_version: 1,
        deleted_at: null,
        created_by: USER.id,
      });
      expect(await countByPrefix(prefix)).toBe(3);
      const one = ok(
        await ctx.request('GET', `/api/v1/systems/${body.items[0].id}`, { token: ctx.userToken }),
      );
      expect(one).toEqual(body.items[0]);
    });

    it('accepts 500 items and refuses 501 with 422 BATCH_TOO_LARGE', async () => {
      const prefix = unique('big');
      const items = Array.from({ length: 501 }, (_, i) => item(`${prefix}_${String(i).padStart(3, '0')}`));
      expectEnvelope(await batch(items), 422, 'BATCH_TOO_LARGE');
      expect(await countByPrefix(prefix)).toBe(0);
      const created = ok(await batch(items.slice(0, 500)), 201);
      expect(created.count).toBe(500);
      expect(await countByPrefix(prefix)).toBe(500);
    });

    it('refuses an empty batch and a body without items', async () => {
      expectEnvelope(await batch([]), 422, 'VALIDATION_ERROR');
      expectEnvelope(
        await ctx.request('POST', '/api/v1/systems/batch', { token: ctx.userToken, body: [item('x')] }),
        422,
        'VALIDATION_ERROR',
      );
      expectEnvelope(
        await ctx.request('POST', '/api/v1/systems/batch', {
          token: ctx.userToken,
          body: { items: [item(unique('x'))], more: 1 },
        }),
        422,
        'VALIDATION_ERROR',
      );
    });

    it.each([
      [
        'a duplicate code within the batch',
        (p: string) => [item(`${p}_1`), item(`${p}_2`), item(`${p}_1`)],
        409,
        'SYSTEM_ALREADY_EXISTS',
      ],
      [
        'an unknown flavor',
        (p: string) => [item(`${p}_1`), item(`${p}_2`, { flavor_id: UNKNOWN_ID })],
        404,
        'SYSTEM_FLAVOR_NOT_FOUND',
      ],
      [
        'an unknown credential ref',
        (p: string) => [item(`${p}_1`), item(`${p}_2`, { credential_ref_id: UNKNOWN_ID })],
        404,
        'CREDENTIAL_REF_NOT_FOUND',
      ],
      [
        'an invalid item',
        (p: string) => [item(`${p}_1`), { ...item(`${p}_2`), name: '' }],
        422,
        'VALIDATION_ERROR',
      ],
    ])('with %s answers the error and writes nothing', async (_what, items, status, code) => {
      const prefix = unique('atom');
      expectEnvelope(await batch(items(prefix)), status, code);
      expect(await countByPrefix(prefix)).toBe(0);
    });

    it('names the colliding positions of an in-batch duplicate', async () => {
      const p = unique('dup');
      const body = expectEnvelope(
        await batch([item(`${p}_1`), item(`${p}_2`), item(`${p}_1`)]),
        409,
        'SYSTEM_ALREADY_EXISTS',
      );
      expect(body.details).toMatchObject({ indexes: [0, 2] });
    });

    it('with an item clashing with an existing system answers 409 and writes nothing', async () => {
      const existing = await createSystem(ctx, flavorId);
      const prefix = unique('clash');
      expectEnvelope(await batch([item(`${prefix}_1`), item(existing.code)]), 409, 'SYSTEM_ALREADY_EXISTS');
      expect(await countByPrefix(prefix)).toBe(0);
    });
  });
  describe('GET /api/v1/systems/dataset-counts', () => {
    const counts = (query: string) =>
      ctx.request('GET', `/api/v1/systems/dataset-counts?${query}`, { token: ctx.userToken });

    it('counts the active datasets of each system asked for, in one request and in the order asked', async () => {
      const [a, b, empty, gone] = [
        await createSystemFor(ctx, 'rdbms'),
        await createSystemFor(ctx, 'rdbms'),
        await createSystemFor(ctx, 'rdbms'),
        await createSystemFor(ctx, 'rdbms'),
      ];
      for (let i = 0; i < 3; i++) await createDataset(ctx, a.id);
      const deleted = await createDataset(ctx, a.id);
      ok(await ctx.request('DELETE', `/api/v1/datasets/${deleted.id}`, { token: ctx.adminToken }));
      await createDataset(ctx, b.id);
      ok(await ctx.request('DELETE', `/api/v1/systems/${gone.id}`, { token: ctx.adminToken }));
      const body = ok(await counts(`id__in=${[b.id, a.id, empty.id, gone.id, UNKNOWN_ID].join(',')}`));
      // A deleted dataset is not counted; a deleted or unknown system is absent.
      expect(body).toEqual({
        items: [
          { system_id: b.id, dataset_count: 1 },
          { system_id: a.id, dataset_count: 3 },
          { system_id: empty.id, dataset_count: 0 },
        ],
      });
      // The same counts as the dataset list's totals.
      for (const { system_id, dataset_count } of body.items as {
        system_id: string;
        dataset_count: number;
      }[]) {
        const page = ok(
          await ctx.request('GET', `/api/v1/datasets?system_id=${system_id}&size=1`, {
            token: ctx.userToken,
          }),
        );
        expect(page.total).toBe(dataset_count);
      }
    });

    it.each([
      ['no id__in', ''],
      ['an empty list', 'id__in='],
      ['a malformed id', 'id__in=nope'],
      ['more than 100 ids', `id__in=${Array.from({ length: 101 }, () => UNKNOWN_ID).join(',')}`],
      ['an unknown key', `id__in=${UNKNOWN_ID}&size=5`],
    ])('answers 422 VALIDATION_ERROR to %s', async (_, query) => {
      expectEnvelope(await counts(query), 422, 'VALIDATION_ERROR');
    });
  });
});
