import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource } from '../../src/database/data-source.js';
import { createTestContext, expectEnvelope, type TestContext } from '../helpers/test-app.js';

describe('system kinds (smoke)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('runs its sessions without PostgreSQL JIT unless configured (ADR 0028)', async () => {
    expect(await ctx.dataSource.query('SHOW jit')).toEqual([{ jit: 'off' }]);
    const url = ctx.config.databaseUrl;
    const withJit = createDataSource({ url, poolSize: 1, jit: true });
    await withJit.initialize();
    try {
      expect(await withJit.query('SHOW jit')).toEqual([{ jit: 'on' }]);
    } finally {
      await withJit.destroy();
    }
  });

  it('creates, reads and lists a kind', async () => {
    const created = await ctx.request('POST', '/api/v1/system-kinds', {
      token: ctx.adminToken,
      body: { code: 'rdbms', name: 'Relational' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: 'rdbms',
      name: 'Relational',
      row_version: 1,
      deleted_at: null,
    });
    const got = await ctx.request('GET', `/api/v1/system-kinds/${created.body.id}`, { token: ctx.userToken });
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe('"1"');
    const list = await ctx.request('GET', '/api/v1/system-kinds/', { token: ctx.userToken });
    expect(list.body).toMatchObject({ total: 1, page: 1, size: 50, pages: 1 });
  });

  it('refuses a regular user', async () => {
    const r = await ctx.request('POST', '/api/v1/system-kinds', {
      token: ctx.userToken,
      body: { code: 'x', name: 'x' },
    });
    expectEnvelope(r, 403, 'FORBIDDEN');
  });
});
