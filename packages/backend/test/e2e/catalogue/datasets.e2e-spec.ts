// /datasets (five kinds), /fields (trees, cycles, batch) and /field-classifications (append-only PII
// history) over HTTP, plus the query-count proof that listing is not N+1.
import type { DatasetKind } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  createDataset,
  createField,
  createPgSystem,
  createSystemFor,
  DATASET_KINDS,
  datasetBody,
  type Row,
  seedReference,
  sqlCounter,
} from '../../helpers/catalogue.js';
import { createSystem, ok, unique, UNKNOWN_ID } from '../../helpers/factories.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
  USER,
} from '../../helpers/test-app.js';

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

const datasets = `${API}/datasets`;
const fields = `${API}/fields`;
const classifications = `${API}/field-classifications`;
const v422 = (r: TestResponse) => expectEnvelope(r, 422, 'VALIDATION_ERROR');

describe('datasets', () => {
  it.each(DATASET_KINDS)('creates, reads and lists a %s dataset with its kind attributes', async (kind) => {
    const body = datasetBody(kind, (await createSystemFor(ctx, kind)).id);
    const created = ok(await ctx.request('POST', datasets, { token: ctx.userToken, body }), 201);
    expect(created).toMatchObject({
      ...body,
      row_version: 1,
      deleted_at: null,
      is_active: true,
      created_by: USER.id,
    });
    const got = ok(await ctx.request('GET', `${datasets}/${created.id}`, { token: ctx.userToken }));
    expect(got).toEqual(created);
    const list = ok(
      await ctx.request('GET', `${datasets}?kind=${kind}&object_name=${String(body.object_name)}`, {
        token: ctx.userToken,
      }),
    );
    expect(list).toEqual({ items: [created], total: 1, page: 1, size: 50, pages: 1 });
  });

  it('fills the optional kind attributes with their defaults', async () => {
    const rdbms = ok(
      await ctx.request('POST', datasets, {
        token: ctx.userToken,
        body: {
          kind: 'rdbms',
          system_id: system.id,
          object_name: unique('t'),
          schema_name: 's',
          table_name: 't',
        },
      }),
      201,
    );
    expect(rdbms).toMatchObject({
      is_view: false,
      catalog_name: null,
      pk_columns: null,
      layer: null,
      extra: null,
    });
    const hive = ok(
      await ctx.request('POST', datasets, {
        token: ctx.userToken,
        body: {
          kind: 'hive',
          system_id: (await createSystemFor(ctx, 'hive')).id,
          object_name: unique('h'),
          catalog_uri: 'thrift://x',
          db_name: 'd',
          table_name: 't',
          file_format: 'orc',
        },
      }),
      201,
    );
    expect(hive).toMatchObject({ is_external: false, location: null, tblproperties: null });
  });

  it('refuses anonymous calls (401)', async () => {
    const ds = await createDataset(ctx, system.id);
    expectEnvelope(await ctx.request('GET', datasets), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('GET', `${datasets}/${ds.id}`), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('POST', datasets, { body: datasetBody('rdbms', system.id) }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(
      await ctx.request('PUT', `${datasets}/${ds.id}`, { body: { kind: 'rdbms', row_version: 1 } }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(await ctx.request('DELETE', `${datasets}/${ds.id}`), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('POST', `${datasets}/${ds.id}/restore`), 401, 'UNAUTHORIZED');
  });

  it('answers 404 for unknown ids and systems', async () => {
    expectEnvelope(
      await ctx.request('GET', `${datasets}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'DATASET_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${datasets}/${UNKNOWN_ID}`, {
        token: ctx.userToken,
        body: { kind: 'rdbms', layer: 'raw', row_version: 1 },
      }),
      404,
      'DATASET_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${datasets}/${UNKNOWN_ID}`, { token: ctx.adminToken }),
      404,
      'DATASET_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('POST', datasets, { token: ctx.userToken, body: datasetBody('kafka', UNKNOWN_ID) }),
      404,
      'SYSTEM_NOT_FOUND',
    );
  });

  it('refuses a duplicate object name in a system (409); another system may reuse it', async () => {
    const ds = await createDataset(ctx, system.id);
    expectEnvelope(
      await ctx.request('POST', datasets, {
        token: ctx.userToken,
        body: datasetBody('rdbms', system.id, { object_name: ds.object_name }),
      }),
      409,
      'DATASET_ALREADY_EXISTS',
    );
    const other = await createSystem(ctx, system.flavor_id);
    expect((await createDataset(ctx, other.id, 'rdbms', { object_name: ds.object_name })).object_name).toBe(
      ds.object_name,
    );
  });

  it('updates common and kind attributes with row_version; stale (409), missing (428)', async () => {
    const ds = await createDataset(ctx, (await createSystemFor(ctx, 'kafka')).id, 'kafka');
    const updated = ok(
      await ctx.request('PUT', `${datasets}/${ds.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', partitions: 12, retention_ms: -1, layer: 'kafka', row_version: 1 },
      }),
    );
    expect(updated).toMatchObject({
      partitions: 12,
      retention_ms: -1,
      layer: 'kafka',
      topic: ds.topic,
      row_version: 2,
    });
    expect(ok(await ctx.request('GET', `${datasets}/${ds.id}`, { token: ctx.userToken }))).toEqual(updated);
    // Kind attributes only: the parent row's version still moves (the version guards the whole dataset).
    const kindOnly = ok(
      await ctx.request('PATCH', `${datasets}/${ds.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', format: 'json' },
        headers: { 'if-match': '"2"' },
      }),
    );
    expect(kindOnly).toMatchObject({ format: 'json', row_version: 3 });
    expectEnvelope(
      await ctx.request('PATCH', `${datasets}/${ds.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', partitions: 1, row_version: 1 },
      }),
      409,
      'VERSION_CONFLICT',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${datasets}/${ds.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', partitions: 1 },
      }),
      428,
      'PRECONDITION_REQUIRED',
    );
    expect(ok(await ctx.request('GET', `${datasets}/${ds.id}`, { token: ctx.userToken })).partitions).toBe(
      12,
    );
  });

  it('keeps the kind: another kind is DATASET_KIND_MISMATCH, system_id is not updatable (422)', async () => {
    const ds = await createDataset(ctx, system.id, 'rdbms');
    expectEnvelope(
      await ctx.request('PUT', `${datasets}/${ds.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', topic: 't', row_version: 1 },
      }),
      400,
      'DATASET_KIND_MISMATCH',
    );
    const other = await createSystem(ctx, system.flavor_id);
    const err = v422(
      await ctx.request('PUT', `${datasets}/${ds.id}`, {
        token: ctx.userToken,
        body: { kind: 'rdbms', system_id: other.id, row_version: 1 },
      }),
    );
    expect(JSON.stringify(err.details)).toContain('system_id');
    // An attribute of another kind is an unknown key for this kind; the kind is required.
    v422(
      await ctx.request('PUT', `${datasets}/${ds.id}`, {
        token: ctx.userToken,
        body: { kind: 'rdbms', topic: 't', row_version: 1 },
      }),
    );
    v422(
      await ctx.request('PUT', `${datasets}/${ds.id}`, {
        token: ctx.userToken,
        body: { layer: 'raw', row_version: 1 },
      }),
    );
    expect(ok(await ctx.request('GET', `${datasets}/${ds.id}`, { token: ctx.userToken }))).toEqual(ds);
  });

  it('soft-deletes and restores (superuser only)', async () => {
    const ds = await createDataset(ctx, (await createSystemFor(ctx, 'hive')).id, 'hive');
    expectEnvelope(
      await ctx.request('DELETE', `${datasets}/${ds.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    const deleted = ok(await ctx.request('DELETE', `${datasets}/${ds.id}`, { token: ctx.adminToken }));
    expect(deleted).toMatchObject({
      id: ds.id,
      kind: 'hive',
      db_name: ds.db_name,
      deleted_at: expect.any(String),
    });
    expectEnvelope(
      await ctx.request('GET', `${datasets}/${ds.id}`, { token: ctx.userToken }),
      404,
      'DATASET_NOT_FOUND',
    );
    expect(
      ok(
        await ctx.request('GET', `${datasets}?object_name=${ds.object_name}&include_deleted=true`, {
          token: ctx.adminToken,
        }),
      ).total,
    ).toBe(1);
    expectEnvelope(
      await ctx.request('GET', `${datasets}?include_deleted=true`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('POST', `${datasets}/${ds.id}/restore`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    const restored = ok(await ctx.request('POST', `${datasets}/${ds.id}/restore`, { token: ctx.adminToken }));
    expect(restored).toMatchObject({ id: ds.id, deleted_at: null, db_name: ds.db_name, row_version: 2 });
    expectEnvelope(
      await ctx.request('POST', `${datasets}/${ds.id}/restore`, { token: ctx.adminToken }),
      400,
      'ENTITY_NOT_DELETED',
    );
  });

  it('validates bodies, paths and query strings (422)', async () => {
    const body = datasetBody('kafka', (await createSystemFor(ctx, 'kafka')).id);
    v422(await ctx.request('POST', datasets, { token: ctx.userToken, body: { ...body, colour: 'red' } }));
    v422(await ctx.request('POST', datasets, { token: ctx.userToken, body: { ...body, kind: 'ftp' } }));
    v422(await ctx.request('POST', datasets, { token: ctx.userToken, body: { ...body, partitions: 'six' } }));
    v422(await ctx.request('POST', datasets, { token: ctx.userToken, body: { ...body, partitions: 0 } }));
    const { topic: _topic, ...missing } = body;
    v422(await ctx.request('POST', datasets, { token: ctx.userToken, body: missing }));
    v422(await ctx.request('POST', datasets, { token: ctx.userToken, body: { ...body, system_id: 'nope' } }));
    v422(await ctx.request('POST', datasets, { token: ctx.userToken, body: { ...body, layer: 'gold' } }));
    v422(await ctx.request('GET', `${datasets}/nope`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${datasets}?colour=red`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${datasets}?kind=ftp`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${datasets}?sort=topic`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${datasets}?size=101`, { token: ctx.userToken }));
    expect(
      ok(
        await ctx.request('GET', `${datasets}?object_name=${String(body.object_name)}`, {
          token: ctx.userToken,
        }),
      ).total,
    ).toBe(0);
    // No batch route for datasets: /datasets/{id} has no POST.
    expectEnvelope(
      await ctx.request('POST', `${datasets}/batch`, { token: ctx.userToken, body: { items: [body] } }),
      405,
      'METHOD_NOT_ALLOWED',
    );
  });

  it('filters by kind, layer, system and sorts', async () => {
    const own: string[] = [];
    for (const kind of DATASET_KINDS) {
      const kindSystem = await createSystemFor(ctx, kind);
      own.push(kindSystem.id);
      await createDataset(ctx, kindSystem.id, kind, { layer: kind === 'kafka' ? 'kafka' : 'core' });
    }
    const systems = `system_id__in=${own.join(',')}`;
    const all = ok(await ctx.request('GET', `${datasets}?${systems}&sort=-kind`, { token: ctx.userToken }));
    expect(all.items.map((d: Row) => d.kind)).toEqual(['storage', 'sftp', 'rdbms', 'kafka', 'hive']);
    const some = ok(
      await ctx.request('GET', `${datasets}?${systems}&kind__in=sftp,hive&sort=kind`, {
        token: ctx.userToken,
      }),
    );
    expect(some.items.map((d: Row) => d.kind)).toEqual(['hive', 'sftp']);
    expect(some.items[0]).toHaveProperty('catalog_uri');
    expect(some.items[1]).toHaveProperty('archive');
    expect(
      ok(await ctx.request('GET', `${datasets}?${systems}&layer=kafka`, { token: ctx.userToken })).items.map(
        (d: Row) => d.kind,
      ),
    ).toEqual(['kafka']);
  });
});

describe('fields', () => {
  let dataset: Row;
  beforeAll(async () => {
    dataset = await createDataset(ctx, system.id);
  });

  it('creates (201), reads, lists by dataset', async () => {
    const created = ok(
      await ctx.request('POST', fields, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, name: 'customer_id', extra: { pk: true } },
      }),
      201,
    );
    expect(created).toMatchObject({
      dataset_id: dataset.id,
      parent_id: null,
      name: 'customer_id',
      origin: 'mapped',
      extra: { pk: true },
      row_version: 1,
    });
    expect(ok(await ctx.request('GET', `${fields}/${created.id}`, { token: ctx.userToken }))).toEqual(
      created,
    );
    const list = ok(
      await ctx.request('GET', `${fields}?dataset_id=${dataset.id}&name=customer_id`, {
        token: ctx.userToken,
      }),
    );
    expect(list).toMatchObject({ total: 1, items: [created] });
  });

  it('refuses anonymous calls (401), unknown ids (404), duplicates (409)', async () => {
    const f = await createField(ctx, dataset.id);
    for (const [method, path] of [
      ['GET', fields],
      ['GET', `${fields}/${f.id}`],
      ['GET', `${fields}/tree/${dataset.id}`],
      ['GET', `${fields}/${f.id}/children`],
      ['POST', fields],
      ['POST', `${fields}/batch`],
      ['DELETE', `${fields}/${f.id}`],
    ] as const) {
      expectEnvelope(
        await ctx.request(method, path, { body: method === 'POST' ? {} : undefined }),
        401,
        'UNAUTHORIZED',
      );
    }
    expectEnvelope(
      await ctx.request('GET', `${fields}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'FIELD_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('GET', `${fields}/${UNKNOWN_ID}/children`, { token: ctx.userToken }),
      404,
      'FIELD_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('GET', `${fields}/tree/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'DATASET_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('POST', fields, {
        token: ctx.userToken,
        body: { dataset_id: UNKNOWN_ID, name: 'x' },
      }),
      404,
      'DATASET_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('POST', fields, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, name: 'x', parent_id: UNKNOWN_ID },
      }),
      404,
      'FIELD_PARENT_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('POST', fields, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, name: f.name },
      }),
      409,
      'FIELD_ALREADY_EXISTS',
    );
  });

  it('nests fields: tree, children, same name under different parents, parent from another dataset (400)', async () => {
    const ds = await createDataset(ctx, (await createSystemFor(ctx, 'storage')).id, 'storage');
    const address = await createField(ctx, ds.id, { name: 'address' });
    const billing = await createField(ctx, ds.id, { name: 'billing' });
    const city = await createField(ctx, ds.id, { name: 'city', parent_id: address.id });
    const zip = await createField(ctx, ds.id, { name: 'zip', parent_id: address.id });
    const billingCity = await createField(ctx, ds.id, { name: 'city', parent_id: billing.id });
    const code = await createField(ctx, ds.id, { name: 'code', parent_id: zip.id });
    expectEnvelope(
      await ctx.request('POST', fields, {
        token: ctx.userToken,
        body: { dataset_id: ds.id, name: 'city', parent_id: address.id },
      }),
      409,
      'FIELD_ALREADY_EXISTS',
    );

    const tree = ok(await ctx.request('GET', `${fields}/tree/${ds.id}`, { token: ctx.userToken }));
    const shape = (nodes: Row[]): unknown =>
      nodes.map((n) => ({ name: n.name, children: shape(n.children) }));
    expect(shape(tree)).toEqual([
      {
        name: 'address',
        children: [
          { name: 'city', children: [] },
          { name: 'zip', children: [{ name: 'code', children: [] }] },
        ],
      },
      { name: 'billing', children: [{ name: 'city', children: [] }] },
    ]);
    expect(tree[0].children[1].children[0]).toMatchObject({
      id: code.id,
      parent_id: zip.id,
      dataset_id: ds.id,
    });

    const children = ok(
      await ctx.request('GET', `${fields}/${address.id}/children`, { token: ctx.userToken }),
    );
    expect(children.map((c: Row) => c.id)).toEqual([city.id, zip.id]);
    expect(ok(await ctx.request('GET', `${fields}/${city.id}/children`, { token: ctx.userToken }))).toEqual(
      [],
    );
    expect(billingCity.parent_id).toBe(billing.id);

    const elsewhere = await createField(ctx, dataset.id);
    expectEnvelope(
      await ctx.request('POST', fields, {
        token: ctx.userToken,
        body: { dataset_id: ds.id, name: 'x', parent_id: elsewhere.id },
      }),
      400,
      'FIELD_PARENT_DATASET_MISMATCH',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${fields}/${city.id}`, {
        token: ctx.userToken,
        body: { parent_id: elsewhere.id, row_version: 1 },
      }),
      400,
      'FIELD_PARENT_DATASET_MISMATCH',
    );
  });

  it('refuses cycles with 409 FIELD_CIRCULAR_REFERENCE (self, child, grandchild)', async () => {
    const a = await createField(ctx, dataset.id);
    const b = await createField(ctx, dataset.id, { parent_id: a.id });
    const c = await createField(ctx, dataset.id, { parent_id: b.id });
    expectEnvelope(
      await ctx.request('PATCH', `${fields}/${a.id}`, {
        token: ctx.userToken,
        body: { parent_id: a.id, row_version: 1 },
      }),
      409,
      'FIELD_CIRCULAR_REFERENCE',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${fields}/${a.id}`, {
        token: ctx.userToken,
        body: { parent_id: b.id, row_version: 1 },
      }),
      409,
      'FIELD_CIRCULAR_REFERENCE',
    );
    expectEnvelope(
      await ctx.request('PUT', `${fields}/${a.id}`, {
        token: ctx.userToken,
        body: { parent_id: c.id, row_version: 1 },
      }),
      409,
      'FIELD_CIRCULAR_REFERENCE',
    );
    expect(ok(await ctx.request('GET', `${fields}/${a.id}`, { token: ctx.userToken }))).toEqual(a);
    // Moving a subtree elsewhere is fine, as is moving it back to the root.
    const moved = ok(
      await ctx.request('PATCH', `${fields}/${c.id}`, {
        token: ctx.userToken,
        body: { parent_id: a.id, row_version: 1 },
      }),
    );
    expect(moved).toMatchObject({ parent_id: a.id, row_version: 2 });
    const root = ok(
      await ctx.request('PATCH', `${fields}/${b.id}`, {
        token: ctx.userToken,
        body: { parent_id: null, row_version: 1 },
      }),
    );
    expect(root.parent_id).toBeNull();
  });

  it('updates with row_version; stale (409), missing (428); dataset_id is fixed (422); delete is superuser-only', async () => {
    const f = await createField(ctx, dataset.id);
    const updated = ok(
      await ctx.request('PUT', `${fields}/${f.id}`, {
        token: ctx.userToken,
        body: { origin: 'deprecated', path: 'a.b', row_version: 1 },
      }),
    );
    expect(updated).toMatchObject({ origin: 'deprecated', path: 'a.b', row_version: 2 });
    expectEnvelope(
      await ctx.request('PUT', `${fields}/${f.id}`, {
        token: ctx.userToken,
        body: { origin: 'tech', row_version: 1 },
      }),
      409,
      'VERSION_CONFLICT',
    );
    expectEnvelope(
      await ctx.request('PUT', `${fields}/${f.id}`, { token: ctx.userToken, body: { origin: 'tech' } }),
      428,
      'PRECONDITION_REQUIRED',
    );
    v422(
      await ctx.request('PUT', `${fields}/${f.id}`, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, row_version: 2 },
      }),
    );
    v422(
      await ctx.request('PUT', `${fields}/${f.id}`, {
        token: ctx.userToken,
        body: { origin: 'other', row_version: 2 },
      }),
    );
    expectEnvelope(
      await ctx.request('DELETE', `${fields}/${f.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    expect(ok(await ctx.request('DELETE', `${fields}/${f.id}`, { token: ctx.adminToken })).id).toBe(f.id);
    expectEnvelope(
      await ctx.request('GET', `${fields}/${f.id}`, { token: ctx.userToken }),
      404,
      'FIELD_NOT_FOUND',
    );
  });

  it('creates a batch all-or-nothing', async () => {
    const ds = await createDataset(ctx, (await createSystemFor(ctx, 'kafka')).id, 'kafka');
    const parent = await createField(ctx, ds.id, { name: 'payload' });
    const batch = ok(
      await ctx.request('POST', `${fields}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            { dataset_id: ds.id, name: 'id' },
            { dataset_id: ds.id, name: 'amount', parent_id: parent.id, origin: 'tech' },
          ],
        },
      }),
      201,
    );
    expect(batch.count).toBe(2);
    expect(batch.items.map((f: Row) => [f.name, f.parent_id, f.origin])).toEqual([
      ['id', null, 'mapped'],
      ['amount', parent.id, 'tech'],
    ]);
    const count = async () =>
      ok(await ctx.request('GET', `${fields}?dataset_id=${ds.id}`, { token: ctx.userToken })).total;
    expect(await count()).toBe(3);
    expectEnvelope(
      await ctx.request('POST', `${fields}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            { dataset_id: ds.id, name: 'n1' },
            { dataset_id: ds.id, name: 'n1' },
          ],
        },
      }),
      409,
      'FIELD_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', `${fields}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            { dataset_id: ds.id, name: 'n2' },
            { dataset_id: ds.id, name: 'id' },
          ],
        },
      }),
      409,
      'FIELD_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', `${fields}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            { dataset_id: ds.id, name: 'n3' },
            { dataset_id: UNKNOWN_ID, name: 'x' },
          ],
        },
      }),
      404,
      'DATASET_NOT_FOUND',
    );
    v422(
      await ctx.request('POST', `${fields}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            { dataset_id: ds.id, name: 'n4' },
            { dataset_id: ds.id, name: '' },
          ],
        },
      }),
    );
    expect(await count()).toBe(3);
  });

  it('validates bodies, paths and query strings (422)', async () => {
    v422(
      await ctx.request('POST', fields, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, name: 'x', colour: 'red' },
      }),
    );
    v422(
      await ctx.request('POST', fields, { token: ctx.userToken, body: { dataset_id: dataset.id, name: 7 } }),
    );
    v422(await ctx.request('POST', fields, { token: ctx.userToken, body: { dataset_id: 'x', name: 'x' } }));
    v422(await ctx.request('GET', `${fields}/nope`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${fields}/tree/nope`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${fields}/tree/${dataset.id}?depth=2`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${fields}?colour=red`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${fields}?sort=path`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${fields}?size=101`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${fields}?origin=other`, { token: ctx.userToken }));
  });
});

describe('field classifications (append-only)', () => {
  let dataset: Row;
  beforeAll(async () => {
    dataset = await createDataset(ctx, (await createSystemFor(ctx, 'storage')).id, 'storage');
  });

  const classify = (body: Record<string, unknown>, token = ctx.userToken) =>
    ctx.request('POST', classifications, { token, body });

  it('appends entries; the newest is current, per field and per dataset', async () => {
    const email = await createField(ctx, dataset.id, { name: 'email' });
    const phone = await createField(ctx, dataset.id, { name: 'phone' });
    await createField(ctx, dataset.id, { name: 'never_classified' });
    const first = ok(
      await classify({ field_id: email.id, pii_tags: ['email'], reason: 'looks like one' }),
      201,
    );
    expect(first).toMatchObject({
      field_id: email.id,
      pii_tags: ['email'],
      reason: 'looks like one',
      created_by: USER.id,
      created_by_email: USER.email,
      row_version: 1,
    });
    const second = ok(await classify({ field_id: email.id, pii_tags: ['email', 'contact', 'email'] }), 201);
    expect(second.pii_tags).toEqual(['email', 'contact']);
    const phoneTags = ok(await classify({ field_id: phone.id, pii_tags: [] }), 201);

    expect(
      ok(await ctx.request('GET', `${classifications}/current/${email.id}`, { token: ctx.userToken })),
    ).toEqual(second);
    const current = ok(
      await ctx.request('GET', `${classifications}/by-dataset/${dataset.id}/current`, {
        token: ctx.userToken,
      }),
    );
    expect(current.map((c: Row) => c.id).sort()).toEqual([second.id, phoneTags.id].sort());

    const history = ok(
      await ctx.request('GET', `${classifications}?field_id=${email.id}`, { token: ctx.userToken }),
    );
    expect(history.items.map((c: Row) => c.id)).toEqual([second.id, first.id]);
    expect(ok(await ctx.request('GET', `${classifications}/${first.id}`, { token: ctx.userToken }))).toEqual(
      first,
    );
  });

  it('has no update or delete: PUT, PATCH and DELETE are 405', async () => {
    const f = await createField(ctx, dataset.id);
    const entry = ok(await classify({ field_id: f.id, pii_tags: ['name'] }), 201);
    for (const method of ['PUT', 'PATCH'] as const) {
      expectEnvelope(
        await ctx.request(method, `${classifications}/${entry.id}`, {
          token: ctx.adminToken,
          body: { pii_tags: [], row_version: 1 },
        }),
        405,
        'METHOD_NOT_ALLOWED',
      );
    }
    expectEnvelope(
      await ctx.request('DELETE', `${classifications}/${entry.id}`, { token: ctx.adminToken }),
      405,
      'METHOD_NOT_ALLOWED',
    );
    expect(ok(await ctx.request('GET', `${classifications}/${entry.id}`, { token: ctx.userToken }))).toEqual(
      entry,
    );
  });

  it('answers 401 without a token, 404 for unknown fields, datasets and unclassified fields', async () => {
    const f = await createField(ctx, dataset.id);
    expectEnvelope(await ctx.request('GET', classifications), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('POST', classifications, { body: { field_id: f.id, pii_tags: [] } }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(await ctx.request('GET', `${classifications}/current/${f.id}`), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('GET', `${classifications}/by-dataset/${dataset.id}/current`),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(await classify({ field_id: UNKNOWN_ID, pii_tags: ['x'] }), 404, 'FIELD_NOT_FOUND');
    expectEnvelope(
      await ctx.request('GET', `${classifications}/current/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'FIELD_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('GET', `${classifications}/current/${f.id}`, { token: ctx.userToken }),
      404,
      'FIELD_CLASSIFICATION_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('GET', `${classifications}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'FIELD_CLASSIFICATION_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('GET', `${classifications}/by-dataset/${UNKNOWN_ID}/current`, {
        token: ctx.userToken,
      }),
      404,
      'DATASET_NOT_FOUND',
    );
    const empty = await createDataset(ctx, system.id);
    expect(
      ok(
        await ctx.request('GET', `${classifications}/by-dataset/${empty.id}/current`, {
          token: ctx.userToken,
        }),
      ),
    ).toEqual([]);
  });

  it('validates bodies, paths and query strings (422)', async () => {
    const f = await createField(ctx, dataset.id);
    v422(await classify({ field_id: f.id, pii_tags: ['x'], colour: 'red' }));
    v422(await classify({ field_id: f.id, pii_tags: 'email' }));
    v422(await classify({ field_id: f.id, pii_tags: [''] }));
    v422(await classify({ field_id: f.id }));
    v422(await classify({ field_id: 'nope', pii_tags: [] }));
    v422(await ctx.request('GET', `${classifications}/current/nope`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${classifications}/by-dataset/nope/current`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${classifications}?colour=red`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${classifications}?sort=pii_tags`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${classifications}?size=101`, { token: ctx.userToken }));
    expect(
      ok(await ctx.request('GET', `${classifications}?field_id=${f.id}`, { token: ctx.userToken })).total,
    ).toBe(0);
  });

  it('refuses a tag outside the tag format with PII_TAG_INVALID and a suggestion, storing nothing', async () => {
    const f = await createField(ctx, dataset.id);
    const refused = await classify({ field_id: f.id, pii_tags: ['email', 'Name With Spaces!!', 'a__b'] });
    expectEnvelope(refused, 422, 'PII_TAG_INVALID');
    expect(refused.body.details).toEqual({
      invalid: [
        { tag: 'Name With Spaces!!', suggestion: 'name_with_spaces' },
        { tag: 'a__b', suggestion: 'a_b' },
      ],
    });
    expectEnvelope(await classify({ field_id: f.id, pii_tags: ['x'.repeat(65)] }), 422, 'PII_TAG_INVALID');
    expectEnvelope(await classify({ field_id: f.id, pii_tags: ['!!!'] }), 422, 'PII_TAG_INVALID');
    expect(
      ok(await ctx.request('GET', `${classifications}?field_id=${f.id}`, { token: ctx.userToken })).total,
    ).toBe(0);
    for (const tag of ['email', 'birth_date', 'gdpr:health', 'x-ray.v2', 'x'.repeat(64)])
      ok(await classify({ field_id: f.id, pii_tags: [tag] }), 201);
  });

  it('lists the tags in use, most used first, and the suggested ones; names the author of each entry', async () => {
    const ds = await createDataset(ctx, (await createSystemFor(ctx, 'storage')).id, 'storage');
    const a = await createField(ctx, ds.id, { name: 'a' });
    const b = await createField(ctx, ds.id, { name: 'b' });
    const tag = `zz_${unique('t').replace(/[^a-z0-9]+/g, '_')}`;
    ok(await classify({ field_id: a.id, pii_tags: [tag, `${tag}_rare`] }), 201);
    ok(await classify({ field_id: b.id, pii_tags: [tag] }, ctx.adminToken), 201);
    // A field reviewed since: its old tag no longer counts.
    const c = await createField(ctx, ds.id, { name: 'c' });
    ok(await classify({ field_id: c.id, pii_tags: [`${tag}_old`] }), 201);
    ok(await classify({ field_id: c.id, pii_tags: [] }), 201);
    const catalogue = ok(await ctx.request('GET', `${classifications}/tags`, { token: ctx.userToken }));
    const counts = Object.fromEntries(
      catalogue.in_use.filter((t: Row) => t.tag.startsWith(tag)).map((t: Row) => [t.tag, t.field_count]),
    );
    expect(counts).toEqual({ [tag]: 2, [`${tag}_rare`]: 1 });
    const order = catalogue.in_use.map((t: Row) => t.tag);
    expect(order.indexOf(tag)).toBeLessThan(order.indexOf(`${tag}_rare`));
    expect(catalogue.suggested).toContain('email');
    expectEnvelope(await ctx.request('GET', `${classifications}/tags`), 401, 'UNAUTHORIZED');
    const history = ok(
      await ctx.request('GET', `${classifications}?field_id__in=${a.id},${b.id}`, { token: ctx.userToken }),
    );
    const admin = await ctx.request('GET', `${API}/users/me`, { token: ctx.adminToken });
    expect(history.items.map((h: Row) => h.created_by_email).sort()).toEqual(
      [USER.email, admin.body.email].sort(),
    );
  });
});

describe('listing is not N+1', () => {
  it('GET /datasets and GET /fields run as many SQL statements for 5 rows as for 50', async () => {
    // One system per kind, so that a page holds datasets of all five kinds.
    const own: Partial<Record<DatasetKind, string>> = {};
    for (const kind of DATASET_KINDS) own[kind] = (await createSystemFor(ctx, kind)).id;
    const created: Row[] = [];
    for (let i = 0; i < 55; i++) {
      const kind = DATASET_KINDS[i % DATASET_KINDS.length];
      created.push(await createDataset(ctx, own[kind] as string, kind));
    }
    const systems = `system_id__in=${Object.values(own).join(',')}`;
    const ds = created[0];
    const items = Array.from({ length: 55 }, (_, i) => ({
      dataset_id: ds.id,
      name: `c${String(i).padStart(2, '0')}`,
    }));
    ok(await ctx.request('POST', `${fields}/batch`, { token: ctx.userToken, body: { items } }), 201);

    const counter = sqlCounter(ctx);
    const measure = async (path: string, expectedItems: number) => {
      // Once to warm connections and statement caches, then counted.
      ok(await ctx.request('GET', path, { token: ctx.userToken }));
      counter.start();
      const body = ok(await ctx.request('GET', path, { token: ctx.userToken }));
      const statements = counter.stop();
      expect(body.items).toHaveLength(expectedItems);
      return statements;
    };
    const ds5 = await measure(`${datasets}?${systems}&size=5`, 5);
    const ds50 = await measure(`${datasets}?${systems}&size=50`, 50);
    const kinds = new Set(
      (
        ok(await ctx.request('GET', `${datasets}?${systems}&size=50`, { token: ctx.userToken }))
          .items as Row[]
      ).map((d) => d.kind),
    );
    expect(kinds.size).toBe(5);
    expect(ds5.some((s) => /FROM "datasets"/.test(s))).toBe(true);
    expect(ds50.length).toBe(ds5.length);

    const f5 = await measure(`${fields}?dataset_id=${ds.id}&size=5`, 5);
    const f50 = await measure(`${fields}?dataset_id=${ds.id}&size=50`, 50);
    expect(f5.some((s) => /FROM "fields"/.test(s))).toBe(true);
    expect(f50.length).toBe(f5.length);
  });

  it('checks the references of a batch in bulk: 50 nested fields cost as many statements as 5', async () => {
    const ds = await createDataset(ctx, system.id);
    const parent = await createField(ctx, ds.id);
    const counter = sqlCounter(ctx);
    const batch = async (n: number) => {
      const items = Array.from({ length: n }, () => ({
        dataset_id: ds.id,
        parent_id: parent.id,
        name: unique('f'),
      }));
      counter.start();
      const body = ok(
        await ctx.request('POST', `${fields}/batch`, { token: ctx.userToken, body: { items } }),
        201,
      );
      const statements = counter.stop();
      expect(body.count).toBe(n);
      return statements.length;
    };
    await batch(2); // warm connections and statement caches
    expect(await batch(50)).toBe(await batch(5));
  });
});
