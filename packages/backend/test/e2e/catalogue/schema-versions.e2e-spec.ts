// Schema versions over HTTP: POST/GET /datasets/{id}/schema-versions (publish, history, one version,
// diff), concurrency of publishes, immutability of published versions, and the granular routes
// /dataset-schemas and /field-bindings.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  createField,
  createPgSystem,
  dataTypesOf,
  flavorByCode,
  publish,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { createSystem, ok, UNKNOWN_ID } from '../../helpers/factories.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
  USER,
} from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;
let pg: Map<string, Row>;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
  pg = await dataTypesOf(ctx, 'postgres14');
});
afterAll(async () => {
  await ctx.close();
});

const v422 = (r: TestResponse) => expectEnvelope(r, 422, 'VALIDATION_ERROR');
const versions = (datasetId: string) => `${API}/datasets/${datasetId}/schema-versions`;

function arrayOf(dataType: string, params?: Record<string, unknown>) {
  return {
    data_type: 'array',
    children: [{ slot: 'item', type: { data_type: dataType, ...(params ? { params } : {}) } }],
  };
}

async function count(path: string): Promise<number> {
  return ok(await ctx.request('GET', path, { token: ctx.userToken })).total;
}

const V1 = [
  column('id', 'integer', undefined, false),
  column('name', 'varchar', { length: 10 }),
  column('amount', 'numeric', { precision: 12, scale: 2 }),
  column('legacy', 'text'),
  column('ts', 'timestamp'),
];

describe('publishing a version', () => {
  let dataset: Row;
  let v1: Row;

  beforeAll(async () => {
    dataset = await createDataset(ctx, system.id);
  });

  it('publishes the first version (201, created), creating fields, type trees and bindings', async () => {
    const body = ok(
      await publish(ctx, dataset.id, {
        columns: [...V1, { name: 'tags', nullable: true, type: arrayOf('varchar', { length: 10 }) }],
        note: 'initial',
      }),
      201,
    );
    expect(body.created).toBe(true);
    v1 = body.version;
    expect(v1).toMatchObject({ dataset_id: dataset.id, version_num: 1 });
    expect(v1.columns.map((c: Row) => [c.name, c.position, c.nullable, c.rendered_type, c.pii_tags])).toEqual(
      [
        ['id', 0, false, 'integer', null],
        ['name', 1, true, 'varchar(10)', null],
        ['amount', 2, true, 'numeric(12,2)', null],
        ['legacy', 3, true, 'text', null],
        ['ts', 4, true, 'timestamp', null],
        ['tags', 5, true, 'varchar(10)[]', null],
      ],
    );
    const tags = v1.columns[5];
    expect(tags.type).toMatchObject({
      id: tags.type_instance_id,
      data_type_code: 'array',
      type_params: null,
      slot: null,
      children: [{ data_type_code: 'varchar', type_params: { length: 10 }, slot: 'item', children: [] }],
    });
    const fields = ok(
      await ctx.request('GET', `${API}/fields?dataset_id=${dataset.id}&size=100`, { token: ctx.userToken }),
    );
    expect(fields.items.map((f: Row) => f.name).sort()).toEqual([
      'amount',
      'id',
      'legacy',
      'name',
      'tags',
      'ts',
    ]);
    expect(fields.items.find((f: Row) => f.name === 'id').id).toBe(v1.columns[0].field_id);
    const header = ok(
      await ctx.request('GET', `${API}/dataset-schemas/${v1.dataset_schema_id}`, { token: ctx.userToken }),
    );
    expect(header).toMatchObject({
      dataset_id: dataset.id,
      version_num: 1,
      note: 'initial',
      created_by: USER.id,
    });
    expect(await count(`${API}/field-bindings?dataset_schema_id=${v1.dataset_schema_id}`)).toBe(6);
  });

  it('answers a publish identical to the current version with 200, created: false, writing nothing', async () => {
    const headers = await count(`${API}/dataset-schemas?dataset_id=${dataset.id}`);
    const instances = await count(`${API}/type-instances?size=1`);
    const again = ok(
      await publish(ctx, dataset.id, {
        columns: [...V1, { name: 'tags', nullable: true, type: arrayOf('varchar', { length: 10 }) }],
      }),
      200,
    );
    expect(again.created).toBe(false);
    expect(again.version).toEqual(v1);
    // Explicit nulls and params in another key order are the same shape.
    const reordered = V1.map((c) =>
      c.name === 'amount' ? column('amount', 'numeric', { scale: 2, precision: 12 }) : c,
    );
    const same = ok(
      await publish(ctx, dataset.id, {
        columns: [...reordered, { name: 'tags', type: arrayOf('varchar', { length: 10 }) }],
      }),
      200,
    );
    expect(same.created).toBe(false);
    expect(await count(`${API}/dataset-schemas?dataset_id=${dataset.id}`)).toBe(headers);
    expect(await count(`${API}/type-instances?size=1`)).toBe(instances);
  });

  it('publishes a changed shape as version 2, reusing the type trees of unchanged columns', async () => {
    const v2 = ok(
      await publish(ctx, dataset.id, {
        columns: [
          column('id', 'integer', undefined, false),
          column('amount', 'numeric', { precision: 14, scale: 2 }),
          column('name', 'varchar', { length: 10 }, false),
          column('ts', 'timestamp'),
          column('email', 'varchar'),
        ],
      }),
      201,
    );
    expect(v2.created).toBe(true);
    expect(v2.version.version_num).toBe(2);
    const byName = (v: Row) => {
      const columns = new Map<string, Row>(v.columns.map((c: Row) => [c.name, c]));
      return { get: (name: string) => columns.get(name) as Row };
    };
    const before = byName(v1);
    const after = byName(v2.version);
    for (const name of ['id', 'name', 'ts']) {
      expect(after.get(name).type_instance_id).toBe(before.get(name).type_instance_id);
      expect(after.get(name).field_id).toBe(before.get(name).field_id);
    }
    expect(after.get('amount').type_instance_id).not.toBe(before.get('amount').type_instance_id);
    expect(after.get('amount').field_id).toBe(before.get('amount').field_id);
    expect(after.get('email').rendered_type).toBe('varchar');

    const history = ok(await ctx.request('GET', versions(dataset.id), { token: ctx.userToken }));
    expect(history.map((h: Row) => [h.version_num, h.column_count])).toEqual([
      [2, 5],
      [1, 6],
    ]);
    expect(history[0]).toMatchObject({
      dataset_schema_id: v2.version.dataset_schema_id,
      created_by: USER.id,
    });
  });

  it('diffs two versions: added, removed, type changed, nullability changed, reordered', async () => {
    const diff = ok(
      await ctx.request('GET', `${versions(dataset.id)}/diff?from=1&to=2`, { token: ctx.userToken }),
    );
    // The crawler's categories (defaults, keys, …) are covered by crawler-structure.e2e-spec.ts.
    expect(diff).toMatchObject({
      dataset_id: dataset.id,
      from_version: 1,
      to_version: 2,
      added: [{ name: 'email', position: 4, nullable: true, rendered_type: 'varchar', native_type: null }],
      removed: [
        { name: 'legacy', position: 3, nullable: true, rendered_type: 'text', native_type: null },
        { name: 'tags', position: 5, nullable: true, rendered_type: 'varchar(10)[]', native_type: null },
      ],
      type_changed: [{ name: 'amount', from_type: 'numeric(12,2)', to_type: 'numeric(14,2)' }],
      nullability_changed: [{ name: 'name', from_nullable: true, to_nullable: false }],
      reordered: [
        { name: 'amount', from_position: 2, to_position: 1 },
        { name: 'name', from_position: 1, to_position: 2 },
      ],
      default_changed: [],
      identical: false,
    });
    const back = ok(
      await ctx.request('GET', `${versions(dataset.id)}/diff?from=2&to=1`, { token: ctx.userToken }),
    );
    expect(back.added.map((c: Row) => c.name)).toEqual(['legacy', 'tags']);
    expect(back.removed.map((c: Row) => c.name)).toEqual(['email']);
    expect(back.type_changed).toEqual([
      { name: 'amount', from_type: 'numeric(14,2)', to_type: 'numeric(12,2)' },
    ]);
    const same = ok(
      await ctx.request('GET', `${versions(dataset.id)}/diff?from=2&to=2`, { token: ctx.userToken }),
    );
    expect([same.added, same.removed, same.type_changed, same.nullability_changed, same.reordered]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);

    expectEnvelope(
      await ctx.request('GET', `${versions(dataset.id)}/diff?from=1&to=9`, { token: ctx.userToken }),
      404,
      'DATASET_SCHEMA_NOT_FOUND',
    );
    v422(await ctx.request('GET', `${versions(dataset.id)}/diff?from=1`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${versions(dataset.id)}/diff?from=one&to=2`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${versions(dataset.id)}/diff?from=1&to=2&x=3`, { token: ctx.userToken }));
    expectEnvelope(
      await ctx.request('GET', `${versions(UNKNOWN_ID)}/diff?from=1&to=2`, { token: ctx.userToken }),
      404,
      'DATASET_NOT_FOUND',
    );
    expectEnvelope(await ctx.request('GET', `${versions(dataset.id)}/diff?from=1&to=2`), 401, 'UNAUTHORIZED');
  });

  it('returns one version with fields, type trees, rendered types and current PII tags', async () => {
    const nameField = v1.columns[1].field_id;
    ok(
      await ctx.request('POST', `${API}/field-classifications`, {
        token: ctx.userToken,
        body: { field_id: nameField, pii_tags: ['person'] },
      }),
      201,
    );
    ok(
      await ctx.request('POST', `${API}/field-classifications`, {
        token: ctx.userToken,
        body: { field_id: nameField, pii_tags: ['name', 'person'] },
      }),
      201,
    );
    const got = ok(await ctx.request('GET', `${versions(dataset.id)}/1`, { token: ctx.userToken }));
    expect(got.dataset_schema_id).toBe(v1.dataset_schema_id);
    expect(got.columns.map((c: Row) => c.rendered_type)).toEqual([
      'integer',
      'varchar(10)',
      'numeric(12,2)',
      'text',
      'timestamp',
      'varchar(10)[]',
    ]);
    expect(got.columns.map((c: Row) => c.pii_tags)).toEqual([
      null,
      ['name', 'person'],
      null,
      null,
      null,
      null,
    ]);
    expect(got.columns[2].type).toMatchObject({
      data_type_code: 'numeric',
      type_params: { precision: 12, scale: 2 },
      children: [],
    });
    const latest = ok(await ctx.request('GET', `${versions(dataset.id)}/2`, { token: ctx.userToken }));
    expect(latest.columns.find((c: Row) => c.name === 'name').pii_tags).toEqual(['name', 'person']);
    expect(latest.columns.find((c: Row) => c.name === 'email').rendered_type).toBe('varchar');

    expectEnvelope(
      await ctx.request('GET', `${versions(dataset.id)}/3`, { token: ctx.userToken }),
      404,
      'DATASET_SCHEMA_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('GET', `${versions(UNKNOWN_ID)}/1`, { token: ctx.userToken }),
      404,
      'DATASET_NOT_FOUND',
    );
    v422(await ctx.request('GET', `${versions(dataset.id)}/0`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${versions(dataset.id)}/one`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${versions(dataset.id)}/99999999999`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${versions(dataset.id)}/1?expand=1`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${versions('nope')}/1`, { token: ctx.userToken }));
    expectEnvelope(await ctx.request('GET', `${versions(dataset.id)}/1`), 401, 'UNAUTHORIZED');
  });

  it('makes a published version immutable: its header, bindings and type trees answer 409', async () => {
    const header = ok(
      await ctx.request('GET', `${API}/dataset-schemas/${v1.dataset_schema_id}`, { token: ctx.userToken }),
    );
    const immutable = (r: TestResponse) => expectEnvelope(r, 409, 'DATASET_SCHEMA_IMMUTABLE');
    immutable(
      await ctx.request('PUT', `${API}/dataset-schemas/${header.id}`, {
        token: ctx.userToken,
        body: { note: 'edit', row_version: header.row_version },
      }),
    );
    immutable(
      await ctx.request('PATCH', `${API}/dataset-schemas/${header.id}`, {
        token: ctx.userToken,
        body: { schema: {}, row_version: header.row_version },
      }),
    );
    immutable(await ctx.request('DELETE', `${API}/dataset-schemas/${header.id}`, { token: ctx.adminToken }));

    const bindings = ok(
      await ctx.request('GET', `${API}/field-bindings?dataset_schema_id=${header.id}`, {
        token: ctx.userToken,
      }),
    ).items as Row[];
    const binding = bindings[0];
    immutable(
      await ctx.request('PUT', `${API}/field-bindings/${binding.id}`, {
        token: ctx.userToken,
        body: { is_nullable: true, row_version: 1 },
      }),
    );
    immutable(
      await ctx.request('PATCH', `${API}/field-bindings/${binding.id}`, {
        token: ctx.userToken,
        body: { position: 99, row_version: 1 },
      }),
    );
    immutable(await ctx.request('DELETE', `${API}/field-bindings/${binding.id}`, { token: ctx.adminToken }));

    const tags = v1.columns[5];
    immutable(
      await ctx.request('PUT', `${API}/type-instances/${tags.type_instance_id}`, {
        token: ctx.userToken,
        body: { type_params: null, row_version: 1 },
      }),
    );
    const child = tags.type.children[0];
    immutable(
      await ctx.request('PATCH', `${API}/type-instances/${child.id}`, {
        token: ctx.userToken,
        body: { type_params: { length: 99 }, row_version: 1 },
      }),
    );
    immutable(await ctx.request('DELETE', `${API}/type-instances/${child.id}`, { token: ctx.adminToken }));
    immutable(
      await ctx.request('DELETE', `${API}/type-instances/${tags.type_instance_id}`, {
        token: ctx.adminToken,
      }),
    );
    // Nor can a bound tree grow: a new child would change the published type.
    const text = (pg.get('text') as Row).id;
    immutable(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: text, parent_id: tags.type_instance_id, slot: 'field:x' },
      }),
    );
    immutable(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: text, parent_id: child.id, slot: 'item' },
      }),
    );
    immutable(
      await ctx.request('POST', `${API}/type-instances/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            { data_type_id: text },
            { data_type_id: text, parent_id: tags.type_instance_id, slot: 'key' },
          ],
        },
      }),
    );
    // A bound field cannot be deleted either: that would take its bindings out of published versions.
    immutable(
      await ctx.request('DELETE', `${API}/fields/${v1.columns[0].field_id}`, { token: ctx.adminToken }),
    );

    const again = ok(await ctx.request('GET', `${versions(dataset.id)}/1`, { token: ctx.userToken }));
    expect(again.columns.map((c: Row) => [c.name, c.type_instance_id, c.rendered_type])).toEqual(
      v1.columns.map((c: Row) => [c.name, c.type_instance_id, c.rendered_type]),
    );
    expect(
      ok(await ctx.request('GET', `${API}/dataset-schemas/${header.id}`, { token: ctx.userToken })),
    ).toEqual(header);
  });

  it('takes a client-supplied version_num only when it is the next one: existing 409, gap 422', async () => {
    const err = expectEnvelope(
      await publish(ctx, dataset.id, { version_num: 1, columns: [column('other', 'text')] }),
      409,
      'DATASET_SCHEMA_ALREADY_EXISTS',
    );
    expect(err.details).toMatchObject({ version_num: 1 });
    expect(await count(`${API}/fields?dataset_id=${dataset.id}&name=other`)).toBe(0);
    const history: Row[] = ok(await ctx.request('GET', versions(dataset.id), { token: ctx.userToken }));
    const expected = (history[0]?.version_num as number) + 1;
    // A number past the next one would leave a gap (2147483647 would leave no number for any later
    // version): refused, naming the next number, writing nothing.
    for (const wanted of [expected + 1, 2_147_483_647]) {
      const gap = expectEnvelope(
        await publish(ctx, dataset.id, { version_num: wanted, columns: [column('other', 'text')] }),
        422,
        'DATASET_SCHEMA_VERSION_NOT_NEXT',
      );
      expect(gap.details).toEqual({ version_num: wanted, next_version_num: expected });
    }
    expect(await count(`${API}/fields?dataset_id=${dataset.id}&name=other`)).toBe(0);
    const named = ok(
      await publish(ctx, dataset.id, { version_num: expected, columns: [column('other', 'text')] }),
      201,
    );
    expect(named.version.version_num).toBe(expected);
    const next = ok(
      await publish(ctx, dataset.id, { columns: [column('other', 'text'), column('more', 'date')] }),
      201,
    );
    expect(next.version.version_num).toBe(expected + 1);
  });
});

describe('fields of published versions', () => {
  it('refuses renaming or moving a bound field (409) but allows its other attributes', async () => {
    const dataset = await createDataset(ctx, system.id);
    const version = ok(
      await publish(ctx, dataset.id, { columns: [column('id', 'integer'), column('name', 'text')] }),
      201,
    ).version;
    const id = version.columns[0].field_id as string;
    const other = version.columns[1].field_id as string;
    const field = ok(await ctx.request('GET', `${API}/fields/${id}`, { token: ctx.userToken }));
    const put = (body: Record<string, unknown>) =>
      ctx.request('PUT', `${API}/fields/${id}`, {
        token: ctx.userToken,
        body: { row_version: field.row_version, ...body },
      });
    expectEnvelope(await put({ name: 'renamed' }), 409, 'DATASET_SCHEMA_IMMUTABLE');
    expectEnvelope(await put({ parent_id: other }), 409, 'DATASET_SCHEMA_IMMUTABLE');
    expect(ok(await put({ path: 'public.t.id', note: 'documented' }))).toMatchObject({
      name: 'id',
      path: 'public.t.id',
    });
    const again = ok(await ctx.request('GET', `${versions(dataset.id)}/1`, { token: ctx.userToken }));
    expect(again.columns.map((c: Row) => c.name)).toEqual(['id', 'name']);
  });
});

describe('publishing changes without new columns', () => {
  it.each([
    ['a type change', [column('id', 'bigint'), column('name', 'text')]],
    ['a nullability change', [column('id', 'integer', undefined, false), column('name', 'text')]],
    ['a reorder', [column('name', 'text'), column('id', 'integer')]],
    ['a dropped column', [column('id', 'integer')]],
  ])('creates the next version for %s (no field or type to create)', async (_what, columns) => {
    const dataset = await createDataset(ctx, system.id);
    ok(await publish(ctx, dataset.id, { columns: [column('id', 'integer'), column('name', 'text')] }), 201);
    const body = ok(await publish(ctx, dataset.id, { columns }), 201);
    expect(body).toMatchObject({ created: true, version: { version_num: 2 } });
    expect(body.version.columns.map((c: Row) => c.name)).toEqual(columns.map((c) => c.name));
  });
});

describe('publishing: validation and errors', () => {
  // A fresh dataset per test, so that a failure of one cannot hide or cause another.
  let dataset: Row;
  beforeEach(async () => {
    dataset = await createDataset(ctx, system.id);
  });

  async function nothingWritten(): Promise<void> {
    expect(await count(`${API}/dataset-schemas?dataset_id=${dataset.id}`)).toBe(0);
    expect(await count(`${API}/fields?dataset_id=${dataset.id}`)).toBe(0);
  }

  it('answers 401 without a token and 404 for an unknown dataset', async () => {
    expectEnvelope(
      await ctx.request('POST', versions(dataset.id), { body: { columns: [column('a', 'text')] } }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(await ctx.request('GET', versions(dataset.id)), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await publish(ctx, UNKNOWN_ID, { columns: [column('a', 'text')] }),
      404,
      'DATASET_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('GET', versions(UNKNOWN_ID), { token: ctx.userToken }),
      404,
      'DATASET_NOT_FOUND',
    );
    expect(ok(await ctx.request('GET', versions(dataset.id), { token: ctx.userToken }))).toEqual([]);
    v422(await ctx.request('GET', `${versions(dataset.id)}?page=2`, { token: ctx.userToken }));
  });

  it('refuses an unknown data type code (also one of another flavor) with 404 naming the path', async () => {
    const err = expectEnvelope(
      await publish(ctx, dataset.id, {
        columns: [column('a', 'text'), { name: 'b', type: arrayOf('string') }],
      }),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expect(err.details).toMatchObject({
      data_type: 'string',
      path: ['columns', 1, 'type', 'children', 0, 'type', 'data_type'],
    });
    await nothingWritten();
  });

  it('refuses invalid params with 422 TYPE_INSTANCE_PARAMS_INVALID naming the param', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ length: 'ten' }, 'columns.1.type.params.length'],
      [{ length: 0 }, 'columns.1.type.params.length'],
      [{ size: 3 }, 'columns.1.type.params.size'],
    ];
    for (const [params, path] of cases) {
      const err = expectEnvelope(
        await publish(ctx, dataset.id, { columns: [column('a', 'text'), column('b', 'varchar', params)] }),
        422,
        'TYPE_INSTANCE_PARAMS_INVALID',
      );
      expect(err.details.issues.map((i: { path: (string | number)[] }) => i.path.join('.'))).toContain(path);
    }
    await nothingWritten();
  });

  it('refuses malformed bodies (422)', async () => {
    const bad: unknown[] = [
      {},
      // `{ columns: [] }` is a table without columns (CREATE TABLE t ()): published since ADR 0054.
      { columns: [column('a', 'text'), column('a', 'integer')] },
      { columns: [column('a', 'text')], colour: 'red' },
      { columns: [{ ...column('a', 'text'), width: 3 }] },
      { columns: [{ name: 'a', type: 'text' }] },
      { columns: [{ name: '', type: { data_type: 'text' } }] },
      { columns: [{ name: 'a', nullable: 'yes', type: { data_type: 'text' } }] },
      {
        columns: [
          {
            name: 'a',
            type: { data_type: 'array', children: [{ slot: 'items', type: { data_type: 'text' } }] },
          },
        ],
      },
      { columns: [column('a', 'text')], version_num: 0 },
      { columns: [column('a', 'text')], version_num: 'one' },
    ];
    for (const body of bad) v422(await publish(ctx, dataset.id, body as Record<string, unknown>));
    v422(await publish(ctx, 'nope', { columns: [column('a', 'text')] }));
    expectEnvelope(
      await publish(ctx, dataset.id, {
        columns: [
          {
            name: 'a',
            type: {
              data_type: 'array',
              children: [
                { slot: 'item', type: { data_type: 'text' } },
                { slot: 'item', type: { data_type: 'integer' } },
              ],
            },
          },
        ],
      }),
      409,
      'TYPE_INSTANCE_SLOT_ALREADY_EXISTS',
    );
    await nothingWritten();
  });

  it('refuses an array without its element type (422), writing nothing', async () => {
    expectEnvelope(
      await publish(ctx, dataset.id, { columns: [{ name: 'a', type: { data_type: 'array' } }] }),
      422,
      'TYPE_INSTANCE_RENDER_FAILED',
    );
    await nothingWritten();
  });

  it('answers 422, never 500, for a type that cannot be rendered (too deep, too long), writing nothing', async () => {
    // 33 nested arrays: deeper than a type tree may be (and than the renderer renders).
    let deep: Record<string, unknown> = { data_type: 'integer' };
    for (let i = 0; i < 32; i++) deep = { data_type: 'array', children: [{ slot: 'item', type: deep }] };
    expectEnvelope(
      await publish(ctx, dataset.id, { columns: [{ name: 'deep', type: deep }] }),
      422,
      'TYPE_INSTANCE_TREE_TOO_LARGE',
    );
    await nothingWritten();

    const lake = await createSystem(ctx, (await flavorByCode(ctx, 'iceberg_v2')).id);
    const table = await createDataset(ctx, lake.id, 'hive');
    const wide = {
      data_type: 'struct',
      children: Array.from({ length: 100 }, (_, i) => ({
        slot: `field:${'x'.repeat(240)}${i}`,
        type: { data_type: 'string' },
      })),
    };
    expectEnvelope(
      await publish(ctx, table.id, { columns: [{ name: 'wide', type: wide }] }),
      422,
      'TYPE_INSTANCE_RENDER_FAILED',
    );
    expect(await count(`${API}/dataset-schemas?dataset_id=${table.id}`)).toBe(0);
    // A struct of a sane width publishes and renders, members in their declared order.
    const ok201 = ok(
      await publish(ctx, table.id, {
        columns: [
          {
            name: 'point',
            type: {
              data_type: 'struct',
              children: [
                { slot: 'field:y', type: { data_type: 'double' } },
                { slot: 'field:x', type: { data_type: 'long' } },
              ],
            },
          },
        ],
      }),
      201,
    );
    expect(ok201.version.columns[0].rendered_type).toBe('struct<y:double,x:long>');
    expect(
      ok(await ctx.request('GET', `${versions(table.id)}/1`, { token: ctx.userToken })).columns[0]
        .rendered_type,
    ).toBe('struct<y:double,x:long>');
  });
});

describe('publishing under concurrency', () => {
  it('20 concurrent publishes of different shapes produce versions exactly 1..20', async () => {
    const dataset = await createDataset(ctx, system.id);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        publish(ctx, dataset.id, {
          columns: [
            column('id', 'integer', undefined, false),
            column(`col_${i}`, 'varchar', { length: i + 1 }),
          ],
        }),
      ),
    );
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(results.map((r) => r.body.version.version_num).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    const history = ok(await ctx.request('GET', versions(dataset.id), { token: ctx.userToken }));
    expect(history.map((h: Row) => h.version_num)).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(history.every((h: Row) => h.column_count === 2)).toBe(true);
    // One `id` field for all twenty versions.
    expect(await count(`${API}/fields?dataset_id=${dataset.id}&name=id`)).toBe(1);
  });

  it('20 concurrent identical publishes on a fresh dataset produce exactly one version', async () => {
    const dataset = await createDataset(ctx, system.id);
    const columns = [column('id', 'bigint', undefined, false), column('payload', 'jsonb')];
    const results = await Promise.all(
      Array.from({ length: 20 }, () => publish(ctx, dataset.id, { columns })),
    );
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    const created = results.filter((r) => r.status === 201);
    const unchanged = results.filter((r) => r.status === 200);
    expect(created).toHaveLength(1);
    expect(unchanged).toHaveLength(19);
    expect(created[0]?.body.created).toBe(true);
    expect(unchanged.every((r) => r.body.created === false && r.body.version.version_num === 1)).toBe(true);
    expect(
      unchanged.every((r) => r.body.version.dataset_schema_id === created[0]?.body.version.dataset_schema_id),
    ).toBe(true);
    const history = ok(await ctx.request('GET', versions(dataset.id), { token: ctx.userToken }));
    expect(history.map((h: Row) => h.version_num)).toEqual([1]);
    expect(await count(`${API}/dataset-schemas?dataset_id=${dataset.id}`)).toBe(1);
    expect(await count(`${API}/fields?dataset_id=${dataset.id}`)).toBe(2);
  });
});

describe('/dataset-schemas', () => {
  const base = `${API}/dataset-schemas`;
  let dataset: Row;
  beforeAll(async () => {
    dataset = await createDataset(ctx, system.id);
  });

  it('creates headers (regular user) numbered by the server or the client; duplicates are 409', async () => {
    const first = ok(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, schema: { fmt: 'avro' } },
      }),
      201,
    );
    expect(first).toMatchObject({
      dataset_id: dataset.id,
      version_num: 1,
      schema_: { fmt: 'avro' },
      extra: null,
      row_version: 1,
      created_by: USER.id,
    });
    expect(ok(await ctx.request('GET', `${base}/${first.id}`, { token: ctx.userToken }))).toEqual(first);
    // The client may name the next number; a gap (or the largest int) is 422 and an existing one 409.
    const two = ok(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, version_num: 2 },
      }),
      201,
    );
    expect(two.version_num).toBe(2);
    for (const version_num of [5, 2_147_483_647]) {
      expectEnvelope(
        await ctx.request('POST', base, {
          token: ctx.userToken,
          body: { dataset_id: dataset.id, version_num },
        }),
        422,
        'DATASET_SCHEMA_VERSION_NOT_NEXT',
      );
    }
    const three = ok(
      await ctx.request('POST', base, { token: ctx.userToken, body: { dataset_id: dataset.id } }),
      201,
    );
    expect(three.version_num).toBe(3);
    expectEnvelope(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, version_num: 2 },
      }),
      409,
      'DATASET_SCHEMA_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', base, { token: ctx.userToken, body: { dataset_id: UNKNOWN_ID } }),
      404,
      'DATASET_NOT_FOUND',
    );
    const list = ok(
      await ctx.request('GET', `${base}?dataset_id=${dataset.id}&version_num__gte=2&sort=-version_num`, {
        token: ctx.userToken,
      }),
    );
    expect(list.items.map((s: Row) => s.version_num)).toEqual([3, 2]);
  });

  it('updates and deletes an empty header (delete: superuser); stale is 409', async () => {
    const header = ok(
      await ctx.request('POST', base, { token: ctx.userToken, body: { dataset_id: dataset.id } }),
      201,
    );
    const updated = ok(
      await ctx.request('PUT', `${base}/${header.id}`, {
        token: ctx.userToken,
        body: { schema: { a: 1 }, extra: { b: 2 }, row_version: 1 },
      }),
    );
    expect(updated).toMatchObject({
      schema_: { a: 1 },
      extra: { b: 2 },
      row_version: 2,
      version_num: header.version_num,
    });
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${header.id}`, {
        token: ctx.userToken,
        body: { note: 'x', row_version: 1 },
      }),
      409,
      'VERSION_CONFLICT',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${base}/${header.id}`, { token: ctx.userToken, body: { note: 'x' } }),
      428,
      'PRECONDITION_REQUIRED',
    );
    v422(
      await ctx.request('PATCH', `${base}/${header.id}`, {
        token: ctx.userToken,
        body: { version_num: 9, row_version: 2 },
      }),
    );
    v422(
      await ctx.request('PATCH', `${base}/${header.id}`, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, row_version: 2 },
      }),
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${header.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    // Only the latest version can go: deleting an earlier one would leave a gap in the numbering.
    const later = ok(
      await ctx.request('POST', base, { token: ctx.userToken, body: { dataset_id: dataset.id } }),
      201,
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${header.id}`, { token: ctx.adminToken }),
      409,
      'DATASET_SCHEMA_NOT_LATEST',
    );
    expect(ok(await ctx.request('DELETE', `${base}/${later.id}`, { token: ctx.adminToken })).id).toBe(
      later.id,
    );
    expect(ok(await ctx.request('DELETE', `${base}/${header.id}`, { token: ctx.adminToken })).id).toBe(
      header.id,
    );
    // The numbers are free again: the next header takes the deleted one's number.
    expect(
      ok(await ctx.request('POST', base, { token: ctx.userToken, body: { dataset_id: dataset.id } }), 201)
        .version_num,
    ).toBe(header.version_num);
    expectEnvelope(
      await ctx.request('GET', `${base}/${header.id}`, { token: ctx.userToken }),
      404,
      'DATASET_SCHEMA_NOT_FOUND',
    );
  });

  it('does not take an empty header for the current version', async () => {
    const ds = await createDataset(ctx, system.id);
    const columns = [column('a', 'text')];
    ok(await publish(ctx, ds.id, { columns }), 201);
    ok(await ctx.request('POST', base, { token: ctx.userToken, body: { dataset_id: ds.id } }), 201);
    const same = ok(await publish(ctx, ds.id, { columns }), 200);
    expect(same).toMatchObject({ created: false, version: { version_num: 1 } });
    const changed = ok(
      await publish(ctx, ds.id, { columns: [column('a', 'text'), column('b', 'text')] }),
      201,
    );
    expect(changed.version.version_num).toBe(3);
  });

  it('answers 401, 404 and 422 like every collection', async () => {
    expectEnvelope(await ctx.request('GET', base), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('POST', base, { body: { dataset_id: dataset.id } }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(
      await ctx.request('GET', `${base}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'DATASET_SCHEMA_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('PUT', `${base}/${UNKNOWN_ID}`, {
        token: ctx.userToken,
        body: { note: 'x', row_version: 1 },
      }),
      404,
      'DATASET_SCHEMA_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${UNKNOWN_ID}`, { token: ctx.adminToken }),
      404,
      'DATASET_SCHEMA_NOT_FOUND',
    );
    v422(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, colour: 'red' },
      }),
    );
    v422(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id, schema: 'x' },
      }),
    );
    v422(await ctx.request('POST', base, { token: ctx.userToken, body: { dataset_id: 'x' } }));
    v422(await ctx.request('GET', `${base}/x`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?colour=red`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?version_num=one`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?sort=schema_`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?size=101`, { token: ctx.userToken }));
  });
});

describe('/field-bindings', () => {
  const base = `${API}/field-bindings`;
  let dataset: Row;
  let header: Row;
  let fieldA: Row;
  let fieldB: Row;
  let fieldC: Row;

  const root = async (code: string, params?: Record<string, unknown>) =>
    ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: (pg.get(code) as Row).id, ...(params ? { type_params: params } : {}) },
      }),
      201,
    ) as Row;

  beforeAll(async () => {
    dataset = await createDataset(ctx, system.id, 'rdbms');
    header = ok(
      await ctx.request('POST', `${API}/dataset-schemas`, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id },
      }),
      201,
    );
    fieldA = await createField(ctx, dataset.id, { name: 'a' });
    fieldB = await createField(ctx, dataset.id, { name: 'b' });
    fieldC = await createField(ctx, dataset.id, { name: 'c' });
  });

  it('binds fields to a version one by one and in a batch; the version reads back', async () => {
    const typeA = await root('varchar', { length: 3 });
    const binding = ok(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: {
          field_id: fieldA.id,
          dataset_schema_id: header.id,
          position: 0,
          is_nullable: false,
          type_instance_id: typeA.id,
        },
      }),
      201,
    );
    expect(binding).toMatchObject({
      field_id: fieldA.id,
      dataset_schema_id: header.id,
      position: 0,
      is_nullable: false,
      type_instance_id: typeA.id,
      row_version: 1,
    });
    expect(ok(await ctx.request('GET', `${base}/${binding.id}`, { token: ctx.userToken }))).toEqual(binding);

    const typeB = await root('integer');
    const typeC = await root('numeric', { precision: 3 });
    // A version with bindings is history: nothing more can be bound to it.
    expectEnvelope(
      await ctx.request('POST', base, {
        token: ctx.userToken,
        body: { field_id: fieldB.id, dataset_schema_id: header.id, position: 1, type_instance_id: typeB.id },
      }),
      409,
      'DATASET_SCHEMA_IMMUTABLE',
    );
    const header2 = ok(
      await ctx.request('POST', `${API}/dataset-schemas`, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id },
      }),
      201,
    );
    const batch = ok(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            {
              field_id: fieldA.id,
              dataset_schema_id: header2.id,
              position: 0,
              is_nullable: false,
              type_instance_id: typeA.id,
            },
            { field_id: fieldB.id, dataset_schema_id: header2.id, position: 1, type_instance_id: typeB.id },
            { field_id: fieldC.id, dataset_schema_id: header2.id, position: 2, type_instance_id: typeC.id },
          ],
        },
      }),
      201,
    );
    expect(batch.count).toBe(3);
    expect(batch.items[1].is_nullable).toBe(true);
    const version = ok(
      await ctx.request('GET', `${versions(dataset.id)}/${header2.version_num}`, { token: ctx.userToken }),
    );
    expect(version.columns.map((c: Row) => [c.name, c.position, c.nullable, c.rendered_type])).toEqual([
      ['a', 0, false, 'varchar(3)'],
      ['b', 1, true, 'integer'],
      ['c', 2, true, 'numeric(3)'],
    ]);
    const list = ok(
      await ctx.request('GET', `${base}?dataset_schema_id=${header2.id}&sort=-position`, {
        token: ctx.userToken,
      }),
    );
    expect(list.items.map((b: Row) => b.position)).toEqual([2, 1, 0]);
    expectEnvelope(
      await ctx.request('PUT', `${API}/dataset-schemas/${header.id}`, {
        token: ctx.userToken,
        body: { note: 'x', row_version: 1 },
      }),
      409,
      'DATASET_SCHEMA_IMMUTABLE',
    );
  });

  it('refuses duplicates (409), foreign fields and non-root types (422), unknown references (404)', async () => {
    const h = ok(
      await ctx.request('POST', `${API}/dataset-schemas`, {
        token: ctx.userToken,
        body: { dataset_id: dataset.id },
      }),
      201,
    );
    const t = await root('text');
    const bind = (body: Record<string, unknown>) =>
      ctx.request('POST', base, {
        token: ctx.userToken,
        body: { field_id: fieldA.id, dataset_schema_id: h.id, position: 0, type_instance_id: t.id, ...body },
      });
    const other = await createDataset(ctx, system.id);
    const foreign = await createField(ctx, other.id);
    expectEnvelope(await bind({ field_id: foreign.id, position: 5 }), 422, 'SCHEMA_DATASET_MISMATCH');
    const array = await root('array');
    const child = ok(
      await ctx.request('POST', `${API}/type-instances`, {
        token: ctx.userToken,
        body: { data_type_id: (pg.get('text') as Row).id, parent_id: array.id, slot: 'item' },
      }),
      201,
    );
    v422(await bind({ field_id: fieldB.id, position: 5, type_instance_id: child.id }));
    expectEnvelope(await bind({ field_id: UNKNOWN_ID, position: 5 }), 404, 'FIELD_NOT_FOUND');
    expectEnvelope(
      await bind({ dataset_schema_id: UNKNOWN_ID, field_id: fieldB.id, position: 5 }),
      404,
      'DATASET_SCHEMA_NOT_FOUND',
    );
    expectEnvelope(
      await bind({ type_instance_id: UNKNOWN_ID, field_id: fieldB.id, position: 5 }),
      404,
      'TYPE_INSTANCE_NOT_FOUND',
    );
    const before = await count(`${base}?dataset_schema_id=${h.id}`);
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            { field_id: fieldB.id, dataset_schema_id: h.id, position: 1, type_instance_id: t.id },
            { field_id: fieldC.id, dataset_schema_id: h.id, position: 1, type_instance_id: t.id },
          ],
        },
      }),
      409,
      'FIELD_BINDING_POSITION_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', `${base}/batch`, {
        token: ctx.userToken,
        body: {
          items: [
            { field_id: fieldB.id, dataset_schema_id: h.id, position: 1, type_instance_id: t.id },
            { field_id: fieldB.id, dataset_schema_id: h.id, position: 2, type_instance_id: t.id },
          ],
        },
      }),
      409,
      'FIELD_BINDING_FIELD_ID_ALREADY_EXISTS',
    );
    expect(await count(`${base}?dataset_schema_id=${h.id}`)).toBe(before);
    ok(await bind({}), 201);
    expectEnvelope(await bind({ field_id: fieldB.id, position: 1 }), 409, 'DATASET_SCHEMA_IMMUTABLE');
  });

  it('answers 401, 403, 404 and 422 like every collection', async () => {
    const existing = (
      ok(await ctx.request('GET', `${base}?dataset_schema_id=${header.id}`, { token: ctx.userToken }))
        .items as Row[]
    )[0];
    expectEnvelope(await ctx.request('GET', base), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('POST', base, { body: {} }), 401, 'UNAUTHORIZED');
    expectEnvelope(await ctx.request('POST', `${base}/batch`, { body: { items: [] } }), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${existing.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('GET', `${base}/${UNKNOWN_ID}`, { token: ctx.userToken }),
      404,
      'FIELD_BINDING_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('PUT', `${base}/${UNKNOWN_ID}`, {
        token: ctx.userToken,
        body: { position: 1, row_version: 1 },
      }),
      404,
      'FIELD_BINDING_NOT_FOUND',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${base}/${UNKNOWN_ID}`, { token: ctx.adminToken }),
      404,
      'FIELD_BINDING_NOT_FOUND',
    );
    const body = {
      field_id: fieldA.id,
      dataset_schema_id: header.id,
      position: 7,
      type_instance_id: existing.type_instance_id,
    };
    v422(await ctx.request('POST', base, { token: ctx.userToken, body: { ...body, colour: 'red' } }));
    v422(await ctx.request('POST', base, { token: ctx.userToken, body: { ...body, position: -1 } }));
    v422(await ctx.request('POST', base, { token: ctx.userToken, body: { ...body, position: 'first' } }));
    v422(await ctx.request('POST', base, { token: ctx.userToken, body: { ...body, field_id: 'x' } }));
    v422(await ctx.request('GET', `${base}/x`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?colour=red`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?sort=is_nullable`, { token: ctx.userToken }));
    v422(await ctx.request('GET', `${base}?size=101`, { token: ctx.userToken }));
  });
});
