// What a crawler sees, held by the registry (issue 9 §1, ADR 0012): per column native type, default,
// comment, identity, generation and collation; per version table kind, comment, view definition, keys,
// indexes and checks. The publish no-op rule and the diff per category; the system snapshot (paging,
// constant query count); bulk publish (per-item atomicity, base versions) and bulk dataset creation;
// the migration's down and up.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  column,
  createDataset,
  createPgSystem,
  datasetBody,
  publish,
  type Row,
  seedReference,
  sqlCounter,
} from '../../helpers/catalogue.js';
import { CrawlerStructure1765200000000 } from '../../../src/database/migrations/1765200000000-CrawlerStructure.js';
import { ok, unique, UNKNOWN_ID } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

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

const versions = (datasetId: string) => `${API}/datasets/${datasetId}/schema-versions`;
const bulkPublish = (items: unknown[], token = ctx.userToken) =>
  ctx.request('POST', `${API}/schema-versions/bulk`, { token, body: { items } });
const bulkCreate = (items: unknown[], token = ctx.userToken) =>
  ctx.request('POST', `${API}/datasets/bulk`, { token, body: { items } });
const snapshot = (systemId: string, query = '') =>
  ctx.request('GET', `${API}/systems/${systemId}/snapshot${query}`, { token: ctx.userToken });

/** A table as a crawler would publish it: every category filled. */
function crawled(): Record<string, unknown> {
  return {
    columns: [
      {
        ...column('id', 'bigint', undefined, false),
        native_type: 'bigint',
        identity: 'always',
        comment: 'surrogate key',
      },
      {
        ...column('email', 'varchar', { length: 200 }, false),
        native_type: 'character varying(200)',
        collation: 'C',
      },
      {
        ...column('created_at', 'timestamptz'),
        native_type: 'timestamp with time zone',
        default: 'now()',
      },
      { ...column('email_lower', 'text'), native_type: 'text', generated: 'lower((email)::text)' },
      { name: 'shape', nullable: true, type: null, native_type: 'public.geometry' },
    ],
    table_kind: 'table',
    table_comment: 'customers',
    primary_key: { name: 'customers_pkey', columns: ['id'] },
    unique_constraints: [
      { name: 'customers_email_key', columns: ['email'] },
      { name: 'customers_created_email_key', columns: ['created_at', 'email'] },
    ],
    foreign_keys: [],
    indexes: [
      { name: 'customers_lower_idx', method: 'btree', expression: 'lower((email)::text)' },
      { name: 'customers_created_idx', method: 'brin', columns: ['created_at'], predicate: 'id > 0' },
    ],
    check_constraints: [{ name: 'customers_email_check', expression: "(email)::text <> ''::text" }],
  };
}

describe('publishing what a crawler sees', () => {
  let dataset: Row;
  let v1: Row;

  beforeAll(async () => {
    dataset = await createDataset(ctx, system.id);
  });

  it('stores and returns every column attribute and table category', async () => {
    const body = ok(await publish(ctx, dataset.id, crawled()), 201);
    v1 = body.version;
    expect(
      v1.columns.map((c: Row) => [
        c.name,
        c.rendered_type,
        c.native_type,
        c.default,
        c.comment,
        c.identity,
        c.generated,
        c.collation,
      ]),
    ).toEqual([
      ['id', 'bigint', 'bigint', null, 'surrogate key', 'always', null, null],
      ['email', 'varchar(200)', 'character varying(200)', null, null, null, null, 'C'],
      ['created_at', 'timestamp with time zone', 'timestamp with time zone', 'now()', null, null, null, null],
      ['email_lower', 'text', 'text', null, null, null, 'lower((email)::text)', null],
      ['shape', null, 'public.geometry', null, null, null, null, null],
    ]);
    expect(v1.columns[4]).toMatchObject({ type: null, type_instance_id: null });
    expect(v1).toMatchObject({
      table_kind: 'table',
      table_comment: 'customers',
      view_definition: null,
      primary_key: { name: 'customers_pkey', columns: ['id'] },
      // Lists come back sorted by name, whatever order they were published in.
      unique_constraints: [
        { name: 'customers_created_email_key', columns: ['created_at', 'email'] },
        { name: 'customers_email_key', columns: ['email'] },
      ],
      foreign_keys: [],
      indexes: [
        {
          name: 'customers_created_idx',
          unique: false,
          method: 'brin',
          columns: ['created_at'],
          expression: null,
          include: [],
          predicate: 'id > 0',
          definition: null,
        },
        {
          name: 'customers_lower_idx',
          unique: false,
          method: 'btree',
          columns: null,
          expression: 'lower((email)::text)',
          include: [],
          predicate: null,
          definition: null,
        },
      ],
      check_constraints: [{ name: 'customers_email_check', expression: "(email)::text <> ''::text" }],
    });
    const again = ok(await ctx.request('GET', `${versions(dataset.id)}/1`, { token: ctx.userToken }));
    expect(again).toEqual(v1);
  });

  it('answers the same table again, constraints in another order, with 200 and nothing written', async () => {
    const body = crawled();
    (body['unique_constraints'] as unknown[]).reverse();
    (body['indexes'] as unknown[]).reverse();
    const r = ok(await publish(ctx, dataset.id, body));
    expect(r.created).toBe(false);
    expect(r.version.version_num).toBe(1);
    const history = ok(await ctx.request('GET', versions(dataset.id), { token: ctx.userToken }));
    expect(history).toHaveLength(1);
  });

  type Body = Record<string, unknown> & { columns: Record<string, unknown>[] };
  const col = (b: Body, name: string) => b.columns.find((c) => c['name'] === name) as Record<string, unknown>;

  // Each category: a change to it alone is a new version, and the diff reports it (and nothing else).
  const categories: [string, (b: Body) => void, string, unknown][] = [
    [
      'native type',
      (b) => (col(b, 'shape')['native_type'] = 'public.geography'),
      'native_type_changed',
      [{ name: 'shape', from: 'public.geometry', to: 'public.geography' }],
    ],
    [
      'default',
      (b) => (col(b, 'created_at')['default'] = 'clock_timestamp()'),
      'default_changed',
      [{ name: 'created_at', from: 'now()', to: 'clock_timestamp()' }],
    ],
    [
      'column comment',
      (b) => (col(b, 'id')['comment'] = null),
      'comment_changed',
      [{ name: 'id', from: 'surrogate key', to: null }],
    ],
    [
      'identity',
      (b) => (col(b, 'id')['identity'] = 'by_default'),
      'identity_changed',
      [{ name: 'id', from: 'always', to: 'by_default' }],
    ],
    [
      'generation',
      (b) => (col(b, 'email_lower')['generated'] = 'upper((email)::text)'),
      'generated_changed',
      [{ name: 'email_lower', from: 'lower((email)::text)', to: 'upper((email)::text)' }],
    ],
    [
      'collation',
      (b) => (col(b, 'email')['collation'] = 'und-x-icu'),
      'collation_changed',
      [{ name: 'email', from: 'C', to: 'und-x-icu' }],
    ],
    [
      'table kind',
      (b) => (b['table_kind'] = 'partitioned_table'),
      'table_kind_changed',
      { from: 'table', to: 'partitioned_table' },
    ],
    [
      'table comment',
      (b) => (b['table_comment'] = 'all customers'),
      'table_comment_changed',
      { from: 'customers', to: 'all customers' },
    ],
    [
      'view definition',
      (b) => (b['view_definition'] = 'SELECT 1'),
      'view_definition_changed',
      { from: null, to: 'SELECT 1' },
    ],
    [
      'primary key',
      (b) => (b['primary_key'] = { name: 'customers_pkey', columns: ['id', 'email'] }),
      'primary_key_changed',
      {
        from: { name: 'customers_pkey', columns: ['id'] },
        to: { name: 'customers_pkey', columns: ['id', 'email'] },
      },
    ],
    [
      'unique constraints',
      (b) => (b['unique_constraints'] as unknown[]).pop(),
      'unique_constraints_changed',
      {
        added: [],
        removed: [{ name: 'customers_created_email_key', columns: ['created_at', 'email'] }],
        changed: [],
      },
    ],
    [
      'indexes',
      (b) => ((b['indexes'] as Record<string, unknown>[])[0]['unique'] = true),
      'indexes_changed',
      { added: [], removed: [], changed: [{ from: { unique: false }, to: { unique: true } }] },
    ],
    [
      'check constraints',
      (b) => (b['check_constraints'] = [{ name: null, expression: 'id > 0' }]),
      'check_constraints_changed',
      {
        added: [{ name: null, expression: 'id > 0' }],
        removed: [{ name: 'customers_email_check' }],
        changed: [],
      },
    ],
    [
      'foreign keys',
      (b) =>
        (b['foreign_keys'] = [
          { name: 'fk_self', columns: ['id'], referenced: { schema: 'public', table: 'x', columns: ['id'] } },
        ]),
      'foreign_keys_changed',
      {
        added: [
          {
            name: 'fk_self',
            columns: ['id'],
            referenced: { dataset_id: null, schema: 'public', table: 'x', columns: ['id'] },
            on_update: 'NO ACTION',
            on_delete: 'NO ACTION',
          },
        ],
        removed: [],
        changed: [],
      },
    ],
  ];

  it.each(categories)(
    'publishes a change of the %s as a new version, and the diff reports it alone',
    async (_label, change, key, expected) => {
      const fresh = await createDataset(ctx, system.id);
      const v1 = ok(await publish(ctx, fresh.id, crawled()), 201).version;
      const body = crawled() as Body;
      change(body);
      const r = ok(await publish(ctx, fresh.id, body), 201);
      expect(r.version.version_num).toBe(v1.version_num + 1);
      const diff = ok(
        await ctx.request('GET', `${versions(fresh.id)}/diff?from=1&to=2`, { token: ctx.userToken }),
      );
      expect(diff[key]).toMatchObject(expected as object);
      expect(diff.identical).toBe(false);
      // Every other category is empty.
      for (const [, , other] of categories) {
        if (other === key) continue;
        const value = diff[other];
        if (value === null) continue;
        if (Array.isArray(value)) expect({ [other]: value }).toEqual({ [other]: [] });
        else expect({ [other]: value }).toEqual({ [other]: { added: [], removed: [], changed: [] } });
      }
      for (const list of ['added', 'removed', 'type_changed', 'nullability_changed', 'reordered']) {
        expect({ [list]: diff[list] }).toEqual({ [list]: [] });
      }
      // And publishing the changed table again is a no-op.
      expect(ok(await publish(ctx, fresh.id, body)).created).toBe(false);
    },
  );

  it('diffs a version with itself as identical', async () => {
    const diff = ok(
      await ctx.request('GET', `${versions(dataset.id)}/diff?from=1&to=1`, { token: ctx.userToken }),
    );
    expect(diff.identical).toBe(true);
  });

  it('resolves a foreign key to the registered dataset, by schema.table or by id', async () => {
    const target = await createDataset(ctx, system.id, 'rdbms', {
      schema_name: 'sales',
      table_name: 'orders',
    });
    const owner = await createDataset(ctx, system.id);
    const fk = (referenced: Record<string, unknown>, name: string) => ({
      name,
      columns: ['id'],
      referenced: { ...referenced, columns: ['order_id'] },
      on_delete: 'CASCADE',
    });
    const r = ok(
      await publish(ctx, owner.id, {
        columns: [column('id', 'bigint')],
        foreign_keys: [
          fk({ schema: 'sales', table: 'orders' }, 'a_by_name'),
          fk({ dataset_id: target.id }, 'b_by_id'),
          fk({ schema: 'sales', table: 'not_registered' }, 'c_unregistered'),
        ],
      }),
      201,
    );
    expect(r.version.foreign_keys.map((k: Row) => [k.name, k.referenced, k.on_update, k.on_delete])).toEqual([
      [
        'a_by_name',
        { dataset_id: target.id, schema: 'sales', table: 'orders', columns: ['order_id'] },
        'NO ACTION',
        'CASCADE',
      ],
      [
        'b_by_id',
        { dataset_id: target.id, schema: 'sales', table: 'orders', columns: ['order_id'] },
        'NO ACTION',
        'CASCADE',
      ],
      [
        'c_unregistered',
        { dataset_id: null, schema: 'sales', table: 'not_registered', columns: ['order_id'] },
        'NO ACTION',
        'CASCADE',
      ],
    ]);
    const missing = await publish(ctx, owner.id, {
      columns: [column('id', 'bigint')],
      foreign_keys: [fk({ dataset_id: UNKNOWN_ID }, 'gone')],
    });
    expectEnvelope(missing, 404, 'DATASET_NOT_FOUND');
    expect(missing.body.details).toEqual({ path: ['foreign_keys', 0, 'referenced', 'dataset_id'] });
  });

  it('refuses keys naming unknown columns, a column with neither type nor native type, bad enums (422)', async () => {
    const bad = [
      { columns: [column('id', 'bigint')], primary_key: { columns: ['nope'] } },
      { columns: [column('id', 'bigint')], unique_constraints: [{ name: 'u', columns: ['nope'] }] },
      { columns: [{ name: 'x', type: null }] },
      { columns: [column('id', 'bigint')], table_kind: 'sequence' },
      { columns: [{ ...column('id', 'bigint'), identity: 'sometimes' }] },
      { columns: [column('id', 'bigint')], indexes: [{ name: 'i' }] },
      {
        columns: [column('id', 'bigint')],
        foreign_keys: [{ columns: ['id'], referenced: { columns: ['id'] } }],
      },
      {
        columns: [column('id', 'bigint')],
        foreign_keys: [{ columns: ['id'], referenced: { table: 't', columns: ['a', 'b'] } }],
      },
    ];
    for (const body of bad) {
      const r = await publish(ctx, dataset.id, body);
      expectEnvelope(r, 422, 'VALIDATION_ERROR');
    }
  });
});

describe('POST /datasets/bulk', () => {
  it('creates each dataset on its own: a duplicate, an unknown system or a misfit kind fails alone', async () => {
    const existing = await createDataset(ctx, system.id);
    const fresh = [datasetBody('rdbms', system.id), datasetBody('rdbms', system.id)];
    const r = ok(
      await bulkCreate([
        fresh[0],
        datasetBody('rdbms', system.id, { object_name: existing.object_name }),
        datasetBody('rdbms', UNKNOWN_ID),
        fresh[1],
        // A kafka dataset does not fit an rdbms system (the kind rule holds in bulk too).
        datasetBody('kafka', system.id),
      ]),
    );
    expect(r.summary).toEqual({ created: 2, failed: 3 });
    expect(r.items.map((i: Row) => [i.index, i.status, i.error?.error_code ?? null])).toEqual([
      [0, 'created', null],
      [1, 'failed', 'DATASET_ALREADY_EXISTS'],
      [2, 'failed', 'SYSTEM_NOT_FOUND'],
      [3, 'created', null],
      [4, 'failed', 'DATASET_SYSTEM_KIND_MISMATCH'],
    ]);
    expect(r.items[1].error).toMatchObject({ status: 409, details: { dataset_id: existing.id } });
    expect(r.items[0].dataset).toMatchObject({ kind: 'rdbms', object_name: fresh[0]['object_name'] });
    expect(r.items[3].dataset).toMatchObject({ kind: 'rdbms', object_name: fresh[1]['object_name'] });
    const read = ok(
      await ctx.request('GET', `${API}/datasets/${r.items[0].dataset.id}`, { token: ctx.userToken }),
    );
    expect(read).toEqual(r.items[0].dataset);
  });

  it('refuses more than 500 items, an empty or invalid body (422), and answers 401 without a token', async () => {
    const many = Array.from({ length: 501 }, () => datasetBody('rdbms', system.id));
    expectEnvelope(await bulkCreate(many), 422, 'BATCH_TOO_LARGE');
    expectEnvelope(await bulkCreate([]), 422, 'VALIDATION_ERROR');
    expectEnvelope(await bulkCreate([{ kind: 'rdbms' }]), 422, 'VALIDATION_ERROR');
    expectEnvelope(await bulkCreate([datasetBody('rdbms', system.id)], ''), 401, 'UNAUTHORIZED');
  });
});

describe('POST /schema-versions/bulk', () => {
  it('publishes each dataset on its own, refusing the one that moved past its base version', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createDataset(ctx, system.id)));
    // b moves to version 1 after the crawl that computed its change read it at "no version".
    ok(await publish(ctx, b.id, { columns: [column('moved', 'text')] }), 201);
    const items = [
      { dataset_id: a.id, base_version_num: null, ...crawled() },
      { dataset_id: b.id, base_version_num: null, ...crawled() },
      { dataset_id: c.id, base_version_num: null, columns: [column('x', 'no_such_type')] },
      { dataset_id: UNKNOWN_ID, base_version_num: null, columns: [column('x', 'text')] },
    ];
    const r = ok(await bulkPublish(items));
    expect(r.summary).toEqual({ created: 1, unchanged: 0, failed: 3 });
    expect(
      r.items.map((i: Row) => [i.index, i.dataset_id, i.status, i.version_num, i.error?.error_code ?? null]),
    ).toEqual([
      [0, a.id, 'created', 1, null],
      [1, b.id, 'failed', null, 'VERSION_CONFLICT'],
      [2, c.id, 'failed', null, 'DATA_TYPE_NOT_FOUND'],
      [3, UNKNOWN_ID, 'failed', null, 'DATASET_NOT_FOUND'],
    ]);
    expect(r.items[1].error).toMatchObject({
      status: 409,
      details: { base_version_num: null, current_version_num: 1 },
    });
    expect(r.items[2].error).toMatchObject({
      status: 404,
      details: { path: ['columns', 0, 'type', 'data_type'] },
    });
    // The applied item is a whole version; the refused ones wrote nothing.
    const a1 = ok(await ctx.request('GET', `${versions(a.id)}/1`, { token: ctx.userToken }));
    expect(a1).toMatchObject({ table_comment: 'customers', primary_key: { columns: ['id'] } });
    expect(a1.dataset_schema_id).toBe(r.items[0].dataset_schema_id);
    expect(ok(await ctx.request('GET', versions(b.id), { token: ctx.userToken }))).toHaveLength(1);
    expect(ok(await ctx.request('GET', versions(c.id), { token: ctx.userToken }))).toHaveLength(0);

    // The same request again: the applied item is unchanged (its base is stale, but it equals the
    // current version), the conflict stays a conflict.
    const again = ok(await bulkPublish(items.slice(0, 2)));
    expect(again.items.map((i: Row) => [i.status, i.version_num, i.error?.error_code ?? null])).toEqual([
      ['unchanged', 1, null],
      ['failed', null, 'VERSION_CONFLICT'],
    ]);
    // With the right base it applies.
    const rebased = ok(await bulkPublish([{ ...items[1], base_version_num: 1 }]));
    expect(rebased.items[0]).toMatchObject({ status: 'created', version_num: 2, error: null });
  });

  it('refuses a batch naming a dataset twice, over 500 items, or malformed items (422); 401 without a token', async () => {
    const d = await createDataset(ctx, system.id);
    const item = { dataset_id: d.id, base_version_num: null, columns: [column('a', 'text')] };
    const twice = await bulkPublish([item, item]);
    expectEnvelope(twice, 422, 'VALIDATION_ERROR');
    expect(twice.body.details.issues[0].path).toEqual(['items', '1', 'dataset_id']);
    expectEnvelope(await bulkPublish(Array.from({ length: 501 }, () => item)), 422, 'BATCH_TOO_LARGE');
    const { base_version_num: _omitted, ...withoutBase } = item;
    expectEnvelope(await bulkPublish([withoutBase]), 422, 'VALIDATION_ERROR');
    expectEnvelope(await bulkPublish([item], ''), 401, 'UNAUTHORIZED');
    expect(ok(await ctx.request('GET', versions(d.id), { token: ctx.userToken }))).toHaveLength(0);
  });
});

describe('GET /systems/{id}/snapshot', () => {
  let big: Row;
  const ids: string[] = [];

  beforeAll(async () => {
    big = await createPgSystem(ctx);
    // 1,001 datasets: two full pages of 500 and one of 1.
    for (let start = 0; start < 1001; start += 500) {
      const items = Array.from({ length: Math.min(500, 1001 - start) }, (_, i) =>
        datasetBody('rdbms', big.id, {
          object_name: `t${String(start + i).padStart(4, '0')}_${unique('x')}`,
        }),
      );
      const r = ok(await bulkCreate(items));
      expect(r.summary.failed).toBe(0);
      ids.push(...r.items.map((i: Row) => i.dataset.id as string));
    }
    // Versions for the first 300 created; two of them get a second version.
    const published = ok(
      await bulkPublish(
        ids.slice(0, 300).map((id) => ({ dataset_id: id, base_version_num: null, ...crawled() })),
      ),
    );
    expect(published.summary).toEqual({ created: 300, unchanged: 0, failed: 0 });
    const second = crawled() as { columns: unknown[] };
    second.columns.push(column('extra', 'integer'));
    ok(await bulkPublish(ids.slice(0, 2).map((id) => ({ dataset_id: id, base_version_num: 1, ...second }))));
    // A deleted dataset is not in the snapshot.
    ok(await ctx.request('DELETE', `${API}/datasets/${ids[1000]}`, { token: ctx.adminToken }));
  }, 300_000);

  it('returns every active dataset once, with its current version, in pages of 500', async () => {
    const pages: Row[] = [];
    let cursor: string | null = null;
    do {
      const page: Row = ok(await snapshot(big.id, cursor ? `?cursor=${cursor}` : ''));
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages.map((p) => p.items.length)).toEqual([500, 500]);
    const items = pages.flatMap((p) => p.items as Row[]);
    const seen = items.map((i) => i.dataset.id as string);
    expect(new Set(seen).size).toBe(1000);
    expect([...seen].sort()).toEqual(ids.slice(0, 1000).sort());
    const byId = new Map(items.map((i) => [i.dataset.id as string, i]));
    expect(byId.get(ids[0])!.version).toMatchObject({ version_num: 2, table_kind: 'table' });
    expect(byId.get(ids[0])!.version.columns.map((c: Row) => c.name)).toEqual([
      'id',
      'email',
      'created_at',
      'email_lower',
      'shape',
      'extra',
    ]);
    expect(byId.get(ids[2])!.version).toMatchObject({
      version_num: 1,
      primary_key: { name: 'customers_pkey', columns: ['id'] },
      check_constraints: [{ name: 'customers_email_check' }],
    });
    expect(byId.get(ids[2])!.version.columns[2]).toMatchObject({
      default: 'now()',
      rendered_type: 'timestamp with time zone',
    });
    expect(byId.get(ids[500])!.version).toBeNull();
    expect(byId.get(ids[500])!.dataset).toMatchObject({
      kind: 'rdbms',
      system_id: big.id,
      schema_name: 'public',
    });
    // The snapshot's version is the one the version route returns.
    const single = ok(await ctx.request('GET', `${versions(ids[5])}/1`, { token: ctx.userToken }));
    expect(byId.get(ids[5])!.version).toEqual(single);
  });

  it('reads a page of 1,000 datasets with as many SQL statements as a page of 10', async () => {
    const counter = sqlCounter(ctx);
    // The route's own statements: the pool also serves work that is not the route's and may fall in
    // the window on a busy machine — the guard reading the caller's token state while the replica's
    // cache is not trusted (ADR 0023), housekeeping's periodic deletes. The snapshot writes nothing.
    const routeOnly = (statements: string[]) =>
      statements.filter(
        (q) => !/^\s*(DELETE|INSERT|UPDATE)\b/i.test(q) && !/\bFROM users WHERE id = \$1\b/.test(q),
      );
    const measure = async (limit: number) => {
      ok(await snapshot(big.id, `?limit=${limit}`));
      counter.start();
      const page = ok(await snapshot(big.id, `?limit=${limit}`));
      const statements = routeOnly(counter.stop());
      expect(page.items).toHaveLength(limit);
      return statements;
    };
    const ten = await measure(10);
    const thousand = await measure(1000);
    expect(thousand.length).toBe(ten.length);
    expect(ten.length).toBeLessThanOrEqual(12);
  });

  it('answers 404 for an unknown system, 422 for a bad cursor or limit, 401 without a token', async () => {
    expectEnvelope(await snapshot(UNKNOWN_ID), 404, 'SYSTEM_NOT_FOUND');
    expectEnvelope(await snapshot(big.id, '?cursor=not-a-cursor'), 422, 'VALIDATION_ERROR');
    expectEnvelope(await snapshot(big.id, '?cursor=%24%24'), 422, 'VALIDATION_ERROR');
    expectEnvelope(await snapshot(big.id, '?limit=1001'), 422, 'VALIDATION_ERROR');
    expectEnvelope(await snapshot(big.id, '?limit=0'), 422, 'VALIDATION_ERROR');
    expectEnvelope(await snapshot(big.id, '?page=2'), 422, 'VALIDATION_ERROR');
    const anonymous = await ctx.request('GET', `${API}/systems/${big.id}/snapshot`);
    expectEnvelope(anonymous, 401, 'UNAUTHORIZED');
  });
});

describe('migration 1765200000000 (CrawlerStructure)', () => {
  it('goes down, dropping columns without a data type, and up again', async () => {
    const d = await createDataset(ctx, system.id);
    ok(await publish(ctx, d.id, crawled()), 201);
    // The migration itself, not the last one applied: later migrations are not this test's business.
    const migration = new CrawlerStructure1765200000000();
    const runner = ctx.dataSource.createQueryRunner();
    await migration.down(runner);
    const [{ count }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS count FROM field_bindings b JOIN dataset_schemas s ON s.id = b.dataset_schema_id
       WHERE s.dataset_id = $1`,
      [d.id],
    );
    expect(count).toBe(4);
    const columns: { column_name: string }[] = await ctx.dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'dataset_schemas' AND column_name = 'indexes'`,
    );
    expect(columns).toHaveLength(0);
    await migration.up(runner);
    await runner.release();
    const back = ok(await ctx.request('GET', `${versions(d.id)}/1`, { token: ctx.userToken }));
    expect(back).toMatchObject({ table_kind: null, indexes: [], primary_key: null });
    expect(back.columns.map((c: Row) => c.native_type)).toEqual([null, null, null, null]);
  });
});
