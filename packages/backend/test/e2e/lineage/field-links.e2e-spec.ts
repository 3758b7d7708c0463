// Field links: column lineage inside a dataset link with the original's checks (AIDE v2 §4.9), several
// sources per target (ADR 0052), the nested routes, an all-or-nothing bulk that refuses duplicates inside
// the batch (409, not 500), and the flat /field-links collection.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createField, createPgSystem, type Row, seedReference } from '../../helpers/catalogue.js';
import { ok, UNKNOWN_ID } from '../../helpers/factories.js';
import { createLink, type VersionedDataset, versionedDataset } from '../../helpers/lineage.js';
import { createTestContext, expectEnvelope, type TestContext, USER } from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const COLUMNS: [string, string][] = [
  ['id', 'integer'],
  ['name', 'text'],
  ['email', 'text'],
];

interface Hop {
  source: VersionedDataset;
  target: VersionedDataset;
  link: Row;
  path: string;
}

async function hop(): Promise<Hop> {
  const source = await versionedDataset(ctx, system.id, 'source', COLUMNS);
  const target = await versionedDataset(ctx, system.id, 'raw', COLUMNS);
  const link = await createLink(ctx, source, target);
  return { source, target, link, path: `${API}/dataset-links/${link.id}/field-links` };
}

const ends = (h: Hop, from: string, to: string) => ({
  source_field_id: h.source.fields.get(from),
  target_field_id: h.target.fields.get(to),
});
const post = (h: Hop, body: unknown, suffix = '') =>
  ctx.request('POST', `${h.path}${suffix}`, { token: ctx.userToken, body });
const count = async (h: Hop) =>
  ok(await ctx.request('GET', h.path, { token: ctx.userToken })).length as number;

describe('field links', () => {
  it('creates under the link (any user), lists, gets and lists the flat collection', async () => {
    const h = await hop();
    const created = ok(await post(h, { ...ends(h, 'id', 'id'), note: 'pk' }), 201);
    expect(created).toMatchObject({
      dataset_link_id: h.link.id,
      ...ends(h, 'id', 'id'),
      note: 'pk',
      row_version: 1,
      created_by: USER.id,
    });
    expect(ok(await ctx.request('GET', h.path, { token: ctx.userToken }))).toEqual([created]);
    expect(
      ok(await ctx.request('GET', `${API}/field-links/${created.id}`, { token: ctx.userToken })),
    ).toEqual(created);
    const flat = ok(
      await ctx.request('GET', `${API}/field-links?dataset_link_id=${h.link.id}`, { token: ctx.userToken }),
    );
    expect(flat.items).toEqual([created]);
    // The path names the link; a body value is ignored (the original's behaviour).
    const other = ok(await post(h, { ...ends(h, 'name', 'name'), dataset_link_id: UNKNOWN_ID }), 201);
    expect(other.dataset_link_id).toBe(h.link.id);
  });

  it('creates through the flat collection with dataset_link_id in the body', async () => {
    const h = await hop();
    const r = await ctx.request('POST', `${API}/field-links`, {
      token: ctx.userToken,
      body: { dataset_link_id: h.link.id, ...ends(h, 'email', 'email') },
    });
    expect(ok(r, 201)).toMatchObject({ dataset_link_id: h.link.id });
  });

  it('answers 404 DATASET_LINK_NOT_FOUND for an unknown or deleted link (the original listed [])', async () => {
    const h = await hop();
    const unknown = `${API}/dataset-links/${UNKNOWN_ID}/field-links`;
    expectEnvelope(
      await ctx.request('GET', unknown, { token: ctx.userToken }),
      404,
      'DATASET_LINK_NOT_FOUND',
    );
    ok(await ctx.request('DELETE', `${API}/dataset-links/${h.link.id}`, { token: ctx.adminToken }));
    expectEnvelope(await post(h, ends(h, 'id', 'id')), 404, 'DATASET_LINK_NOT_FOUND');
  });

  it('refuses a missing field (404) and fields of the wrong datasets (400)', async () => {
    const h = await hop();
    const missing = await post(h, { ...ends(h, 'id', 'id'), target_field_id: UNKNOWN_ID });
    expect(expectEnvelope(missing, 404, 'FIELD_NOT_FOUND').details).toEqual({ field_id: UNKNOWN_ID });
    const swappedSource = {
      source_field_id: h.target.fields.get('id'),
      target_field_id: h.target.fields.get('id'),
    };
    expectEnvelope(await post(h, swappedSource), 400, 'FIELD_LINK_SOURCE_DATASET_MISMATCH');
    const swappedTarget = {
      source_field_id: h.source.fields.get('id'),
      target_field_id: h.source.fields.get('name'),
    };
    expectEnvelope(await post(h, swappedTarget), 400, 'FIELD_LINK_TARGET_DATASET_MISMATCH');
  });

  it('refuses a target that is not mapped (409 FIELD_ORIGIN_CONFLICT)', async () => {
    const h = await hop();
    const tech = await createField(ctx, h.target.dataset.id, { name: 'loaded_at', origin: 'tech' });
    const r = await post(h, { source_field_id: h.source.fields.get('id'), target_field_id: tech.id });
    expect(expectEnvelope(r, 409, 'FIELD_ORIGIN_CONFLICT').details).toEqual({
      field_id: tech.id,
      origin: 'tech',
    });
  });

  it('refuses a field without a binding in the pinned version (422 FIELD_BINDING_MISSING)', async () => {
    const h = await hop();
    const unbound = await createField(ctx, h.target.dataset.id, { name: 'later' });
    const r = await post(h, { source_field_id: h.source.fields.get('id'), target_field_id: unbound.id });
    expect(expectEnvelope(r, 422, 'FIELD_BINDING_MISSING').details).toEqual({
      side: 'target',
      field_id: unbound.id,
    });
  });

  it('adds a second source to a fed target (ADR 0052) and refuses the same pair (409 ALREADY_EXISTS)', async () => {
    const h = await hop();
    ok(await post(h, ends(h, 'name', 'name')), 201);
    // Once 409 FIELD_LINK_TARGET_OCCUPIED: a target may now have several sources in a link.
    ok(await post(h, ends(h, 'email', 'name')), 201);
    const again = await post(h, ends(h, 'name', 'name'));
    expect(expectEnvelope(again, 409, 'FIELD_LINK_ALREADY_EXISTS').details).toMatchObject(
      ends(h, 'name', 'name'),
    );
    expect(await count(h)).toBe(2);
  });

  it('bulk-creates all items in order, in one transaction', async () => {
    const h = await hop();
    const created = ok(await post(h, [ends(h, 'id', 'id'), ends(h, 'name', 'email')], '/bulk'), 201);
    expect(created.map((l: Row) => [l.source_field_id, l.target_field_id])).toEqual([
      [h.source.fields.get('id'), h.target.fields.get('id')],
      [h.source.fields.get('name'), h.target.fields.get('email')],
    ]);
  });

  it('bulk is all or nothing: one bad item writes nothing and names its index', async () => {
    const h = await hop();
    const r = await post(
      h,
      [ends(h, 'id', 'id'), { ...ends(h, 'name', 'name'), source_field_id: UNKNOWN_ID }],
      '/bulk',
    );
    expect(expectEnvelope(r, 404, 'FIELD_NOT_FOUND').details).toEqual({ index: 1, field_id: UNKNOWN_ID });
    expect(await count(h)).toBe(0);
  });

  it('bulk refuses duplicates inside the batch with 409 naming both items (the original answered 500)', async () => {
    const h = await hop();
    const same = await post(h, [ends(h, 'id', 'id'), ends(h, 'name', 'name'), ends(h, 'id', 'id')], '/bulk');
    expect(expectEnvelope(same, 409, 'FIELD_LINK_ALREADY_EXISTS').details).toMatchObject({ indexes: [0, 2] });
    expect(await count(h)).toBe(0);
    // Two sources of one target are not duplicates (once 409 FIELD_LINK_TARGET_OCCUPIED).
    ok(await post(h, [ends(h, 'id', 'id'), ends(h, 'name', 'id')], '/bulk'), 201);
    expect(await count(h)).toBe(2);
  });

  it('bulk refuses an empty array, a non-array and unknown keys with 422', async () => {
    const h = await hop();
    for (const body of [[], { items: [ends(h, 'id', 'id')] }, [{ ...ends(h, 'id', 'id'), extra: 1 }]]) {
      expectEnvelope(await post(h, body, '/bulk'), 422, 'VALIDATION_ERROR');
    }
  });

  it('updates the note and the transformations (row_version), not the ends; deletes for good (superusers)', async () => {
    const h = await hop();
    const link = ok(await post(h, ends(h, 'id', 'id')), 201);
    const item = `${API}/field-links/${link.id}`;
    const updated = ok(
      await ctx.request('PATCH', item, { token: ctx.userToken, body: { note: 'checked', row_version: 1 } }),
    );
    expect(updated).toMatchObject({ note: 'checked', row_version: 2, target_field_id: link.target_field_id });
    const transformed = ok(
      await ctx.request('PATCH', item, {
        token: ctx.userToken,
        body: { transformations: [{ type: 'DIRECT', subtype: 'TRANSFORMATION' }], row_version: 2 },
      }),
    );
    expect(transformed).toMatchObject({
      note: 'checked',
      row_version: 3,
      transformations: [{ type: 'DIRECT', subtype: 'TRANSFORMATION', description: null, masking: null }],
    });
    const ends2 = await ctx.request('PATCH', item, {
      token: ctx.userToken,
      body: { target_field_id: h.target.fields.get('name'), row_version: 3 },
    });
    expectEnvelope(ends2, 422, 'VALIDATION_ERROR');
    expectEnvelope(
      await ctx.request('PATCH', item, { token: ctx.userToken, body: { note: 'x', row_version: 1 } }),
      409,
      'VERSION_CONFLICT',
    );
    expectEnvelope(await ctx.request('DELETE', item, { token: ctx.userToken }), 403, 'FORBIDDEN');
    expect(ok(await ctx.request('DELETE', item, { token: ctx.adminToken }))).toMatchObject({ id: link.id });
    expectEnvelope(await ctx.request('GET', item, { token: ctx.userToken }), 404, 'FIELD_LINK_NOT_FOUND');
  });
});

describe('field origin lifecycle (mapped ⇄ tech ⇄ deprecated, AIDE v2 §4.6)', () => {
  const setOrigin = (field: Row, origin: string) =>
    ctx.request('PATCH', `${API}/fields/${field.id}`, {
      token: ctx.userToken,
      body: { origin, row_version: field.row_version },
    });
  const field = async (id: string): Promise<Row> =>
    ok(await ctx.request('GET', `${API}/fields/${id}`, { token: ctx.userToken }));

  it('keeps a field fed by a field link mapped (409 FIELD_ORIGIN_CONFLICT with the count)', async () => {
    const h = await hop();
    ok(await post(h, ends(h, 'id', 'id')), 201);
    const target = await field(h.target.fields.get('id') as string);
    for (const origin of ['tech', 'deprecated']) {
      const r = await setOrigin(target, origin);
      expect(expectEnvelope(r, 409, 'FIELD_ORIGIN_CONFLICT').details).toEqual({
        from: 'mapped',
        to: origin,
        inbound_field_links: 1,
      });
    }
  });

  it('lets an unfed mapped field go tech, tech ⇄ deprecated freely, and refuses → mapped without a link', async () => {
    const h = await hop();
    let f = await field(h.target.fields.get('name') as string);
    f = ok(await setOrigin(f, 'tech'));
    expect(f.origin).toBe('tech');
    f = ok(await setOrigin(f, 'deprecated'));
    f = ok(await setOrigin(f, 'tech'));
    expect(f.origin).toBe('tech');
    expect(expectEnvelope(await setOrigin(f, 'mapped'), 409, 'FIELD_ORIGIN_CONFLICT').details).toEqual({
      from: 'tech',
      to: 'mapped',
      inbound_field_links: 0,
    });
  });

  it('counts only links of active dataset links: a deleted hop frees the field, its restore lets it back to mapped', async () => {
    const h = await hop();
    ok(await post(h, ends(h, 'email', 'email')), 201);
    let f = await field(h.target.fields.get('email') as string);
    ok(await ctx.request('DELETE', `${API}/dataset-links/${h.link.id}`, { token: ctx.adminToken }));
    f = ok(await setOrigin(f, 'deprecated'));
    ok(await ctx.request('POST', `${API}/dataset-links/${h.link.id}/restore`, { token: ctx.adminToken }));
    f = ok(await setOrigin(f, 'mapped'));
    expect(f).toMatchObject({ origin: 'mapped', row_version: 3 });
  });
});
