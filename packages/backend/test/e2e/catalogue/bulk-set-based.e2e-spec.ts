// The crawler's bulk writes are set-based (ADR 0017): a batch costs the same SQL statements whatever its
// size and mix of outcomes; each item is still checked as a single call would check it, and answered
// alone; a write the checks could not foresee sends every item to a transaction of its own.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  createPgSystem,
  createSystemFor,
  DATASET_KINDS,
  datasetBody,
  publish,
  type Row,
  seedReference,
  sqlCounter,
} from '../../helpers/catalogue.js';
import { ok, UNKNOWN_ID } from '../../helpers/factories.js';
import { createTestContext, type TestContext } from '../../helpers/test-app.js';

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

const bulkPublish = (items: unknown[]) =>
  ctx.request('POST', `${API}/schema-versions/bulk`, { token: ctx.userToken, body: { items } });
const bulkCreate = (items: unknown[]) =>
  ctx.request('POST', `${API}/datasets/bulk`, { token: ctx.userToken, body: { items } });
const versions = (datasetId: string) =>
  ctx.request('GET', `${API}/datasets/${datasetId}/schema-versions`, { token: ctx.userToken });

/** A crawled table: a key, a unique, an array, a foreign key to `orders` by name, a comment. */
function table(n: number): Record<string, unknown> {
  return {
    columns: [
      { ...column('id', 'bigint', undefined, false), native_type: 'bigint' },
      { ...column('code', 'varchar', { length: 10 + (n % 7) }, false), native_type: 'varchar' },
      {
        name: 'tags',
        nullable: true,
        type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'text' } }] },
        native_type: 'text[]',
      },
      { ...column('order_id', 'bigint'), native_type: 'bigint', comment: `column of table ${n}` },
    ],
    table_kind: 'table',
    primary_key: { name: `t${n}_pkey`, columns: ['id'] },
    unique_constraints: [{ name: `t${n}_code_key`, columns: ['code'] }],
    foreign_keys: [
      {
        name: `t${n}_order_fk`,
        columns: ['order_id'],
        referenced: { schema: 'public', table: 'orders', columns: ['id'] },
        on_update: 'NO ACTION',
        on_delete: 'CASCADE',
      },
    ],
  };
}

async function datasets(count: number): Promise<Row[]> {
  const r = ok(await bulkCreate(Array.from({ length: count }, () => datasetBody('rdbms', system.id))));
  expect(r.summary).toEqual({ created: count, failed: 0 });
  return r.items.map((i: Row) => i.dataset as Row);
}

/** The statements the server sends for one request. */
async function statementsOf(request: () => Promise<unknown>): Promise<string[]> {
  const counter = sqlCounter(ctx);
  counter.start();
  await request();
  return counter.stop();
}

describe('POST /schema-versions/bulk, set-based', () => {
  it('costs the same statements for 5 items as for 60, whatever the outcomes', async () => {
    const measure = async (count: number) => {
      const [first, ...rest] = await datasets(count);
      ok(await publish(ctx, first.id, table(0)), 201);
      const items = [
        // unchanged, conflicting, unknown, bad type: one of each in every batch
        { dataset_id: first.id, base_version_num: 1, ...table(0) },
        { dataset_id: first.id.toUpperCase(), base_version_num: null, ...table(1) },
        { dataset_id: UNKNOWN_ID, base_version_num: null, ...table(2) },
        ...rest.map((d, i) => ({ dataset_id: d.id, base_version_num: null, ...table(i) })),
      ];
      const badType = table(3) as { columns: unknown[] };
      badType.columns[1] = column('code', 'no_such_type');
      items[3] = { ...items[3], ...badType };
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      let body: any = {};
      const statements = await statementsOf(async () => (body = ok(await bulkPublish(items.slice(1)))));
      expect(body.summary).toEqual({ created: count - 2, unchanged: 0, failed: 3 });
      return statements.length;
    };
    const small = await measure(5);
    const large = await measure(60);
    expect(large).toBe(small);
    // 20 before ADR 0029, plus the new versions read back (3) and their read shapes stored (1).
    expect(small).toBeLessThanOrEqual(24);
  });

  it('answers each item as a publish of it alone would, and writes the others', async () => {
    const [a, b, c, d, e] = await datasets(5);
    ok(await publish(ctx, b.id, table(1)), 201);
    ok(await publish(ctx, c.id, table(2)), 201);
    const items = [
      { dataset_id: a.id.toUpperCase(), base_version_num: null, ...table(0) },
      // equal to its current version: unchanged, whatever its base
      { dataset_id: b.id, base_version_num: null, ...table(1) },
      // a version number that exists, and one past the next
      { dataset_id: c.id, base_version_num: 1, ...table(3), version_num: 1 },
      { dataset_id: d.id, base_version_num: null, ...table(4), version_num: 3 },
      // a foreign key naming a dataset that does not exist
      {
        dataset_id: e.id,
        base_version_num: null,
        ...table(5),
        foreign_keys: [
          {
            name: 'fk',
            columns: ['order_id'],
            referenced: { dataset_id: UNKNOWN_ID, columns: ['id'] },
            on_update: 'NO ACTION',
            on_delete: 'NO ACTION',
          },
        ],
      },
    ];
    const r = ok(await bulkPublish(items));
    expect(r.items.map((i: Row) => [i.status, i.version_num, i.error?.error_code ?? null])).toEqual([
      ['created', 1, null],
      ['unchanged', 1, null],
      ['failed', null, 'DATASET_SCHEMA_ALREADY_EXISTS'],
      ['failed', null, 'DATASET_SCHEMA_VERSION_NOT_NEXT'],
      ['failed', null, 'DATASET_NOT_FOUND'],
    ]);
    expect(r.items[2].error.details).toEqual({ version_num: 1, next_version_num: 2 });
    expect(r.items[3].error.details).toEqual({ version_num: 3, next_version_num: 1 });
    expect(r.items[4].error.details).toEqual({ path: ['foreign_keys', 0, 'referenced', 'dataset_id'] });
    // The single route answers the failed items the same way.
    for (const [i, item] of items.entries()) {
      if (r.items[i].status !== 'failed') continue;
      const { dataset_id, base_version_num: _base, ...body } = item;
      const single = await publish(ctx, dataset_id, body);
      expect([single.status, single.body.error_code, single.body.details]).toEqual([
        r.items[i].error.status,
        r.items[i].error.error_code,
        r.items[i].error.details,
      ]);
    }
    // The created version is whole: its columns, tree types and resolved structure.
    const created = ok(
      await ctx.request('GET', `${API}/datasets/${a.id}/schema-versions/1`, { token: ctx.userToken }),
    );
    expect(created.dataset_schema_id).toBe(r.items[0].dataset_schema_id);
    expect(created.columns.map((col: Row) => [col.name, col.rendered_type, col.comment])).toEqual([
      ['id', 'bigint', null],
      ['code', 'varchar(10)', null],
      ['tags', 'text[]', null],
      ['order_id', 'bigint', 'column of table 0'],
    ]);
    expect(created.foreign_keys[0].referenced).toEqual({
      dataset_id: null,
      schema: 'public',
      table: 'orders',
      columns: ['id'],
    });
    expect(ok(await versions(d.id))).toHaveLength(0);
  });

  it('keeps the type trees of unchanged columns and reuses the fields of earlier versions', async () => {
    const [a] = await datasets(1);
    ok(await bulkPublish([{ dataset_id: a.id, base_version_num: null, ...table(0) }]));
    const changed = table(0) as { columns: unknown[] };
    changed.columns[1] = { ...column('code', 'varchar', { length: 99 }, false), native_type: 'varchar' };
    ok(await bulkPublish([{ dataset_id: a.id, base_version_num: 1, ...changed }]));
    const get = async (n: number) =>
      ok(await ctx.request('GET', `${API}/datasets/${a.id}/schema-versions/${n}`, { token: ctx.userToken }));
    const [v1, v2] = [await get(1), await get(2)];
    expect(v2.columns.map((c: Row) => c.field_id)).toEqual(v1.columns.map((c: Row) => c.field_id));
    const sameTree = v2.columns.map(
      (c: Row, i: number) => c.type_instance_id === v1.columns[i].type_instance_id,
    );
    expect(sameTree).toEqual([true, false, true, true]);
    expect(v2.columns[1].rendered_type).toBe('varchar(99)');
  });

  it('publishes each item in a transaction of its own when a write fails', async () => {
    // A write the checks cannot foresee: the database refuses one field name.
    await ctx.dataSource.query(`
      CREATE FUNCTION refuse_field() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name = 'refused' THEN RAISE EXCEPTION 'refused' USING ERRCODE = 'check_violation'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_field BEFORE INSERT ON fields FOR EACH ROW EXECUTE FUNCTION refuse_field();`);
    try {
      const [a, b, c] = await datasets(3);
      const r = ok(
        await bulkPublish([
          { dataset_id: a.id, base_version_num: null, ...table(0) },
          { dataset_id: b.id, base_version_num: null, columns: [column('refused', 'text')] },
          { dataset_id: c.id, base_version_num: null, ...table(2) },
        ]),
      );
      expect(r.items.map((i: Row) => [i.status, i.error?.error_code ?? null])).toEqual([
        ['created', null],
        ['failed', 'VALIDATION_ERROR'],
        ['created', null],
      ]);
      expect(r.items[1].error.status).toBe(422);
      expect(ok(await versions(a.id))).toHaveLength(1);
      expect(ok(await versions(b.id))).toHaveLength(0);
      expect(ok(await versions(c.id))).toHaveLength(1);
    } finally {
      await ctx.dataSource.query('DROP TRIGGER refuse_field ON fields; DROP FUNCTION refuse_field()');
    }
  });
});

describe('POST /datasets/bulk, set-based', () => {
  it('costs the same statements for 5 items as for 60, failures included, and answers each', async () => {
    const measure = async (count: number) => {
      const existing = await createDataset(ctx, system.id);
      const fresh = Array.from({ length: count }, () => datasetBody('rdbms', system.id));
      const items = [
        ...fresh,
        datasetBody('rdbms', system.id, { object_name: existing.object_name }),
        datasetBody('rdbms', UNKNOWN_ID),
        datasetBody('kafka', system.id),
        // the same name twice: the first is created, the second answers with it
        datasetBody('rdbms', system.id, { object_name: fresh[0]['object_name'] }),
      ];
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      let body: any = {};
      const statements = await statementsOf(async () => (body = ok(await bulkCreate(items))));
      expect(body.summary).toEqual({ created: count, failed: 4 });
      expect(body.items.slice(count).map((i: Row) => [i.error.error_code, i.error.details])).toEqual([
        ['DATASET_ALREADY_EXISTS', { dataset_id: existing.id }],
        ['SYSTEM_NOT_FOUND', undefined],
        [
          'DATASET_SYSTEM_KIND_MISMATCH',
          { dataset_kind: 'kafka', system_kind: 'rdbms', allowed_system_kinds: ['kafka'] },
        ],
        ['DATASET_ALREADY_EXISTS', { dataset_id: body.items[0].dataset.id }],
      ]);
      return statements.length;
    };
    const small = await measure(5);
    const large = await measure(60);
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(12);
  });
});

describe('GET /systems/{id}/snapshot, datasets read raw', () => {
  it.each(DATASET_KINDS)('answers a %s dataset exactly as GET /datasets/{id} does', async (kind) => {
    const holder = await createSystemFor(ctx, kind);
    const dataset = await createDataset(ctx, holder.id, kind);
    const page = ok(
      await ctx.request('GET', `${API}/systems/${holder.id}/snapshot`, { token: ctx.userToken }),
    );
    const single = ok(await ctx.request('GET', `${API}/datasets/${dataset.id}`, { token: ctx.userToken }));
    expect(page.items).toHaveLength(1);
    // The same JSON text: values, types (a bigint as a number) and key order.
    expect(JSON.stringify(page.items[0].dataset)).toBe(JSON.stringify(single));
  });
});
