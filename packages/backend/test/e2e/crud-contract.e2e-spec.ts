// The generic contract of every soft-deletable collection of the foundation, table-driven:
// create/get/list/update/delete/restore, versioning, validation and authorisation.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  COLLECTIONS,
  type CollectionCase,
  createRow,
  expectAudit,
  ok,
  unique,
  UNKNOWN_ID,
  writerToken,
} from '../helpers/factories.js';
import { ADMIN, createTestContext, expectEnvelope, type TestContext, USER } from '../helpers/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe.each(COLLECTIONS)('/api/v1/$path', (c: CollectionCase) => {
  const base = `/api/v1/${c.path}`;
  const writer = () => writerToken(ctx, c);
  const writerId = () => (c.writeRole === 'user' ? USER.id : ADMIN.id);

  it('creates (201, read shape), gets (ETag) and lists (envelope)', async () => {
    const key = unique(c.key);
    const input = await c.body(ctx, key);
    const created = ok(await ctx.request('POST', base, { token: writer(), body: input }), 201);
    expect(created).toMatchObject(input);
    expectAudit(created, writerId());

    const got = await ctx.request('GET', `${base}/${created.id}`, { token: ctx.userToken });
    expect(ok(got)).toEqual(created);
    expect(got.headers.get('etag')).toBe('"1"');

    const list = ok(await ctx.request('GET', `${base}?${c.key}=${key}`, { token: ctx.userToken }));
    expect(list).toEqual({ items: [created], total: 1, page: 1, size: 50, pages: 1 });
  });

  it('answers the collection URL with and without a trailing slash, without redirecting', async () => {
    const key = unique(c.key);
    const created = await ctx.request('POST', `${base}/`, { token: writer(), body: await c.body(ctx, key) });
    expect(created.status).toBe(201);
    const plain = await ctx.request('GET', `${base}?${c.key}=${key}`, { token: ctx.userToken });
    const slashed = await ctx.request('GET', `${base}/?${c.key}=${key}`, { token: ctx.userToken });
    expect(slashed.status).toBe(200);
    expect(slashed.body).toEqual(plain.body);
    expect(plain.body.total).toBe(1);
  });

  describe('filters, sorting and paging', () => {
    const prefix = unique('flt');
    let rows: Awaited<ReturnType<typeof createRow>>[] = [];
    beforeAll(async () => {
      rows = [];
      for (const suffix of ['a', 'b', 'c']) rows.push(await createRow(ctx, c, `${prefix}_${suffix}`));
    });
    const list = async (query: string) =>
      ok(await ctx.request('GET', `${base}?${query}`, { token: ctx.userToken }));
    const keys = (page: { items: Record<string, string>[] }) => page.items.map((i) => i[c.key]);

    it('filters by equality, __like, __in', async () => {
      expect(keys(await list(`${c.key}=${prefix}_b`))).toEqual([`${prefix}_b`]);
      expect(keys(await list(`${c.key}__like=${prefix.toUpperCase()}`))).toEqual([
        `${prefix}_a`,
        `${prefix}_b`,
        `${prefix}_c`,
      ]);
      expect(keys(await list(`${c.key}__in=${prefix}_a,${prefix}_c,nope`))).toEqual([
        `${prefix}_a`,
        `${prefix}_c`,
      ]);
    });

    it('filters by created_at__gte', async () => {
      const [first, second] = rows;
      const since = encodeURIComponent(second?.created_at);
      const after = keys(await list(`${c.key}__like=${prefix}&created_at__gte=${since}`));
      expect(after).toEqual([`${prefix}_b`, `${prefix}_c`]);
      expect(after).not.toContain(first?.[c.key]);
      const future = await list(`${c.key}__like=${prefix}&created_at__gte=2999-01-01T00:00:00Z`);
      expect(future.total).toBe(0);
    });

    it('sorts descending with sort=-key', async () => {
      expect(keys(await list(`${c.key}__like=${prefix}&sort=-${c.key}`))).toEqual([
        `${prefix}_c`,
        `${prefix}_b`,
        `${prefix}_a`,
      ]);
    });

    it('pages', async () => {
      const page2 = await list(`${c.key}__like=${prefix}&sort=${c.key}&size=2&page=2`);
      expect(page2).toMatchObject({ total: 3, page: 2, size: 2, pages: 2 });
      expect(keys(page2)).toEqual([`${prefix}_c`]);
      const beyond = await list(`${c.key}__like=${prefix}&size=2&page=5`);
      expect(beyond).toMatchObject({ items: [], total: 3, page: 5, pages: 2 });
    });
  });

  it.each([
    ['an unknown query key', 'bogus=1'],
    ['a bad sort key', 'sort=hashed_password'],
    ['size=101', 'size=101'],
    ['size=0', 'size=0'],
    ['page=0', 'page=0'],
    ['a non-numeric page', 'page=abc'],
    ['an unsupported operator', 'created_at__like=2020'],
    ['a bad include_deleted', 'include_deleted=maybe'],
  ])('refuses %s in the list query with 422', async (_what, query) => {
    const r = await ctx.request('GET', `${base}?${query}`, { token: ctx.adminToken });
    const body = expectEnvelope(r, 422, 'VALIDATION_ERROR');
    expect(Array.isArray(body.details.issues)).toBe(true);
  });

  it('refuses an unknown query key on a single entity', async () => {
    const row = await createRow(ctx, c);
    expectEnvelope(
      await ctx.request('GET', `${base}/${row.id}?x=1`, { token: ctx.userToken }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it.each(['GET', 'PUT', 'PATCH', 'DELETE'])(
    '%s of an unknown id is 404 with the entity code',
    async (method) => {
      const r = await ctx.request(method, `${base}/${UNKNOWN_ID}`, {
        token: ctx.adminToken,
        ...(method === 'PUT' || method === 'PATCH' ? { body: { ...c.change, row_version: 1 } } : {}),
      });
      expectEnvelope(r, 404, c.notFound);
    },
  );

  it('restore of an unknown id is 404', async () => {
    expectEnvelope(
      await ctx.request('POST', `${base}/${UNKNOWN_ID}/restore`, { token: ctx.adminToken }),
      404,
      c.notFound,
    );
  });

  it.each([
    ['GET', ''],
    ['PATCH', ''],
    ['DELETE', ''],
    ['POST', '/restore'],
  ])('%s with a bad UUID in the path is 422', async (method, suffix) => {
    const r = await ctx.request(method, `${base}/not-a-uuid${suffix}`, {
      token: ctx.adminToken,
      ...(method === 'PATCH' ? { body: { row_version: 1 } } : {}),
    });
    expectEnvelope(r, 422, 'VALIDATION_ERROR');
  });

  it.each(['PUT', 'PATCH'])('%s updates with row_version (partial) and bumps it', async (method) => {
    const row = await createRow(ctx, c);
    const r = await ctx.request(method, `${base}/${row.id}`, {
      token: writer(),
      body: { ...c.change, row_version: 1 },
    });
    const updated = ok(r);
    expect(updated).toMatchObject({ ...c.change, id: row.id, row_version: 2, [c.key]: row[c.key] });
    expect(r.headers.get('etag')).toBe('"2"');
    expect(updated.created_at).toBe(row.created_at);
    expect(new Date(updated.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(row.updated_at).getTime());
    const got = ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken }));
    expect(got).toEqual(updated);
  });

  it('refuses a stale row_version with 409 VERSION_CONFLICT and changes nothing', async () => {
    const row = await createRow(ctx, c);
    ok(
      await ctx.request('PATCH', `${base}/${row.id}`, {
        token: writer(),
        body: { note: 'one', row_version: 1 },
      }),
    );
    const stale = await ctx.request('PATCH', `${base}/${row.id}`, {
      token: writer(),
      body: { note: 'two', row_version: 1 },
    });
    const body = expectEnvelope(stale, 409, 'VERSION_CONFLICT');
    expect(body.details).toEqual({ current_row_version: 2 });
    const got = ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken }));
    expect(got).toMatchObject({ note: 'one', row_version: 2 });
  });

  it('honours If-Match (the ETag of GET) as the row_version', async () => {
    const row = await createRow(ctx, c);
    const etag = (await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken })).headers.get(
      'etag',
    );
    expect(etag).toBe('"1"');
    const updated = await ctx.request('PATCH', `${base}/${row.id}`, {
      token: writer(),
      body: { note: 'via if-match' },
      headers: { 'if-match': etag! },
    });
    expect(ok(updated)).toMatchObject({ note: 'via if-match', row_version: 2 });
    const stale = await ctx.request('PUT', `${base}/${row.id}`, {
      token: writer(),
      body: { note: 'stale' },
      headers: { 'if-match': etag! },
    });
    expectEnvelope(stale, 409, 'VERSION_CONFLICT');
    const disagree = await ctx.request('PATCH', `${base}/${row.id}`, {
      token: writer(),
      body: { note: 'x', row_version: 2 },
      headers: { 'if-match': '"1"' },
    });
    expectEnvelope(disagree, 422, 'VALIDATION_ERROR');
    const garbage = await ctx.request('PATCH', `${base}/${row.id}`, {
      token: writer(),
      body: { note: 'x' },
      headers: { 'if-match': 'yesterday' },
    });
    expectEnvelope(garbage, 422, 'VALIDATION_ERROR');
  });

  it.each(['PUT', 'PATCH'])(
    '%s without row_version or If-Match is 428 PRECONDITION_REQUIRED',
    async (method) => {
      const row = await createRow(ctx, c);
      const r = await ctx.request(method, `${base}/${row.id}`, { token: writer(), body: c.change });
      expectEnvelope(r, 428, 'PRECONDITION_REQUIRED');
      expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken })).row_version).toBe(1);
    },
  );

  it('refuses unknown body fields and wrong types with 422 on create and update', async () => {
    const input = await c.body(ctx, unique(c.key));
    for (const body of [
      { ...input, surprise: true },
      { ...input, [c.key]: 123 },
      { ...input, note: { nested: true } },
      { ...input, [c.key]: '' },
    ]) {
      const r = await ctx.request('POST', base, { token: writer(), body });
      const envelope = expectEnvelope(r, 422, 'VALIDATION_ERROR');
      expect(envelope.details.issues.length).toBeGreaterThan(0);
    }
    const row = await createRow(ctx, c);
    for (const body of [
      { row_version: 1, surprise: true },
      { row_version: '1' },
      { row_version: 0 },
      { row_version: 1, [c.key]: ['x'] },
      { row_version: 1, id: UNKNOWN_ID },
      { row_version: 1, created_at: '2020-01-01T00:00:00Z' },
    ]) {
      expectEnvelope(
        await ctx.request('PATCH', `${base}/${row.id}`, { token: writer(), body }),
        422,
        'VALIDATION_ERROR',
      );
    }
    expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken })).row_version).toBe(1);
  });

  it('refuses a duplicate key with 409 *_ALREADY_EXISTS, on create and on update', async () => {
    const key = unique(c.key);
    const first = await createRow(ctx, c, key);
    const dup = await ctx.request('POST', base, { token: writer(), body: await c.body(ctx, key) });
    expectEnvelope(dup, 409, c.alreadyExists);
    const other = await createRow(ctx, c);
    const clash = await ctx.request('PATCH', `${base}/${other.id}`, {
      token: writer(),
      body: {
        [c.key]: first[c.key],
        ...(c.path === 'credential-refs' ? { path: first['path'] } : {}),
        row_version: 1,
      },
    });
    expectEnvelope(clash, 409, c.alreadyExists);
  });

  it('soft-deletes: delete returns the entity, hides it, include_deleted shows it, restore brings it back', async () => {
    const row = await createRow(ctx, c);
    const deleted = ok(await ctx.request('DELETE', `${base}/${row.id}`, { token: ctx.adminToken }));
    expect(deleted).toMatchObject({ id: row.id, [c.key]: row[c.key] });
    expect(deleted.deleted_at).toEqual(expect.stringMatching(/^\d{4}-/));

    expectEnvelope(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.adminToken }), 404, c.notFound);
    const hidden = ok(await ctx.request('GET', `${base}?${c.key}=${row[c.key]}`, { token: ctx.adminToken }));
    expect(hidden.total).toBe(0);
    const shown = ok(
      await ctx.request('GET', `${base}?${c.key}=${row[c.key]}&include_deleted=true`, {
        token: ctx.adminToken,
      }),
    );
    expect(shown.total).toBe(1);
    expect(shown.items[0]).toMatchObject({ id: row.id, deleted_at: deleted.deleted_at });

    expectEnvelope(
      await ctx.request('DELETE', `${base}/${row.id}`, { token: ctx.adminToken }),
      404,
      c.notFound,
    );
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${row.id}`, {
        token: ctx.adminToken,
        body: { note: 'x', row_version: 1 },
      }),
      404,
      c.notFound,
    );

    const restored = ok(await ctx.request('POST', `${base}/${row.id}/restore`, { token: ctx.adminToken }));
    expect(restored).toMatchObject({ id: row.id, deleted_at: null, row_version: 2 });
    expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken })).deleted_at).toBeNull();

    const again = await ctx.request('POST', `${base}/${row.id}/restore`, { token: ctx.adminToken });
    expectEnvelope(again, 400, 'ENTITY_NOT_DELETED');
  });

  it('allows re-creating a key after soft delete (uniqueness among active rows) and refuses restoring the clash', async () => {
    const key = unique(c.key);
    const old = await createRow(ctx, c, key);
    ok(await ctx.request('DELETE', `${base}/${old.id}`, { token: ctx.adminToken }));
    const again = await createRow(ctx, c, key);
    expect(again.id).not.toBe(old.id);
    const restore = await ctx.request('POST', `${base}/${old.id}/restore`, { token: ctx.adminToken });
    expectEnvelope(restore, 409, c.alreadyExists);
    const both = ok(
      await ctx.request('GET', `${base}?${c.key}=${key}&include_deleted=true`, { token: ctx.adminToken }),
    );
    expect(both.total).toBe(2);
  });

  it('refuses include_deleted=true, delete and restore to a regular user (403)', async () => {
    const row = await createRow(ctx, c);
    expectEnvelope(
      await ctx.request('GET', `${base}?include_deleted=true`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${row.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    ok(await ctx.request('DELETE', `${base}/${row.id}`, { token: ctx.adminToken }));
    expectEnvelope(
      await ctx.request('POST', `${base}/${row.id}/restore`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    const stillDeleted = ok(
      await ctx.request('GET', `${base}?${c.key}=${row[c.key]}&include_deleted=true`, {
        token: ctx.adminToken,
      }),
    );
    expect(stillDeleted.items[0].deleted_at).not.toBeNull();
  });

  if (c.writeRole === 'superuser') {
    it('refuses writes to a regular user (403) and writes nothing', async () => {
      const key = unique(c.key);
      const body = await c.body(ctx, key);
      expectEnvelope(await ctx.request('POST', base, { token: ctx.userToken, body }), 403, 'FORBIDDEN');
      expect(ok(await ctx.request('GET', `${base}?${c.key}=${key}`, { token: ctx.userToken })).total).toBe(0);
      const row = await createRow(ctx, c);
      for (const method of ['PUT', 'PATCH']) {
        const r = await ctx.request(method, `${base}/${row.id}`, {
          token: ctx.userToken,
          body: { ...c.change, row_version: 1 },
        });
        expectEnvelope(r, 403, 'FORBIDDEN');
      }
      expect(ok(await ctx.request('GET', `${base}/${row.id}`, { token: ctx.userToken })).row_version).toBe(1);
    });
  } else {
    it('lets a regular user write, recording who did', async () => {
      const row = await createRow(ctx, c);
      expect(row.created_by).toBe(USER.id);
      const updated = ok(
        await ctx.request('PATCH', `${base}/${row.id}`, {
          token: ctx.adminToken,
          body: { note: 'n', row_version: 1 },
        }),
      );
      expect(updated).toMatchObject({ created_by: USER.id, updated_by: ADMIN.id });
    });
  }
});
