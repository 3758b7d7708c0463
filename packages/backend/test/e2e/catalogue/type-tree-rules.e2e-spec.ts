// The type-tree rules (type-tree-rules.ts) hold on every path that writes bindings or type instances,
// not only on publish: limits (TYPE_INSTANCE_TREE_TOO_LARGE) and one flavor per tree, the flavor of
// the dataset's system (TYPE_INSTANCE_FLAVOR_MISMATCH). A system's flavor and a data type's flavor
// cannot change under trees typed in them (ADR 0010).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
import { createSystem, ok } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext, USER } from '../../helpers/test-app.js';
import {
  MAX_TYPE_TREE_DEPTH,
  MAX_TYPE_TREE_NODES,
} from '../../../src/modules/type-instances/type-tree-rules.js';

let ctx: TestContext;
let pg: Map<string, Row>;
let iceberg: Map<string, Row>;
let system: Row;
beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  pg = await dataTypesOf(ctx, 'postgres14');
  iceberg = await dataTypesOf(ctx, 'iceberg_v2');
  system = await createPgSystem(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const bindings = `${API}/field-bindings`;
const instances = `${API}/type-instances`;
const typeId = (types: Map<string, Row>, code: string): string => (types.get(code) as Row).id;

async function instance(body: Record<string, unknown>): Promise<Row> {
  return ok(await ctx.request('POST', instances, { token: ctx.userToken, body }), 201);
}

/** An empty version of a new postgres14 dataset and one of its fields. */
async function emptyVersion(): Promise<{ dataset: Row; header: Row; field: Row }> {
  const dataset = await createDataset(ctx, system.id);
  const header = ok(
    await ctx.request('POST', `${API}/dataset-schemas`, {
      token: ctx.userToken,
      body: { dataset_id: dataset.id },
    }),
    201,
  );
  return { dataset, header, field: await createField(ctx, dataset.id, { name: 'c' }) };
}

const bind = (header: Row, field: Row, typeInstanceId: string, position = 0) =>
  ctx.request('POST', bindings, {
    token: ctx.userToken,
    body: {
      dataset_schema_id: header.id,
      field_id: field.id,
      position,
      type_instance_id: typeInstanceId,
    },
  });

async function bindingsOf(header: Row): Promise<number> {
  return ok(await ctx.request('GET', `${bindings}?dataset_schema_id=${header.id}`, { token: ctx.userToken }))
    .total;
}

/** Inserts `count` nodes below `parentId` straight into the database (a chain or siblings), as data written before the rules. */
async function insertNodes(shape: 'chain' | 'siblings', count: number, parentId: string, dataTypeId: string) {
  const ids = Array.from({ length: count }, () => randomUUID());
  const parents = shape === 'chain' ? [parentId, ...ids.slice(0, -1)] : ids.map(() => parentId);
  const slots = shape === 'chain' ? ids.map(() => 'item') : ids.map((_, i) => `field:f${i}`);
  await ctx.dataSource.query(
    `INSERT INTO type_instances (id, parent_id, slot, data_type_id, created_by, updated_by)
     SELECT id, parent_id, slot, $4, $5, $5 FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS t(id, parent_id, slot)`,
    [ids, parents, slots, dataTypeId, USER.id],
  );
}

describe('POST /field-bindings applies the publish rules', () => {
  it(`refuses a tree deeper than ${MAX_TYPE_TREE_DEPTH} levels (422), leaving the version empty and publishable`, async () => {
    const { dataset, header, field } = await emptyVersion();
    const root = await instance({ data_type_id: typeId(pg, 'array') });
    await insertNodes('chain', 40, root.id, typeId(pg, 'array'));
    const refused = expectEnvelope(await bind(header, field, root.id), 422, 'TYPE_INSTANCE_TREE_TOO_LARGE');
    expect(refused.detail).toContain(`${MAX_TYPE_TREE_DEPTH} levels`);
    expect(await bindingsOf(header)).toBe(0);
    // Nothing was bound, so the version can still be read and the dataset published.
    ok(await ctx.request('GET', `${API}/dataset-schemas/${header.id}`, { token: ctx.userToken }));
    ok(await publish(ctx, dataset.id, { columns: [column('c', 'integer')] }), 201);
  });

  it(`refuses a tree of more than ${MAX_TYPE_TREE_NODES} nodes in a batch (422), binding nothing`, async () => {
    const { dataset, header, field } = await emptyVersion();
    const other = await createField(ctx, dataset.id, { name: 'd' });
    const small = await instance({ data_type_id: typeId(pg, 'integer') });
    const wide = await instance({ data_type_id: typeId(pg, 'integer') });
    await insertNodes('siblings', MAX_TYPE_TREE_NODES, wide.id, typeId(pg, 'integer'));
    const items = [
      { dataset_schema_id: header.id, field_id: field.id, position: 0, type_instance_id: small.id },
      { dataset_schema_id: header.id, field_id: other.id, position: 1, type_instance_id: wide.id },
    ];
    expectEnvelope(
      await ctx.request('POST', `${bindings}/batch`, { token: ctx.userToken, body: { items } }),
      422,
      'TYPE_INSTANCE_TREE_TOO_LARGE',
    );
    expect(await bindingsOf(header)).toBe(0);
  });

  it('refuses a data type of another flavor than the system (iceberg_v2 binary on postgres14), also deep in a tree', async () => {
    const { header, field } = await emptyVersion();
    const binary = await instance({ data_type_id: typeId(iceberg, 'binary') });
    const refused = expectEnvelope(
      await bind(header, field, binary.id),
      422,
      'TYPE_INSTANCE_FLAVOR_MISMATCH',
    );
    expect(refused.details).toMatchObject({
      type_instance_id: binary.id,
      data_type: 'binary',
      data_type_flavor_id: (await flavorByCode(ctx, 'iceberg_v2')).id,
      system_flavor_id: system.flavor_id,
    });

    // A postgres14 array whose element was stored as an iceberg type before the rule.
    const array = await instance({ data_type_id: typeId(pg, 'array') });
    await insertNodes('chain', 1, array.id, typeId(iceberg, 'binary'));
    expectEnvelope(await bind(header, field, array.id), 422, 'TYPE_INSTANCE_FLAVOR_MISMATCH');
    expect(await bindingsOf(header)).toBe(0);

    const bytea = await instance({ data_type_id: typeId(pg, 'bytea') });
    ok(await bind(header, field, bytea.id), 201);
    expect(await bindingsOf(header)).toBe(1);
  });
});

describe('POST /field-bindings/batch binding one tree twice', () => {
  it('refuses a tree bound under two flavors in one batch (postgres14 and iceberg_v2)', async () => {
    const { header, field } = await emptyVersion();
    const lake = await createSystem(ctx, (await flavorByCode(ctx, 'iceberg_v2')).id);
    const table = await createDataset(ctx, lake.id, 'hive');
    const lakeHeader = ok(
      await ctx.request('POST', `${API}/dataset-schemas`, {
        token: ctx.userToken,
        body: { dataset_id: table.id },
      }),
      201,
    );
    const lakeField = await createField(ctx, table.id, { name: 'c' });
    const shared = await instance({ data_type_id: typeId(pg, 'integer') });
    const items = [
      { dataset_schema_id: header.id, field_id: field.id, position: 0, type_instance_id: shared.id },
      { dataset_schema_id: lakeHeader.id, field_id: lakeField.id, position: 0, type_instance_id: shared.id },
    ];
    const refused = expectEnvelope(
      await ctx.request('POST', `${bindings}/batch`, { token: ctx.userToken, body: { items } }),
      422,
      'TYPE_INSTANCE_FLAVOR_MISMATCH',
    );
    expect(refused.details).toMatchObject({ type_instance_id: shared.id, system_flavor_id: lake.flavor_id });
    expect(await bindingsOf(header)).toBe(0);
    expect(await bindingsOf(lakeHeader)).toBe(0);
  });
});

describe('POST and PATCH /type-instances keep a tree of one flavor', () => {
  it('refuses a child of another flavor than its parent, and a data type change to another flavor', async () => {
    const array = await instance({ data_type_id: typeId(pg, 'array') });
    const refused = expectEnvelope(
      await ctx.request('POST', instances, {
        token: ctx.userToken,
        body: { data_type_id: typeId(iceberg, 'binary'), parent_id: array.id, slot: 'item' },
      }),
      422,
      'TYPE_INSTANCE_FLAVOR_MISMATCH',
    );
    expect(refused.details).toMatchObject({ parent_id: array.id, data_type: 'binary' });
    expectEnvelope(
      await ctx.request('POST', `${instances}/batch`, {
        token: ctx.userToken,
        body: { items: [{ data_type_id: typeId(iceberg, 'int'), parent_id: array.id, slot: 'item' }] },
      }),
      422,
      'TYPE_INSTANCE_FLAVOR_MISMATCH',
    );
    const item = await instance({ data_type_id: typeId(pg, 'integer'), parent_id: array.id, slot: 'item' });

    expectEnvelope(
      await ctx.request('PATCH', `${instances}/${item.id}`, {
        token: ctx.userToken,
        body: { data_type_id: typeId(iceberg, 'int'), row_version: item.row_version },
      }),
      422,
      'TYPE_INSTANCE_FLAVOR_MISMATCH',
    );
    const changed = ok(
      await ctx.request('PATCH', `${instances}/${item.id}`, {
        token: ctx.userToken,
        body: { data_type_id: typeId(pg, 'bigint'), row_version: item.row_version },
      }),
    );
    expect(changed.data_type_id).toBe(typeId(pg, 'bigint'));
  });
});

describe('flavors cannot change under typed trees', () => {
  it("refuses a system's flavor change while its datasets have published versions (ADR 0010)", async () => {
    const mysql = await flavorByCode(ctx, 'mysql8');
    const typed = await createPgSystem(ctx);
    const dataset = await createDataset(ctx, typed.id);
    ok(await publish(ctx, dataset.id, { columns: [column('id', 'integer')] }), 201);
    const refused = expectEnvelope(
      await ctx.request('PATCH', `${API}/systems/${typed.id}`, {
        token: ctx.userToken,
        body: { flavor_id: mysql.id, row_version: typed.row_version },
      }),
      422,
      'TYPE_INSTANCE_FLAVOR_MISMATCH',
    );
    expect(refused.details).toMatchObject({ system_id: typed.id, requested_flavor_id: mysql.id });
    expect(ok(await ctx.request('GET', `${API}/systems/${typed.id}`, { token: ctx.userToken }))).toEqual(
      typed,
    );

    // Datasets without versions do not pin the flavor: another rdbms flavor is fine.
    const untyped = await createSystem(ctx, typed.flavor_id);
    await createDataset(ctx, untyped.id);
    const moved = ok(
      await ctx.request('PATCH', `${API}/systems/${untyped.id}`, {
        token: ctx.userToken,
        body: { flavor_id: mysql.id, row_version: untyped.row_version },
      }),
    );
    expect(moved.flavor_id).toBe(mysql.id);
  });

  it('refuses moving a data type in use to another flavor; an unused one moves', async () => {
    const flavor = (id: string) => ({ system_flavor_id: id });
    const create = async (code: string) =>
      ok(
        await ctx.request('POST', `${API}/data-types`, {
          token: ctx.adminToken,
          body: { ...flavor(system.flavor_id), code, params_schema: {}, render_template: code },
        }),
        201,
      ) as Row;
    const used = await create('used_type');
    const unused = await create('unused_type');
    await instance({ data_type_id: used.id });
    const mysql = (await flavorByCode(ctx, 'mysql8')).id;
    expectEnvelope(
      await ctx.request('PATCH', `${API}/data-types/${used.id}`, {
        token: ctx.adminToken,
        body: { ...flavor(mysql), row_version: used.row_version },
      }),
      422,
      'TYPE_INSTANCE_FLAVOR_MISMATCH',
    );
    const moved = ok(
      await ctx.request('PATCH', `${API}/data-types/${unused.id}`, {
        token: ctx.adminToken,
        body: { ...flavor(mysql), row_version: unused.row_version },
      }),
    );
    expect(moved.system_flavor_id).toBe(mysql);
  });
});
