// The ETL pre-flight: GET /dataset-links/{id}/compat (pin drift, per-field issues, severities, status)
// with types compared structurally and cast rules applied through the resolver, and the bulk
// GET /dataset-links/compat, whose query count does not depend on the number of links.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  createPgSystem,
  dataTypeOf,
  type Row,
  seedReference,
  sqlCounter,
} from '../../helpers/catalogue.js';
import { ok, UNKNOWN_ID } from '../../helpers/factories.js';
import {
  type ColumnSpec,
  createLink,
  publishVersion,
  type VersionedDataset,
  versionedDataset,
} from '../../helpers/lineage.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;
let castRules: Record<string, Row>;

const SOURCE: ColumnSpec[] = [
  ['id', 'integer', undefined, true],
  ['name', 'varchar', { length: 255 }],
  ['code', 'varchar', { length: 255 }],
  ['amount', 'numeric', { precision: 12, scale: 2 }],
  ['big', 'integer'],
  ['flag', 'text'],
  ['memo', 'text'],
  ['raw', 'bytea'],
];
const TARGET: ColumnSpec[] = [
  ['id', 'integer', undefined, true],
  ['name', 'varchar', { length: 255 }],
  ['code', 'varchar', { length: 50 }],
  ['amount', 'numeric', { precision: 18, scale: 2 }],
  ['big', 'bigint'],
  ['flag', 'boolean'],
  ['memo', 'text', undefined, true],
  ['raw', 'date'],
];

async function castRule(from: string, to: string, safety: string): Promise<Row> {
  const body = {
    source_data_type_id: (await dataTypeOf(ctx, 'postgres14', from)).id,
    target_data_type_id: (await dataTypeOf(ctx, 'postgres14', to)).id,
    param_mapping: {},
    safety,
  };
  return ok(await ctx.request('POST', `${API}/cast-rules`, { token: ctx.adminToken, body }), 201);
}

/** A source → raw hop of the columns above with a field link per column name. */
async function hop(): Promise<{ source: VersionedDataset; target: VersionedDataset; link: Row }> {
  const source = await versionedDataset(ctx, system.id, 'source', SOURCE);
  const target = await versionedDataset(ctx, system.id, 'raw', TARGET);
  const link = await createLink(ctx, source, target);
  const items = SOURCE.map(([name]) => ({
    source_field_id: source.fields.get(name),
    target_field_id: target.fields.get(name),
  }));
  ok(
    await ctx.request('POST', `${API}/dataset-links/${link.id}/field-links/bulk`, {
      token: ctx.userToken,
      body: items,
    }),
    201,
  );
  return { source, target, link };
}

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
  castRules = {
    big: await castRule('integer', 'bigint', 'safe'),
    flag: await castRule('text', 'boolean', 'unsafe'),
  };
});
afterAll(async () => {
  await ctx.close();
});

const report = async (id: string) =>
  ok(await ctx.request('GET', `${API}/dataset-links/${id}/compat`, { token: ctx.userToken }));

describe('compat report of one link', () => {
  it('compares types structurally, consults cast rules, flags narrowing and nullability', async () => {
    const { link } = await hop();
    const body = await report(link.id);
    const byName = Object.fromEntries(body.field_compat.map((r: Row) => [r.source_field.name, r]));
    expect(byName['id']).toMatchObject({
      issues: [],
      severity: 'ok',
      source_type: 'integer',
      target_type: 'integer',
    });
    // Two instances of varchar(255): equal (the original compared row ids and said type_incompatible).
    expect(byName['name']).toMatchObject({ issues: [], severity: 'ok', target_type: 'varchar(255)' });
    expect(byName['code']).toMatchObject({ issues: ['type_narrowing'], severity: 'error' });
    expect(byName['amount']).toMatchObject({ issues: [], severity: 'ok', target_type: 'numeric(18,2)' });
    expect(byName['big']).toMatchObject({
      issues: ['type_needs_cast'],
      severity: 'warn',
      cast_rule_id: castRules['big']?.id,
    });
    expect(byName['flag']).toMatchObject({ issues: ['type_unsafe_cast'], severity: 'error' });
    expect(byName['memo']).toMatchObject({ issues: ['nullability_warn'], severity: 'warn' });
    expect(byName['raw']).toMatchObject({
      issues: ['type_incompatible'],
      severity: 'error',
      cast_rule_id: null,
    });
    expect(body.summary).toEqual({ ok: 3, warn: 2, error: 3, total: 8 });
    expect(body.status).toBe('error');
    expect(body.pin_drift.source).toMatchObject({ pinned_version: 1, latest_version: 1, has_drift: false });
  });

  it('reports pin drift (warn) and fields unbound after a re-pin (error)', async () => {
    const source = await versionedDataset(ctx, system.id, 'source', [['id', 'integer']]);
    const target = await versionedDataset(ctx, system.id, 'raw', [['id', 'integer']]);
    const link = await createLink(ctx, source, target);
    ok(
      await ctx.request('POST', `${API}/dataset-links/${link.id}/field-links`, {
        token: ctx.userToken,
        body: { source_field_id: source.fields.get('id'), target_field_id: target.fields.get('id') },
      }),
      201,
    );
    expect((await report(link.id)).status).toBe('ok');
    await publishVersion(ctx, source.dataset.id, [
      ['id', 'integer'],
      ['extra', 'text'],
    ]);
    const drifted = await report(link.id);
    expect(drifted.pin_drift.source).toMatchObject({ pinned_version: 1, latest_version: 2, has_drift: true });
    expect(drifted.status).toBe('warn');

    const v2 = await publishVersion(ctx, target.dataset.id, [['other', 'text']]);
    ok(
      await ctx.request('PATCH', `${API}/dataset-links/${link.id}`, {
        token: ctx.userToken,
        body: { target_schema_id: v2.schemaId, row_version: 1 },
      }),
    );
    const unbound = await report(link.id);
    expect(unbound.field_compat[0]).toMatchObject({
      issues: ['target_unbound'],
      severity: 'error',
      target_type: null,
    });
    expect(unbound.status).toBe('error');
  });

  it('compares nested types (arrays) through their children, read with their subtrees', async () => {
    const arrayOf = (item: string) => ({
      data_type: 'array',
      children: [{ slot: 'item', type: { data_type: item } }],
    });
    const columns = (big: string) => ({
      columns: [
        { name: 'same', nullable: true, type: arrayOf('integer') },
        { name: 'wider', nullable: true, type: arrayOf(big) },
        { name: 'other', nullable: true, type: arrayOf('bytea') },
      ],
    });
    // A system of its own: the bulk test below counts the queries of the main system's (scalar) links.
    const own = await createPgSystem(ctx);
    const source = await versionedDataset(ctx, own.id, 'source', [['x', 'integer']]);
    const target = await versionedDataset(ctx, own.id, 'raw', [['x', 'integer']]);
    const publish = async (id: string, body: unknown) =>
      ok(
        await ctx.request('POST', `${API}/datasets/${id}/schema-versions`, { token: ctx.userToken, body }),
        201,
      ).version;
    const sv = await publish(source.dataset.id, columns('integer'));
    const tv = await publish(target.dataset.id, {
      columns: [
        ...columns('bigint').columns.slice(0, 2),
        { name: 'other', nullable: true, type: arrayOf('date') },
      ],
    });
    const link = await createLink(
      ctx,
      { ...source, schemaId: sv.dataset_schema_id },
      { ...target, schemaId: tv.dataset_schema_id },
    );
    const fieldOf = (v: Row, name: string) => v.columns.find((c: Row) => c.name === name).field_id;
    ok(
      await ctx.request('POST', `${API}/dataset-links/${link.id}/field-links/bulk`, {
        token: ctx.userToken,
        body: ['same', 'wider', 'other'].map((n) => ({
          source_field_id: fieldOf(sv, n),
          target_field_id: fieldOf(tv, n),
        })),
      }),
      201,
    );
    const body = await report(link.id);
    const byName = Object.fromEntries(body.field_compat.map((r: Row) => [r.source_field.name, r]));
    expect(byName['same']).toMatchObject({ issues: [], severity: 'ok', source_type: 'integer[]' });
    expect(byName['wider']).toMatchObject({
      issues: ['type_needs_cast'],
      severity: 'warn',
      target_type: 'bigint[]',
    });
    expect(byName['other']).toMatchObject({ issues: ['type_incompatible'], severity: 'error' });
  });

  it('answers 404 for an unknown or deleted link', async () => {
    const r = await ctx.request('GET', `${API}/dataset-links/${UNKNOWN_ID}/compat`, { token: ctx.userToken });
    expectEnvelope(r, 404, 'DATASET_LINK_NOT_FOUND');
  });
});

describe('bulk compat', () => {
  it('filters by status, dataset, system and drift, pages, and costs the same queries for 1 or 4 links', async () => {
    const first = await hop();
    const list = async (query: string) =>
      ok(await ctx.request('GET', `${API}/dataset-links/compat?${query}`, { token: ctx.userToken }));
    const one = await list(`dataset_id=${first.source.dataset.id}`);
    expect(one.items).toEqual([
      {
        dataset_link_id: first.link.id,
        source_dataset: { id: first.source.dataset.id, object_name: first.source.dataset.object_name },
        target_dataset: { id: first.target.dataset.id, object_name: first.target.dataset.object_name },
        status: 'error',
        summary: { ok: 3, warn: 2, error: 3, total: 8 },
        pin_drift: { source: false, target: false },
        updated_at: first.link.updated_at,
      },
    ]);
    expect((await list(`dataset_id=${first.target.dataset.id}&status=ok`)).items).toEqual([]);
    expect((await list(`dataset_id=${first.target.dataset.id}&status__in=warn,error`)).total).toBe(1);
    expect((await list(`dataset_id=${first.target.dataset.id}&has_drift=true`)).total).toBe(0);

    const counter = sqlCounter(ctx);
    counter.start();
    await list(`system_id=${system.id}&size=1`);
    const forOne = counter.stop().length;
    for (let i = 0; i < 3; i++) await hop();
    const all = await list(`system_id=${system.id}&size=100`);
    expect(all.total).toBeGreaterThanOrEqual(4);
    counter.start();
    await list(`system_id=${system.id}&size=100`);
    expect(counter.stop().length).toBe(forOne);
    counter.start();
    await list(`system_id=${system.id}&status=error&size=2&page=2`);
    const paged = await list(`system_id=${system.id}&status=error&size=2&page=2`);
    expect(counter.stop().length).toBe(forOne * 2);
    expect(paged.items.length).toBe(2);
  });

  it('refuses unknown filters and bad values with 422', async () => {
    for (const query of ['status=bad', 'sort=status', 'size=101', 'has_drift=maybe']) {
      const r = await ctx.request('GET', `${API}/dataset-links/compat?${query}`, { token: ctx.userToken });
      expectEnvelope(r, 422, 'VALIDATION_ERROR');
    }
  });
});
