// One bad version must not poison reads (issue 22 §5). A type tree is complete once it is bound: the
// granular routes build it parent first, so /field-bindings (single and batch) refuses a tree that
// does not render, the moment it would become immutable. A version stored incomplete by an older
// release (its rows inserted here with SQL) is answered with its `read_error` by the version, diff and
// snapshot reads, which go on for everything else, and a superuser can delete it while it is the latest.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  createField,
  createPgSystem,
  dataTypesOf,
  publish,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { ok } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext, USER } from '../../helpers/test-app.js';
import { MAX_TYPE_TREE_DEPTH } from '../../../src/modules/type-instances/type-tree-rules.js';

let ctx: TestContext;
let pg: Map<string, Row>;
let system: Row;
beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  pg = await dataTypesOf(ctx, 'postgres14');
  system = await createPgSystem(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const typeId = (code: string): string => (pg.get(code) as Row).id;
const get = (path: string, token = ctx.userToken) => ctx.request('GET', `${API}${path}`, { token });

async function instance(body: Record<string, unknown>): Promise<Row> {
  return ok(await ctx.request('POST', `${API}/type-instances`, { token: ctx.userToken, body }), 201);
}

/** An empty version built by hand (the original's granular routes) and a field of its dataset. */
async function emptyVersion(datasetId?: string): Promise<{ datasetId: string; header: Row; field: Row }> {
  const id = datasetId ?? (await createDataset(ctx, system.id)).id;
  const header = ok(
    await ctx.request('POST', `${API}/dataset-schemas`, { token: ctx.userToken, body: { dataset_id: id } }),
    201,
  );
  return { datasetId: id, header, field: await createField(ctx, id, { name: 'tags' }) };
}

const binding = (header: Row, field: Row, typeInstanceId: string, position = 0) => ({
  dataset_schema_id: header.id,
  field_id: field.id,
  position,
  type_instance_id: typeInstanceId,
});

const bindingsOf = async (header: Row): Promise<number> =>
  ok(await get(`/field-bindings?dataset_schema_id=${header.id}`)).total;

/** Binds a tree to an empty version straight in the database, as an older release let it be bound. */
async function bindWithSql(header: Row, field: Row, typeInstanceId: string): Promise<void> {
  await ctx.dataSource.query(
    `INSERT INTO field_bindings (field_id, dataset_schema_id, position, type_instance_id, created_by, updated_by)
     VALUES ($1, $2, 0, $3, $4, $4)`,
    [field.id, header.id, typeInstanceId, USER.id],
  );
}

/** A dataset at version 1 (`id integer`) whose version 2 binds an array without its element type. */
async function datasetWithIncompleteVersion(
  systemId: string = system.id,
): Promise<{ datasetId: string; header: Row; root: Row }> {
  const dataset = await createDataset(ctx, systemId);
  ok(await publish(ctx, dataset.id, { columns: [column('id', 'integer')] }), 201);
  const { header, field } = await emptyVersion(dataset.id);
  const root = await instance({ data_type_id: typeId('array') });
  await bindWithSql(header, field, root.id);
  return { datasetId: dataset.id, header, root };
}

/** An array of arrays stored deeper than the limits (its nodes below the root inserted with SQL). */
async function tooDeepTree(): Promise<Row> {
  const root = await instance({ data_type_id: typeId('array') });
  const ids = Array.from({ length: MAX_TYPE_TREE_DEPTH + 8 }, () => randomUUID());
  await ctx.dataSource.query(
    `INSERT INTO type_instances (id, parent_id, slot, data_type_id, created_by, updated_by)
     SELECT id, parent_id, 'item', $3, $4, $4 FROM unnest($1::uuid[], $2::uuid[]) AS t(id, parent_id)`,
    [ids, [root.id, ...ids.slice(0, -1)], typeId('array'), USER.id],
  );
  return root;
}

/** A dataset whose version 1 binds a tree stored deeper than the limits. */
async function datasetWithTooDeepVersion(
  datasetId?: string,
): Promise<{ datasetId: string; header: Row; root: Row }> {
  const version = await emptyVersion(datasetId);
  const root = await tooDeepTree();
  await bindWithSql(version.header, version.field, root.id);
  return { datasetId: version.datasetId, header: version.header, root };
}

describe('binding refuses an incomplete type tree', () => {
  it('POST /field-bindings refuses an array without its element type (422), the version stays empty', async () => {
    const { header, field } = await emptyVersion();
    const root = await instance({ data_type_id: typeId('array') });
    const refused = expectEnvelope(
      await ctx.request('POST', `${API}/field-bindings`, {
        token: ctx.userToken,
        body: binding(header, field, root.id),
      }),
      422,
      'TYPE_INSTANCE_RENDER_FAILED',
    );
    expect(refused.detail).toContain("needs a child type in slot 'item'");
    expect(refused.details).toEqual({ type_instance_id: root.id });
    expect(await bindingsOf(header)).toBe(0);

    // The granular flow goes on: the element type added, the same tree binds and the version reads.
    await instance({ data_type_id: typeId('integer'), parent_id: root.id, slot: 'item' });
    ok(
      await ctx.request('POST', `${API}/field-bindings`, {
        token: ctx.userToken,
        body: binding(header, field, root.id),
      }),
      201,
    );
    const version = ok(await get(`/datasets/${header.dataset_id}/schema-versions/1`));
    expect(version.columns[0].rendered_type).toBe('integer[]');
    expect(version).not.toHaveProperty('read_error');
  });

  it('POST /field-bindings/batch refuses a tree with a child its template ignores, binding nothing', async () => {
    const { datasetId, header, field } = await emptyVersion();
    const other = await createField(ctx, datasetId, { name: 'id' });
    const integer = await instance({ data_type_id: typeId('integer') });
    const misplaced = await instance({ data_type_id: typeId('array') });
    await instance({ data_type_id: typeId('integer'), parent_id: misplaced.id, slot: 'field:x' });
    const refused = expectEnvelope(
      await ctx.request('POST', `${API}/field-bindings/batch`, {
        token: ctx.userToken,
        body: { items: [binding(header, other, integer.id, 0), binding(header, field, misplaced.id, 1)] },
      }),
      422,
      'TYPE_INSTANCE_RENDER_FAILED',
    );
    expect(refused.details).toMatchObject({ type_instance_id: misplaced.id });
    expect(await bindingsOf(header)).toBe(0);
  });
});

describe('a stored version that cannot be read whole does not fail the reads', () => {
  it('GET of the version and the diff answer 200 with its read_error; the other version reads whole', async () => {
    const { datasetId, header, root } = await datasetWithIncompleteVersion();
    const version = ok(await get(`/datasets/${datasetId}/schema-versions/2`));
    expect(version.read_error).toEqual({
      error_code: 'TYPE_INSTANCE_RENDER_FAILED',
      status: 422,
      detail: expect.stringContaining("needs a child type in slot 'item'"),
      details: { type_instance_id: root.id, dataset_schema_id: header.id, version_num: 2 },
    });
    expect(version.columns).toEqual([
      expect.objectContaining({
        name: 'tags',
        rendered_type: null,
        type: expect.objectContaining({ id: root.id, data_type_code: 'array', children: [] }),
      }),
    ]);
    expect(ok(await get(`/datasets/${datasetId}/schema-versions/1`))).not.toHaveProperty('read_error');

    const diff = ok(await get(`/datasets/${datasetId}/schema-versions/diff?from=1&to=2`));
    expect(diff.to_read_error).toEqual(version.read_error);
    expect(diff).not.toHaveProperty('from_read_error');
    expect(diff.added.map((c: Row) => c.name)).toEqual(['tags']);
    expect(diff.removed.map((c: Row) => c.name)).toEqual(['id']);
  });

  it('the system snapshot, its versions route and the fingerprints answer 200, the page whole', async () => {
    const own = await createPgSystem(ctx);
    const good = await createDataset(ctx, own.id);
    ok(await publish(ctx, good.id, { columns: [column('id', 'integer')] }), 201);
    const { datasetId: brokenId, header } = await datasetWithIncompleteVersion(own.id);
    const deep = await createDataset(ctx, own.id);
    const { header: deepHeader, root: deepRoot } = await datasetWithTooDeepVersion(deep.id);

    for (let read = 0; read < 2; read++) {
      const page = ok(await get(`/systems/${own.id}/snapshot`));
      const byDataset = new Map(page.items.map((item: Row) => [item.dataset.id, item.version]));
      const goodVersion = byDataset.get(good.id) as Row;
      expect(goodVersion.columns[0].rendered_type).toBe('integer');
      expect(goodVersion).not.toHaveProperty('read_error');
      const brokenVersion = byDataset.get(brokenId) as Row;
      expect(brokenVersion.version_num).toBe(2);
      expect(brokenVersion.read_error).toMatchObject({
        error_code: 'TYPE_INSTANCE_RENDER_FAILED',
        details: { dataset_schema_id: header.id, version_num: 2 },
      });
      const deepVersion = byDataset.get(deep.id) as Row;
      expect(deepVersion.read_error).toMatchObject({
        error_code: 'TYPE_INSTANCE_TREE_TOO_LARGE',
        details: { type_instance_id: deepRoot.id, dataset_schema_id: deepHeader.id, version_num: 1 },
      });
      expect(deepVersion.columns[0]).toMatchObject({ name: 'tags', type: null, rendered_type: null });
    }
    // A version that cannot be read whole is never stored as a read shape (so never sent stale).
    const shapes = await ctx.dataSource.query(
      'SELECT dataset_schema_id FROM schema_version_read_shapes WHERE dataset_schema_id = ANY($1::uuid[])',
      [[header.id, deepHeader.id]],
    );
    expect(shapes).toEqual([]);

    const versions = ok(
      await ctx.request('POST', `${API}/systems/${own.id}/snapshot/versions`, {
        token: ctx.userToken,
        body: { dataset_ids: [good.id, brokenId, deep.id] },
      }),
    );
    expect(
      new Map(versions.items.map((i: Row) => [i.dataset.id, i.version.read_error?.error_code ?? null])),
    ).toEqual(
      new Map([
        [good.id, null],
        [brokenId, 'TYPE_INSTANCE_RENDER_FAILED'],
        [deep.id, 'TYPE_INSTANCE_TREE_TOO_LARGE'],
      ]),
    );

    const fingerprints = ok(await get(`/systems/${own.id}/snapshot/fingerprints`));
    const heads = new Map(fingerprints.items.map((h: Row) => [h.dataset_id, h]));
    expect(heads.get(good.id)).toMatchObject({ version_num: 1, fingerprint: expect.any(String) });
    expect(heads.get(brokenId)).toMatchObject({ version_num: 2, fingerprint: null });
    expect(heads.get(deep.id)).toMatchObject({ version_num: 1, fingerprint: null });
  });

  it('a newer version publishes over a broken current one, incomplete or too deep', async () => {
    // Publishing the broken version's own (incomplete) type again is refused, not "unchanged".
    const { datasetId: same } = await datasetWithIncompleteVersion();
    const refused = expectEnvelope(
      await publish(ctx, same, { columns: [{ name: 'tags', type: { data_type: 'array' } }] }),
      422,
      'TYPE_INSTANCE_RENDER_FAILED',
    );
    expect(refused.details).toEqual({ path: ['columns', 0, 'type', 'children'] });
    for (const { datasetId } of [await datasetWithIncompleteVersion(), await datasetWithTooDeepVersion()]) {
      const published = ok(
        await publish(ctx, datasetId, { columns: [column('tags', 'text'), column('id', 'integer')] }),
        201,
      );
      expect(published.version).not.toHaveProperty('read_error');
      const history = ok(await get(`/datasets/${datasetId}/schema-versions`));
      expect(history[0].version_num).toBe(published.version.version_num);
    }
  });
});

describe('DELETE /dataset-schemas/{id} of a version that cannot be read whole', () => {
  it('a superuser deletes the latest broken version with its bindings; a readable one stays immutable', async () => {
    const { datasetId, header, root } = await datasetWithIncompleteVersion();
    // The route is a superuser's.
    expectEnvelope(
      await ctx.request('DELETE', `${API}/dataset-schemas/${header.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    const deleted = ok(
      await ctx.request('DELETE', `${API}/dataset-schemas/${header.id}`, { token: ctx.adminToken }),
    );
    expect(deleted).toMatchObject({ id: header.id, version_num: 2 });
    expectEnvelope(await get(`/datasets/${datasetId}/schema-versions/2`), 404, 'DATASET_SCHEMA_NOT_FOUND');
    expect(await bindingsOf(header)).toBe(0);
    // The tree is left unbound: it can be completed and bound again.
    ok(await get(`/type-instances/${root.id}`));
    const history = ok(await get(`/datasets/${datasetId}/schema-versions`));
    expect(history.map((h: Row) => h.version_num)).toEqual([1]);
    // Version 1 reads whole: it is history, which not even a superuser deletes.
    const v1 = ok(await get(`/dataset-schemas?dataset_id=${datasetId}`)).items[0] as Row;
    expectEnvelope(
      await ctx.request('DELETE', `${API}/dataset-schemas/${v1.id}`, { token: ctx.adminToken }),
      409,
      'DATASET_SCHEMA_IMMUTABLE',
    );
    // The number is free again.
    const next = ok(await publish(ctx, datasetId, { columns: [column('tags', 'text')] }), 201);
    expect(next.version.version_num).toBe(2);

    const deep = await datasetWithTooDeepVersion();
    ok(await ctx.request('DELETE', `${API}/dataset-schemas/${deep.header.id}`, { token: ctx.adminToken }));
    expect(ok(await get(`/datasets/${deep.datasetId}/schema-versions`))).toEqual([]);
  });
});

describe('a change inside a tree and a binding of it do not pass each other', () => {
  it('changing the item of a tree being bound waits for the binding, then finds the tree bound (409)', async () => {
    const { header, field } = await emptyVersion();
    const root = await instance({ data_type_id: typeId('array') });
    const item = await instance({ data_type_id: typeId('integer'), parent_id: root.id, slot: 'item' });
    // A binding in progress, as /field-bindings holds it: the root share-locked, the binding written.
    const binder = ctx.dataSource.createQueryRunner();
    await binder.connect();
    try {
      await binder.startTransaction();
      await binder.query('SELECT id FROM type_instances WHERE id = $1 FOR SHARE', [root.id]);
      await binder.query(
        `INSERT INTO field_bindings (field_id, dataset_schema_id, position, type_instance_id, created_by, updated_by)
         VALUES ($1, $2, 0, $3, $4, $4)`,
        [field.id, header.id, root.id, USER.id],
      );
      let answered = false;
      // The item turned into an array of nothing would leave the bound tree incomplete.
      const change = ctx
        .request('PATCH', `${API}/type-instances/${item.id}`, {
          token: ctx.userToken,
          body: { data_type_id: typeId('array'), row_version: item.row_version },
        })
        .finally(() => (answered = true));
      // Until the change either answers or waits on a lock (no sleep: each round is a query).
      for (;;) {
        if (answered) break;
        const waiting = await ctx.dataSource.query(
          `SELECT 1 FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        );
        if (waiting.length > 0) break;
      }
      await binder.commitTransaction();
      expectEnvelope(await change, 409, 'DATASET_SCHEMA_IMMUTABLE');
    } finally {
      if (binder.isTransactionActive) await binder.rollbackTransaction();
      await binder.release();
    }
    const version = ok(await get(`/datasets/${header.dataset_id}/schema-versions/1`));
    expect(version.columns[0].rendered_type).toBe('integer[]');
  });
});
