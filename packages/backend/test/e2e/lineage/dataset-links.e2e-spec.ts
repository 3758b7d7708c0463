// /dataset-links: the original's create/update invariants in its order (AIDE v2 §4.8), the engine
// compatibility matrix, soft delete and a restore that re-checks the pair, the datasets and the engine;
// the delete guards links put on datasets, schema versions and engines.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, createPgSystem, type Row, seedReference } from '../../helpers/catalogue.js';
import { ok, UNKNOWN_ID } from '../../helpers/factories.js';
import {
  createEngine,
  createLink,
  linkBody,
  publishVersion,
  type VersionedDataset,
  versionedDataset,
} from '../../helpers/lineage.js';
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

const links = `${API}/dataset-links`;
const post = (body: Record<string, unknown>) => ctx.request('POST', links, { token: ctx.userToken, body });
const pair = async (sourceLayer = 'source', targetLayer = 'raw') =>
  [
    await versionedDataset(ctx, system.id, sourceLayer),
    await versionedDataset(ctx, system.id, targetLayer),
  ] as [VersionedDataset, VersionedDataset];

describe('dataset links: create', () => {
  it('creates a pinned hop (any user), reads and lists it', async () => {
    const [source, target] = await pair();
    const created = ok(await post(linkBody(source, target, { note: 'nightly' })), 201);
    expect(created).toMatchObject({
      ...linkBody(source, target),
      engine_id: null,
      note: 'nightly',
      row_version: 1,
      created_by: USER.id,
      deleted_at: null,
    });
    expect(ok(await ctx.request('GET', `${links}/${created.id}`, { token: ctx.userToken }))).toEqual(created);
    const listed = ok(
      await ctx.request('GET', `${links}?source_dataset_id=${source.dataset.id}`, { token: ctx.userToken }),
    );
    expect(listed.items).toEqual([created]);
  });

  it('refuses a self link (400 DATASET_LINK_SELF_REFERENCE)', async () => {
    const [source] = await pair();
    expectEnvelope(await post(linkBody(source, source)), 400, 'DATASET_LINK_SELF_REFERENCE');
  });

  it('refuses an unknown or deleted dataset (404 DATASET_NOT_FOUND)', async () => {
    const [source, target] = await pair();
    const unknown = await post({ ...linkBody(source, target), target_dataset_id: UNKNOWN_ID });
    expect(expectEnvelope(unknown, 404, 'DATASET_NOT_FOUND').details).toEqual({ dataset_id: UNKNOWN_ID });
    ok(await ctx.request('DELETE', `${API}/datasets/${target.dataset.id}`, { token: ctx.adminToken }));
    expectEnvelope(await post(linkBody(source, target)), 404, 'DATASET_NOT_FOUND');
  });

  it('refuses datasets without a layer (400 DATASET_LINK_LAYER_MISSING)', async () => {
    const source = await versionedDataset(ctx, system.id, null);
    const target = await versionedDataset(ctx, system.id, 'raw');
    expectEnvelope(await post(linkBody(source, target)), 400, 'DATASET_LINK_LAYER_MISSING');
  });

  it.each([
    ['raw', 'raw'],
    ['core', 'raw'],
    ['kafka', 'cdc'],
  ])(
    'refuses %s → %s: the target layer must come strictly later (400 DATASET_LINK_LAYER_ORDER)',
    async (s, t) => {
      const [source, target] = await pair(s, t);
      const r = await post(linkBody(source, target));
      expect(expectEnvelope(r, 400, 'DATASET_LINK_LAYER_ORDER').details).toEqual({
        source_layer: s,
        target_layer: t,
      });
    },
  );

  it('refuses a second active link of the same pair (409 DATASET_LINK_ALREADY_EXISTS)', async () => {
    const [source, target] = await pair();
    await createLink(ctx, source, target);
    expectEnvelope(await post(linkBody(source, target)), 409, 'DATASET_LINK_ALREADY_EXISTS');
  });

  it('refuses a missing pin (404) and a pin of another dataset (422 SCHEMA_DATASET_MISMATCH)', async () => {
    const [source, target] = await pair();
    const missing = await post({ ...linkBody(source, target), source_schema_id: UNKNOWN_ID });
    expect(expectEnvelope(missing, 404, 'DATASET_SCHEMA_NOT_FOUND').details).toMatchObject({
      side: 'source',
    });
    const swapped = await post({ ...linkBody(source, target), target_schema_id: source.schemaId });
    expect(expectEnvelope(swapped, 422, 'SCHEMA_DATASET_MISMATCH').details).toMatchObject({ side: 'target' });
  });

  it('refuses unknown keys and missing pins with 422; anonymous is 401', async () => {
    const [source, target] = await pair();
    expectEnvelope(await post({ ...linkBody(source, target), extra: 1 }), 422, 'VALIDATION_ERROR');
    expectEnvelope(
      await post({ ...linkBody(source, target), source_schema_id: undefined }),
      422,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await ctx.request('GET', links, { token: null }), 401, 'UNAUTHORIZED');
  });
});

describe('dataset links: update, engines', () => {
  it('re-pins a side to a newer version of its dataset, never to another dataset’s', async () => {
    const [source, target] = await pair();
    const link = await createLink(ctx, source, target);
    const v2 = await publishVersion(ctx, source.dataset.id, [['id', 'bigint']]);
    const repinned = ok(
      await ctx.request('PATCH', `${links}/${link.id}`, {
        token: ctx.userToken,
        body: { source_schema_id: v2.schemaId, row_version: 1 },
      }),
    );
    expect(repinned).toMatchObject({ source_schema_id: v2.schemaId, row_version: 2 });
    const wrong = await ctx.request('PATCH', `${links}/${link.id}`, {
      token: ctx.userToken,
      body: { source_schema_id: target.schemaId, row_version: 2 },
    });
    expectEnvelope(wrong, 422, 'SCHEMA_DATASET_MISMATCH');
    for (const body of [
      { source_schema_id: null, row_version: 2 },
      { target_dataset_id: source.dataset.id, row_version: 2 },
    ]) {
      const r = await ctx.request('PATCH', `${links}/${link.id}`, { token: ctx.userToken, body });
      expectEnvelope(r, 422, 'VALIDATION_ERROR');
    }
    const stale = await ctx.request('PATCH', `${links}/${link.id}`, {
      token: ctx.userToken,
      body: { note: 'x', row_version: 1 },
    });
    expectEnvelope(stale, 409, 'VERSION_CONFLICT');
  });

  it('attaches engines by the compatibility matrix, detaches with null, and guards engine deletes', async () => {
    const source = await versionedDataset(ctx, system.id, 'source');
    const topic = await versionedDataset(ctx, system.id, 'kafka', undefined, 'kafka');
    const link = await createLink(ctx, source, topic);
    const spark = await createEngine(ctx, 'spark');
    const debezium = await createEngine(ctx, 'debezium');
    const patch = (body: Record<string, unknown>) =>
      ctx.request('PATCH', `${links}/${link.id}`, { token: ctx.userToken, body });

    const incompatible = await patch({ engine_id: spark.id, row_version: 1 });
    expect(expectEnvelope(incompatible, 409, 'ENGINE_INCOMPATIBLE_LINK').details).toEqual({
      engine_role: 'compute',
      source_kind: 'rdbms',
      target_kind: 'kafka',
    });
    expectEnvelope(await patch({ engine_id: UNKNOWN_ID, row_version: 1 }), 404, 'ENGINE_NOT_FOUND');
    expect(ok(await patch({ engine_id: debezium.id, row_version: 1 }))).toMatchObject({
      engine_id: debezium.id,
    });

    const inUse = await ctx.request('DELETE', `${API}/engines/${debezium.id}`, { token: ctx.adminToken });
    expect(expectEnvelope(inUse, 409, 'ENGINE_IN_USE').details).toEqual({ dataset_links: 1 });
    expect(ok(await patch({ engine_id: null, row_version: 2 }))).toMatchObject({ engine_id: null });
    ok(await ctx.request('DELETE', `${API}/engines/${debezium.id}`, { token: ctx.adminToken }));
  });

  it('accepts a compatible engine at create (compute on kafka → hive)', async () => {
    const topic = await versionedDataset(ctx, system.id, 'kafka', undefined, 'kafka');
    const table = await versionedDataset(ctx, system.id, 'raw', undefined, 'hive');
    const spark = await createEngine(ctx, 'spark');
    expect(await createLink(ctx, topic, table, { engine_id: spark.id })).toMatchObject({
      engine_id: spark.id,
    });
  });
});

describe('dataset links: delete, restore and the guards they put on others', () => {
  it('soft-deletes (superusers) and restores', async () => {
    const [source, target] = await pair();
    const link = await createLink(ctx, source, target);
    expectEnvelope(
      await ctx.request('DELETE', `${links}/${link.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    const deleted = ok(await ctx.request('DELETE', `${links}/${link.id}`, { token: ctx.adminToken }));
    expect(deleted.deleted_at).not.toBeNull();
    expectEnvelope(
      await ctx.request('GET', `${links}/${link.id}`, { token: ctx.userToken }),
      404,
      'DATASET_LINK_NOT_FOUND',
    );
    const restored = ok(await ctx.request('POST', `${links}/${link.id}/restore`, { token: ctx.adminToken }));
    expect(restored).toMatchObject({ id: link.id, deleted_at: null, row_version: 2 });
    expectEnvelope(
      await ctx.request('POST', `${links}/${link.id}/restore`, { token: ctx.adminToken }),
      400,
      'ENTITY_NOT_DELETED',
    );
  });

  it('re-checks the pair on restore: 409 DATASET_LINK_ALREADY_EXISTS when a newer link took it (not 500)', async () => {
    const [source, target] = await pair();
    const old = await createLink(ctx, source, target);
    ok(await ctx.request('DELETE', `${links}/${old.id}`, { token: ctx.adminToken }));
    await createLink(ctx, source, target);
    const r = await ctx.request('POST', `${links}/${old.id}/restore`, { token: ctx.adminToken });
    expectEnvelope(r, 409, 'DATASET_LINK_ALREADY_EXISTS');
  });

  it('re-checks the datasets and the engine on restore', async () => {
    const [source, target] = await pair();
    const link = await createLink(ctx, source, target);
    ok(await ctx.request('DELETE', `${links}/${link.id}`, { token: ctx.adminToken }));
    ok(await ctx.request('DELETE', `${API}/datasets/${target.dataset.id}`, { token: ctx.adminToken }));
    const r = await ctx.request('POST', `${links}/${link.id}/restore`, { token: ctx.adminToken });
    expectEnvelope(r, 404, 'DATASET_NOT_FOUND');

    const topic = await versionedDataset(ctx, system.id, 'kafka', undefined, 'kafka');
    const table = await versionedDataset(ctx, system.id, 'raw', undefined, 'hive');
    const spark = await createEngine(ctx, 'spark');
    const driven = await createLink(ctx, topic, table, { engine_id: spark.id });
    ok(await ctx.request('DELETE', `${links}/${driven.id}`, { token: ctx.adminToken }));
    ok(await ctx.request('DELETE', `${API}/engines/${spark.id}`, { token: ctx.adminToken }));
    const e = await ctx.request('POST', `${links}/${driven.id}/restore`, { token: ctx.adminToken });
    expectEnvelope(e, 404, 'ENGINE_NOT_FOUND');
  });

  it('keeps a linked dataset from being deleted (409 DATASET_HAS_ACTIVE_LINKS), on either side', async () => {
    const [source, target] = await pair();
    const link = await createLink(ctx, source, target);
    for (const side of [source, target]) {
      const r = await ctx.request('DELETE', `${API}/datasets/${side.dataset.id}`, { token: ctx.adminToken });
      expect(expectEnvelope(r, 409, 'DATASET_HAS_ACTIVE_LINKS').details).toEqual({ dataset_links: 1 });
    }
    ok(await ctx.request('DELETE', `${links}/${link.id}`, { token: ctx.adminToken }));
    ok(await ctx.request('DELETE', `${API}/datasets/${source.dataset.id}`, { token: ctx.adminToken }));
  });

  it('keeps a pinned schema version from being deleted, even by a deleted link (409 DATASET_SCHEMA_IN_USE)', async () => {
    const source = await versionedDataset(ctx, system.id, 'source');
    const target = await createDataset(ctx, system.id, 'rdbms', { layer: 'raw' });
    const empty = ok(
      await ctx.request('POST', `${API}/dataset-schemas`, {
        token: ctx.userToken,
        body: { dataset_id: target.id },
      }),
      201,
    );
    const link = ok(
      await post({
        source_dataset_id: source.dataset.id,
        target_dataset_id: target.id,
        source_schema_id: source.schemaId,
        target_schema_id: empty.id,
      }),
      201,
    );
    ok(await ctx.request('DELETE', `${links}/${link.id}`, { token: ctx.adminToken }));
    const r = await ctx.request('DELETE', `${API}/dataset-schemas/${empty.id}`, { token: ctx.adminToken });
    expect(expectEnvelope(r, 409, 'DATASET_SCHEMA_IN_USE').details).toEqual({ dataset_links: 1 });
  });
});
