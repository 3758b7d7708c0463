// Races over HTTP: optimistic locking, unique keys, delete guards against concurrent child creation.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFlavor, createKind, createSystem, ok, unique } from '../helpers/factories.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
} from '../helpers/test-app.js';

const ROUNDS = 5;

const statuses = (responses: TestResponse[]) => responses.map((r) => r.status).sort();

describe('concurrency', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it.each([
    ['systems', 'user'],
    ['system-kinds', 'admin'],
  ])(
    'two PATCHes of /%s with the same row_version: exactly one 200 and one 409, every round',
    async (path, who) => {
      const token = who === 'user' ? ctx.userToken : ctx.adminToken;
      const row = path === 'systems' ? await createSystem(ctx) : await createKind(ctx);
      const url = `/api/v1/${path}/${row.id}`;
      for (let round = 1; round <= ROUNDS; round++) {
        const [a, b] = await Promise.all([
          ctx.request('PATCH', url, { token, body: { note: `a${round}`, row_version: round } }),
          ctx.request('PATCH', url, { token, body: { note: `b${round}`, row_version: round } }),
        ]);
        expect(statuses([a, b])).toEqual([200, 409]);
        const [winner, loser] = a.status === 200 ? [a, b] : [b, a];
        expect(winner.body.row_version).toBe(round + 1);
        expectEnvelope(loser, 409, 'VERSION_CONFLICT');
        const current = ok(await ctx.request('GET', url, { token }));
        expect(current).toMatchObject({ row_version: round + 1, note: winner.body.note });
      }
    },
  );

  it('a PATCH with row_version and a PUT with If-Match of the same version: one wins', async () => {
    const system = await createSystem(ctx);
    const url = `/api/v1/systems/${system.id}`;
    for (let round = 1; round <= ROUNDS; round++) {
      const responses = await Promise.all([
        ctx.request('PATCH', url, { token: ctx.userToken, body: { name: `p${round}`, row_version: round } }),
        ctx.request('PUT', url, {
          token: ctx.userToken,
          body: { name: `u${round}` },
          headers: { 'if-match': `"${round}"` },
        }),
      ]);
      expect(statuses(responses)).toEqual([200, 409]);
    }
  });

  it('two creates with the same code: one 201, one 409', async () => {
    const flavor = await createFlavor(ctx);
    for (let round = 0; round < ROUNDS; round++) {
      const code = unique('race');
      const body = { code, name: 'x', flavor_id: flavor.id };
      const responses = await Promise.all([
        ctx.request('POST', '/api/v1/systems', { token: ctx.userToken, body }),
        ctx.request('POST', '/api/v1/systems', { token: ctx.adminToken, body }),
      ]);
      expect(statuses(responses)).toEqual([201, 409]);
      expectEnvelope(
        responses.find((r) => r.status === 409)!,
        409,
        'SYSTEM_ALREADY_EXISTS',
      );
      expect(
        ok(await ctx.request('GET', `/api/v1/systems?code=${code}`, { token: ctx.userToken })).total,
      ).toBe(1);
    }
  });

  it('two batches sharing a code: one is written whole, the other not at all', async () => {
    const flavor = await createFlavor(ctx);
    for (let round = 0; round < ROUNDS; round++) {
      const p = unique('rb');
      const items = (side: string) =>
        [`${p}_${side}1`, `${p}_shared`, `${p}_${side}2`].map((code) => ({
          code,
          name: 'x',
          flavor_id: flavor.id,
        }));
      const responses = await Promise.all([
        ctx.request('POST', '/api/v1/systems/batch', { token: ctx.userToken, body: { items: items('a') } }),
        ctx.request('POST', '/api/v1/systems/batch', { token: ctx.userToken, body: { items: items('b') } }),
      ]);
      expect(statuses(responses)).toEqual([201, 409]);
      const written = ok(
        await ctx.request('GET', `/api/v1/systems?code__like=${p}`, { token: ctx.userToken }),
      );
      expect(written.total).toBe(3);
    }
  });

  it('deleting a kind while a flavor is created under it: never both succeed', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const kind = await createKind(ctx);
      const [del, create] = await Promise.all([
        ctx.request('DELETE', `/api/v1/system-kinds/${kind.id}`, { token: ctx.adminToken }),
        ctx.request('POST', '/api/v1/system-flavors', {
          token: ctx.adminToken,
          body: { code: unique('f'), name: 'x', kind_id: kind.id },
        }),
      ]);
      if (del.status === 200) expectEnvelope(create, 404, 'SYSTEM_KIND_NOT_FOUND');
      else {
        expect(create.status).toBe(201);
        expectEnvelope(del, 409, 'HAS_DEPENDENT_ENTITIES');
      }
      const flavors = ok(
        await ctx.request('GET', `/api/v1/system-flavors?kind_id=${kind.id}`, { token: ctx.adminToken }),
      );
      const kindAlive =
        (await ctx.request('GET', `/api/v1/system-kinds/${kind.id}`, { token: ctx.adminToken })).status ===
        200;
      expect(kindAlive || flavors.total === 0).toBe(true);
    }
  });

  it('deleting a flavor while a system is created on it: never both succeed', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const flavor = await createFlavor(ctx);
      const [del, create] = await Promise.all([
        ctx.request('DELETE', `/api/v1/system-flavors/${flavor.id}`, { token: ctx.adminToken }),
        ctx.request('POST', '/api/v1/systems', {
          token: ctx.userToken,
          body: { code: unique('s'), name: 'x', flavor_id: flavor.id },
        }),
      ]);
      if (del.status === 200) expectEnvelope(create, 404, 'SYSTEM_FLAVOR_NOT_FOUND');
      else {
        expect(create.status).toBe(201);
        expectEnvelope(del, 409, 'HAS_DEPENDENT_ENTITIES');
      }
    }
  });

  it('two restores of the same row: one 200, one 400 ENTITY_NOT_DELETED', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const kind = await createKind(ctx);
      ok(await ctx.request('DELETE', `/api/v1/system-kinds/${kind.id}`, { token: ctx.adminToken }));
      const responses = await Promise.all([
        ctx.request('POST', `/api/v1/system-kinds/${kind.id}/restore`, { token: ctx.adminToken }),
        ctx.request('POST', `/api/v1/system-kinds/${kind.id}/restore`, { token: ctx.adminToken }),
      ]);
      expect(statuses(responses)).toEqual([200, 400]);
      expectEnvelope(
        responses.find((r) => r.status === 400)!,
        400,
        'ENTITY_NOT_DELETED',
      );
    }
  });

  it('a delete racing an update: the update is 200 before the delete or 404 after it, never a 500', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const system = await createSystem(ctx);
      const [del, patch] = await Promise.all([
        ctx.request('DELETE', `/api/v1/systems/${system.id}`, { token: ctx.adminToken }),
        ctx.request('PATCH', `/api/v1/systems/${system.id}`, {
          token: ctx.userToken,
          body: { note: 'late', row_version: 1 },
        }),
      ]);
      expect(del.status).toBe(200);
      expect([200, 404]).toContain(patch.status);
      if (patch.status === 404) expectEnvelope(patch, 404, 'SYSTEM_NOT_FOUND');
    }
  });
});
