// Column lineage is many-to-one (issue 27 §2, ADR 0052): an output field computed from several input
// fields (`agg = f(a, b)`) keeps one field link per input field, each with the transformations the
// `columnLineage` facet gives (type, subtype, description, masking). Through the OpenLineage intake and
// the REST routes, read back by the field lineage graph; render-sql renders only columns with one direct
// identity source and names the others; the migration goes down (oldest source kept) and up again.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, flavorByCode, type Row, seedReference } from '../../helpers/catalogue.js';
import { createSystem, ok } from '../../helpers/factories.js';
import {
  createEngine,
  createLink,
  publishVersion,
  type VersionedDataset,
  versionedDataset,
} from '../../helpers/lineage.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';
import { ColumnLineageManyToOne1766600000000 } from '../../../src/database/migrations/1766600000000-ColumnLineageManyToOne.js';

type Json = Record<string, unknown>;

let ctx: TestContext;
let shop: Row;
const PG = 'postgres://columns.example.com:5432';

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  shop = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
    extra: { openlineage_namespace: PG, openlineage_database: 'shop' },
  });
});
afterAll(async () => {
  await ctx.close();
});

/** A table `shop.<schema>.<table>` with one published version. */
async function table(schema: string, name: string, layer: string, columns: string[]) {
  const dataset = await createDataset(ctx, shop.id, 'rdbms', {
    object_name: `${schema}.${name}`,
    schema_name: schema,
    table_name: name,
    layer,
  });
  const { fields, schemaId } = await publishVersion(
    ctx,
    dataset.id,
    columns.map((c) => [c, 'integer']),
  );
  return { dataset, fields, schemaId };
}

const input = (name: string, field: string, transformations?: Json[]) => ({
  namespace: PG,
  name: `shop.public.${name}`,
  field,
  ...(transformations ? { transformations } : {}),
});
const AGGREGATION: Json = {
  type: 'DIRECT',
  subtype: 'AGGREGATION',
  description: 'sum(a + b)',
  masking: false,
};
const IDENTITY: Json = { type: 'DIRECT', subtype: 'IDENTITY' };
const FILTER: Json = { type: 'INDIRECT', subtype: 'FILTER', description: 'WHERE region = 1' };

/** A dbt-like COMPLETE event: `totals.agg = sum(a + b)`, `totals.region = region` kept where region = 1. */
function event(runId: string, source: string, target: string, fields: Record<string, Json[]>) {
  return {
    eventType: 'COMPLETE',
    eventTime: '2026-12-07T10:00:00Z',
    producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.26.0/integration/dbt',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId },
    job: { namespace: 'dbt', name: `shop.${target}` },
    inputs: [{ namespace: PG, name: `shop.public.${source}` }],
    outputs: [
      {
        namespace: PG,
        name: `shop.analytics.${target}`,
        facets: {
          columnLineage: {
            _producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.26.0/integration/dbt',
            _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
            fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { inputFields: v }])),
          },
        },
      },
    ],
  };
}

const post = (body: unknown) =>
  ctx.request('POST', `${API}/lineage/openlineage`, { token: ctx.userToken, body });
const upstream = async (fieldId: string) =>
  ok(
    await ctx.request('GET', `${API}/lineage/fields/${fieldId}?direction=upstream&depth=1`, {
      token: ctx.userToken,
    }),
  );
type Edge = [string, string, unknown];
const bySource = (x: Edge, y: Edge) => x[0].localeCompare(y[0]);
const edgesOf = (graph: Row) =>
  (graph.edges as Row[])
    .map((e): Edge => [e.source_id as string, e.target_id as string, e.transformations])
    .sort(bySource);

describe('OpenLineage intake: several sources per column', () => {
  it('stores every input field of an output field with its transformations, idempotent, updated on change', async () => {
    const src = await table('public', 'sales', 'source', ['a', 'b', 'c', 'region']);
    const tgt = await table('analytics', 'totals', 'raw', ['agg', 'region']);
    const runId = randomUUID();
    const first = event(runId, 'sales', 'totals', {
      agg: [input('sales', 'a', [AGGREGATION]), input('sales', 'b', [AGGREGATION])],
      // One source through two transformations: one field link with both (ADR 0052).
      region: [input('sales', 'region', [IDENTITY, FILTER])],
    });
    const created = ok(await post(first), 201);
    expect(created.skipped).toEqual([]);
    expect(created.field_links.map((f: Row) => [f.source_field, f.target_field, f.status])).toEqual([
      ['a', 'agg', 'created'],
      ['b', 'agg', 'created'],
      ['region', 'region', 'created'],
    ]);
    const agg = { ...AGGREGATION };
    expect(created.field_links.map((f: Row) => f.transformations)).toEqual([
      [agg],
      [agg],
      [
        { ...IDENTITY, description: null, masking: null },
        { ...FILTER, masking: null },
      ],
    ]);
    const linkId = created.dataset_links[0].dataset_link_id;
    const stored: Row[] = await ctx.dataSource.query(
      `SELECT source_field_id, target_field_id, transformations FROM field_links WHERE dataset_link_id = $1
       ORDER BY target_field_id, source_field_id`,
      [linkId],
    );
    expect(stored).toHaveLength(3);
    expect(stored.filter((r) => r.target_field_id === tgt.fields.get('agg'))).toHaveLength(2);

    // The field lineage read lists both sources of agg, each with its subtype.
    const graph = await upstream(tgt.fields.get('agg') as string);
    expect(graph.total_edges).toBe(2);
    expect(edgesOf(graph)).toEqual(
      (
        [
          [src.fields.get('a'), tgt.fields.get('agg'), [agg]],
          [src.fields.get('b'), tgt.fields.get('agg'), [agg]],
        ] as Edge[]
      ).sort(bySource),
    );
    expect((graph.nodes as Row[]).map((n) => n.name).sort()).toEqual(['a', 'agg', 'b']);

    // The same event again: the stored answer, nothing written twice.
    const again = await post(first);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...created, duplicate: true });
    // Another run with the same column lineage: every edge confirmed, none added.
    const rerun = ok(await post({ ...first, run: { runId: randomUUID() } }), 201);
    expect(rerun.field_links.map((f: Row) => f.status)).toEqual(['confirmed', 'confirmed', 'confirmed']);

    // A run with a changed set: a's transformation changes (updated), c is new (created), b is not
    // listed (kept: the intake never removes an edge).
    const changed = ok(
      await post(
        event(randomUUID(), 'sales', 'totals', {
          agg: [
            input('sales', 'a', [{ type: 'DIRECT', subtype: 'TRANSFORMATION', description: 'a * 2' }]),
            input('sales', 'c', [{ type: 'INDIRECT', subtype: 'WINDOW_RANK' }]),
          ],
        }),
      ),
      201,
    );
    expect(changed.field_links.map((f: Row) => [f.source_field, f.status, f.transformations])).toEqual([
      ['a', 'updated', [{ type: 'DIRECT', subtype: 'TRANSFORMATION', description: 'a * 2', masking: null }]],
      // An unknown subtype is kept as sent.
      ['c', 'created', [{ type: 'INDIRECT', subtype: 'WINDOW_RANK', description: null, masking: null }]],
    ]);
    const after = await upstream(tgt.fields.get('agg') as string);
    expect(after.total_edges).toBe(3);
    const byName = new Map(
      (after.edges as Row[]).map((e) => [
        [...src.fields].find(([, id]) => id === e.source_id)?.[0],
        e.transformations,
      ]),
    );
    expect(byName.get('a')).toEqual([
      { type: 'DIRECT', subtype: 'TRANSFORMATION', description: 'a * 2', masking: null },
    ]);
    expect(byName.get('b')).toEqual([agg]);
    const [{ version }] = await ctx.dataSource.query(
      `SELECT row_version AS version FROM field_links WHERE dataset_link_id = $1 AND source_field_id = $2`,
      [linkId, src.fields.get('a')],
    );
    expect(version).toBe(2);
  });

  it('leaves out transformation entries of another shape, and keeps the edge', async () => {
    await table('public', 'odd', 'source', ['a']);
    await table('analytics', 'odd_out', 'raw', ['x']);
    const body = ok(
      await post(
        event(randomUUID(), 'odd', 'odd_out', {
          x: [
            input('odd', 'a', [
              { type: 'SIDEWAYS' },
              { subtype: 'IDENTITY' },
              { type: 'direct', subtype: 'group by' },
            ]),
          ],
        }),
      ),
      201,
    );
    expect(body.field_links).toEqual([
      expect.objectContaining({
        source_field: 'a',
        target_field: 'x',
        status: 'created',
        transformations: [{ type: 'DIRECT', subtype: 'group_by', description: null, masking: null }],
      }),
    ]);
  });
});

describe('REST field links: several sources per target', () => {
  it('bulk-creates two sources of one target with their transformations; the field lineage lists both', async () => {
    const source = await versionedDataset(ctx, shop.id, 'source', [
      ['a', 'integer'],
      ['b', 'integer'],
    ]);
    const target = await versionedDataset(ctx, shop.id, 'raw', [['agg', 'integer']]);
    const link = await createLink(ctx, source, target);
    const path = `${API}/dataset-links/${link.id}/field-links`;
    const item = (from: string, transformations: Json[]) => ({
      source_field_id: source.fields.get(from),
      target_field_id: target.fields.get('agg'),
      transformations,
    });
    const created = ok(
      await ctx.request('POST', `${path}/bulk`, {
        token: ctx.userToken,
        body: [item('a', [AGGREGATION]), item('b', [{ type: 'DIRECT', subtype: 'MY_OWN_SUBTYPE' }])],
      }),
      201,
    );
    expect(created.map((l: Row) => [l.source_field_id, l.transformations])).toEqual([
      [source.fields.get('a'), [AGGREGATION]],
      [
        source.fields.get('b'),
        [{ type: 'DIRECT', subtype: 'MY_OWN_SUBTYPE', description: null, masking: null }],
      ],
    ]);
    expect(ok(await ctx.request('GET', path, { token: ctx.userToken }))).toHaveLength(2);
    const graph = await upstream(target.fields.get('agg') as string);
    expect(graph.total_edges).toBe(2);
    expect((graph.edges as Row[]).map((e) => e.id).sort()).toEqual(created.map((l: Row) => l.id).sort());
    // The same edge again is the one conflict left.
    expectEnvelope(
      await ctx.request('POST', path, { token: ctx.userToken, body: item('a', []) }),
      409,
      'FIELD_LINK_ALREADY_EXISTS',
    );
  });

  it('refuses transformations of the wrong shape with 422', async () => {
    const source = await versionedDataset(ctx, shop.id, 'source', [['a', 'integer']]);
    const target = await versionedDataset(ctx, shop.id, 'raw', [['x', 'integer']]);
    const link = await createLink(ctx, source, target);
    for (const transformations of [
      [{ type: 'SIDEWAYS' }],
      [{ type: 'DIRECT', subtype: 'two words' }],
      [{ type: 'DIRECT', extra: 1 }],
      'IDENTITY',
      Array.from({ length: 21 }, () => IDENTITY),
    ]) {
      const r = await ctx.request('POST', `${API}/dataset-links/${link.id}/field-links`, {
        token: ctx.userToken,
        body: {
          source_field_id: source.fields.get('a'),
          target_field_id: target.fields.get('x'),
          transformations,
        },
      });
      expectEnvelope(r, 422, 'VALIDATION_ERROR');
    }
  });
});

describe('render-sql: the one-source rule where it applies', () => {
  it('renders columns with one direct identity source and names the others FIELD_NOT_RENDERABLE', async () => {
    const columns: [string, string][] = [
      ['id', 'long'],
      ['a', 'long'],
      ['b', 'long'],
      ['region', 'long'],
      ['n', 'long'],
    ];
    const source = await versionedDataset(ctx, shop.id, 'raw', columns, 'hive');
    const target = await versionedDataset(
      ctx,
      shop.id,
      'core',
      [
        ['id', 'long'],
        ['agg', 'long'],
        ['region', 'long'],
        ['doubled', 'long'],
      ],
      'hive',
    );
    const engine = await createEngine(ctx, 'spark');
    const link = await createLink(ctx, source, target, { engine_id: engine.id });
    const edge = (from: string, to: string, transformations?: Json[]) => ({
      source_field_id: source.fields.get(from),
      target_field_id: target.fields.get(to),
      ...(transformations ? { transformations } : {}),
    });
    const links = ok(
      await ctx.request('POST', `${API}/dataset-links/${link.id}/field-links/bulk`, {
        token: ctx.userToken,
        body: [
          edge('id', 'id'), // no transformation known: rendered as before
          edge('a', 'agg', [AGGREGATION]),
          edge('b', 'agg', [AGGREGATION]),
          edge('region', 'region', [IDENTITY]),
          edge('n', 'region', [FILTER]), // INDIRECT only: feeds no value
          edge('n', 'doubled', [{ type: 'DIRECT', subtype: 'TRANSFORMATION' }]),
        ],
      }),
      201,
    );
    const rendered = ok(
      await ctx.request('POST', `${API}/dataset-links/${link.id}/render-sql`, { token: ctx.userToken }),
    );
    const projections = (rendered.sql as string).split('\n').filter((l) => l.includes(' AS `'));
    expect(projections).toEqual([
      '  CAST(`id` AS bigint) AS `id`,',
      '  CAST(`region` AS bigint) AS `region`',
    ]);
    expect(rendered.sql).toMatch(/^INSERT INTO .* \(`id`, `region`\)\nSELECT\n/);
    const idOf = (i: number) => links[i].id as string;
    expect((rendered.warnings as Row[]).map((w) => [w.code, w.field_link_id, w.field_name]).sort()).toEqual(
      [
        ['FIELD_NOT_RENDERABLE', idOf(1), 'agg'],
        ['FIELD_NOT_RENDERABLE', idOf(2), 'agg'],
        ['FIELD_NOT_RENDERABLE', idOf(5), 'doubled'],
      ].sort(),
    );
  });
});

describe('compat: types are compared where the value is copied', () => {
  it('checks a derived link for its bindings only, a copy for its cast', async () => {
    const source = await versionedDataset(ctx, shop.id, 'source', [['label', 'text']]);
    const target = await versionedDataset(ctx, shop.id, 'raw', [
      ['copied', 'integer'],
      ['counted', 'integer'],
    ]);
    const link = await createLink(ctx, source, target);
    const created = ok(
      await ctx.request('POST', `${API}/dataset-links/${link.id}/field-links/bulk`, {
        token: ctx.userToken,
        body: [
          { source_field_id: source.fields.get('label'), target_field_id: target.fields.get('copied') },
          {
            source_field_id: source.fields.get('label'),
            target_field_id: target.fields.get('counted'),
            transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION', description: 'count(label)' }],
          },
        ],
      }),
      201,
    );
    const report = ok(
      await ctx.request('GET', `${API}/dataset-links/${link.id}/compat`, { token: ctx.userToken }),
    );
    const rowOf = (id: string) => (report.field_compat as Row[]).find((r) => r.field_link_id === id) as Row;
    // text → integer as a copy is a cast issue; counted into an integer it is none.
    expect(rowOf(created[0].id).issues.length).toBeGreaterThan(0);
    expect(rowOf(created[1].id)).toMatchObject({ issues: [], severity: 'ok', cast_rule_id: null });
  });
});

describe('migration 1766600000000 (ColumnLineageManyToOne)', () => {
  it('goes down keeping the oldest source of each target, and up again', async () => {
    const source = await versionedDataset(ctx, shop.id, 'source', [
      ['a', 'integer'],
      ['b', 'integer'],
    ]);
    const target: VersionedDataset = await versionedDataset(ctx, shop.id, 'raw', [['agg', 'integer']]);
    const link = await createLink(ctx, source, target);
    const path = `${API}/dataset-links/${link.id}/field-links`;
    const post = (from: string) =>
      ctx.request('POST', path, {
        token: ctx.userToken,
        body: {
          source_field_id: source.fields.get(from),
          target_field_id: target.fields.get('agg'),
          transformations: [AGGREGATION],
        },
      });
    const first = ok(await post('a'), 201);
    ok(await post('b'), 201);
    const migration = new ColumnLineageManyToOne1766600000000();
    const runner = ctx.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const kept: Row[] = await ctx.dataSource.query(
        'SELECT id FROM field_links WHERE dataset_link_id = $1',
        [link.id],
      );
      expect(kept.map((r) => r.id)).toEqual([first.id]);
      const columns: Row[] = await ctx.dataSource.query(
        `SELECT column_name FROM information_schema.columns
         WHERE table_name = 'field_links' AND column_name = 'transformations'`,
      );
      expect(columns).toHaveLength(0);
      // One source per target again, as before the migration.
      await expect(
        ctx.dataSource.query(
          'INSERT INTO field_links (dataset_link_id, source_field_id, target_field_id) VALUES ($1, $2, $3)',
          [link.id, source.fields.get('b'), target.fields.get('agg')],
        ),
      ).rejects.toThrow(/uq_field_links_target_in_link/);
    } finally {
      await migration.up(runner);
      await runner.release();
    }
    const back = ok(await ctx.request('GET', path, { token: ctx.userToken }));
    expect(back).toEqual([expect.objectContaining({ id: first.id, transformations: [] })]);
    ok(await post('b'), 201);
    expect(ok(await ctx.request('GET', path, { token: ctx.userToken }))).toHaveLength(2);
  });
});
