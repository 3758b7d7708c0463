// Issue 22 item 9 (ADR 0037). A bulk publish item may carry the dataset to create instead of its id:
// the dataset and its first version are written in one transaction, so a refused version leaves no
// dataset behind (a forged report used to leave 17 versionless datasets). And the registry classifies
// every published change itself, with the one classifier of @aide/schemas: a client's label is never
// taken, `refuse_breaking` can only make a publish stricter.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  createPgSystem,
  createSystemFor,
  datasetBody,
  listAll,
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
const versions = (datasetId: string) =>
  ctx.request('GET', `${API}/datasets/${datasetId}/schema-versions`, { token: ctx.userToken });
const datasetsOf = (systemId: string) => listAll(ctx, 'datasets', `system_id=${systemId}`);

/** A table's version: a key, a name, optionally a foreign key by name to another table. */
function table(references?: string): Record<string, unknown> {
  return {
    columns: [
      { ...column('id', 'bigint', undefined, false), native_type: 'bigint' },
      { ...column('name', 'varchar', { length: 40 }), native_type: 'character varying(40)' },
      ...(references ? [{ ...column('parent_id', 'bigint'), native_type: 'bigint' }] : []),
    ],
    table_kind: 'table',
    primary_key: { name: null, columns: ['id'] },
    foreign_keys: references
      ? [
          {
            name: null,
            columns: ['parent_id'],
            referenced: { schema: 'public', table: references, columns: ['id'] },
          },
        ]
      : [],
  };
}

/** An item creating an rdbms dataset `public.<name>` with its first version. */
function createItem(systemId: string, name: string, version = table()): Record<string, unknown> {
  return {
    dataset: datasetBody('rdbms', systemId, { object_name: `public.${name}`, table_name: name }),
    base_version_num: null,
    ...version,
  };
}

const unknownType = () => ({ ...table(), columns: [column('id', 'no_such_type')] });

describe('POST /schema-versions/bulk with datasets to create', () => {
  it('leaves no dataset behind when the first version is refused', async () => {
    const own = await createPgSystem(ctx);
    // A forged report: 17 new tables whose versions the registry refuses, and one fine table.
    const forged = Array.from({ length: 17 }, (_, i) => createItem(own.id, `forged_${i}`, unknownType()));
    const r = ok(await bulkPublish([...forged, createItem(own.id, 'fine')]));
    expect(r.summary).toEqual({ created: 1, unchanged: 0, failed: 17 });
    expect(r.items.slice(0, 17).map((i: Row) => [i.status, i.dataset_id, i.error.error_code])).toEqual(
      Array.from({ length: 17 }, () => ['failed', null, 'DATA_TYPE_NOT_FOUND']),
    );
    const fine = r.items[17];
    expect([fine.status, fine.version_num]).toEqual(['created', 1]);
    const left = await datasetsOf(own.id);
    expect(left.map((d) => [d.object_name, d.id])).toEqual([['public.fine', fine.dataset_id]]);
    expect(ok(await versions(fine.dataset_id)).map((v: Row) => v.version_num)).toEqual([1]);
  });

  it('answers a name already taken with the dataset that holds it, and writes nothing for it', async () => {
    const taken = await createDataset(ctx, system.id, 'rdbms', { table_name: 'taken' });
    const r = ok(
      await bulkPublish([
        {
          dataset: datasetBody('rdbms', system.id, { object_name: taken.object_name }),
          base_version_num: null,
          ...table(),
        },
        createItem(UNKNOWN_ID, 'nowhere'),
      ]),
    );
    expect(r.items.map((i: Row) => [i.status, i.error?.error_code])).toEqual([
      ['failed', 'DATASET_ALREADY_EXISTS'],
      ['failed', 'SYSTEM_NOT_FOUND'],
    ]);
    expect(r.items[0].error.details).toEqual({ dataset_id: taken.id });
    expect(ok(await versions(taken.id))).toEqual([]);
  });

  it('resolves a key to a table created in the same batch, never to one whose version failed', async () => {
    const own = await createPgSystem(ctx);
    const r = ok(
      await bulkPublish([
        createItem(own.id, 'child', table('parent')),
        createItem(own.id, 'parent'),
        createItem(own.id, 'orphan', table('broken')),
        createItem(own.id, 'broken', unknownType()),
      ]),
    );
    expect(r.items.map((i: Row) => i.status)).toEqual(['created', 'created', 'created', 'failed']);
    const fkOf = async (datasetId: string) =>
      ok(await ctx.request('GET', `${API}/datasets/${datasetId}/schema-versions/1`, { token: ctx.userToken }))
        .foreign_keys[0].referenced;
    expect(await fkOf(r.items[0].dataset_id)).toEqual({
      dataset_id: r.items[1].dataset_id,
      schema: 'public',
      table: 'parent',
      columns: ['id'],
    });
    expect((await fkOf(r.items[2].dataset_id)).dataset_id).toBeNull();
  });

  it('refuses items that name no dataset, two, or a base version for a new one', async () => {
    const body = createItem(system.id, 'shape');
    for (const item of [
      { base_version_num: null, ...table() },
      { ...body, dataset_id: UNKNOWN_ID },
      { ...body, base_version_num: 1 },
      { ...body, version_num: 2 },
    ]) {
      const r = await bulkPublish([item]);
      expect([r.status, r.body.error_code]).toEqual([422, 'VALIDATION_ERROR']);
    }
    const twice = await bulkPublish([body, body]);
    expect([twice.status, twice.body.details.issues.map((i: Row) => i.message)]).toEqual([
      422,
      ['the same dataset as item 0'],
    ]);
  });

  it('costs the same statements for 5 new datasets as for 60', async () => {
    const measure = async (count: number) => {
      const own = await createPgSystem(ctx);
      const items = Array.from({ length: count }, (_, i) => createItem(own.id, `t${i}`, table(`t${i + 1}`)));
      const counter = sqlCounter(ctx);
      counter.start();
      const r = ok(await bulkPublish(items));
      const statements = counter.stop();
      expect(r.summary).toEqual({ created: count, unchanged: 0, failed: 0 });
      return statements.length;
    };
    expect(await measure(60)).toBe(await measure(5));
  });
});

describe("the registry's own classification of a published change", () => {
  async function withVersion(): Promise<string> {
    const dataset = await createDataset(ctx, system.id);
    ok(await publish(ctx, dataset.id, table()), 201);
    return dataset.id;
  }
  const dropName = () => ({ ...table(), columns: [(table().columns as unknown[])[0]] });
  const widenName = () => ({
    ...table(),
    columns: [
      (table().columns as unknown[])[0],
      { ...column('name', 'varchar', { length: 80 }), native_type: 'character varying(80)' },
    ],
  });

  it('answers each bulk item with the class of its change from the version it was published over', async () => {
    const [a, b] = [await withVersion(), await withVersion()];
    const created = createItem(system.id, 'classified');
    const r = ok(
      await bulkPublish([
        { dataset_id: a, base_version_num: 1, ...dropName() },
        { dataset_id: b, base_version_num: 1, ...widenName() },
        created,
      ]),
    );
    expect(r.items.map((i: Row) => [i.status, i.base_version_num, i.compatibility])).toEqual([
      ['created', 1, 'breaking'],
      ['created', 1, 'compatible'],
      ['created', null, 'compatible'],
    ]);
    expect(r.items[0].changes).toEqual([
      expect.objectContaining({ category: 'column_removed', name: 'name', compatibility: 'breaking' }),
    ]);
    expect(r.items[1].changes).toEqual([
      expect.objectContaining({ category: 'type_changed', name: 'name', compatibility: 'compatible' }),
    ]);
    expect(r.items[2].changes.map((c: Row) => c.category)).toEqual(['table_added']);
    // The diff route classifies the same two versions the same way.
    const diff = ok(
      await ctx.request('GET', `${API}/datasets/${a}/schema-versions/diff?from=1&to=2`, {
        token: ctx.userToken,
      }),
    );
    expect([diff.compatibility, diff.changes]).toEqual([r.items[0].compatibility, r.items[0].changes]);
    // Re-sending is unchanged: nothing changed, nothing classified.
    const again = ok(await bulkPublish([{ dataset_id: a, base_version_num: 1, ...dropName() }]));
    expect(again.items.map((i: Row) => [i.status, i.base_version_num, i.compatibility, i.changes])).toEqual([
      ['unchanged', 2, null, []],
    ]);
  });

  it('refuses a breaking change when asked to, from its own classification, and writes nothing', async () => {
    const [a, b] = [await withVersion(), await withVersion()];
    const r = ok(
      await bulkPublish([
        { dataset_id: a, base_version_num: 1, refuse_breaking: true, ...dropName() },
        { dataset_id: b, base_version_num: 1, refuse_breaking: true, ...widenName() },
      ]),
    );
    expect(r.items.map((i: Row) => [i.status, i.error?.error_code ?? null])).toEqual([
      ['failed', 'DATASET_SCHEMA_BREAKING_CHANGE'],
      ['created', null],
    ]);
    expect(r.items[0].error.status).toBe(409);
    expect(r.items[0].error.details).toEqual({
      base_version_num: 1,
      compatibility: 'breaking',
      changes: [expect.objectContaining({ category: 'column_removed', name: 'name' })],
    });
    expect(ok(await versions(a)).map((v: Row) => v.version_num)).toEqual([1]);
  });

  it("never takes a client's label for its change", async () => {
    const a = await withVersion();
    for (const label of [{ compatibility: 'compatible' }, { changes: [] }]) {
      const r = await bulkPublish([{ dataset_id: a, base_version_num: 1, ...dropName(), ...label }]);
      expect([r.status, r.body.error_code]).toEqual([422, 'VALIDATION_ERROR']);
    }
    expect(ok(await versions(a)).map((v: Row) => v.version_num)).toEqual([1]);
  });

  it('answers a single publish with the class of its change', async () => {
    const a = await withVersion();
    const r = ok(await publish(ctx, a, dropName()), 201);
    expect([r.created, r.base_version_num, r.compatibility]).toEqual([true, 1, 'breaking']);
    expect(r.changes.map((c: Row) => c.category)).toEqual(['column_removed']);
    const same = ok(await publish(ctx, a, dropName()), 200);
    expect([same.created, same.base_version_num, same.compatibility, same.changes]).toEqual([
      false,
      2,
      null,
      [],
    ]);
  });

  it('classifies a kafka dataset created with its first version too', async () => {
    const kafka = await createSystemFor(ctx, 'kafka');
    const r = ok(
      await bulkPublish([
        {
          dataset: datasetBody('kafka', kafka.id),
          base_version_num: null,
          columns: [{ name: 'id', nullable: false, type: null, native_type: 'long' }],
        },
      ]),
    );
    expect(r.items.map((i: Row) => [i.status, i.version_num, i.compatibility])).toEqual([
      ['created', 1, 'compatible'],
    ]);
  });
});
