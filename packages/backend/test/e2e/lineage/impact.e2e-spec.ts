// Impact analysis (ADR 0021): POST /datasets/{id}/schema-versions/impact previews what publishing a
// version would break, upstream and downstream, with the compat rules of the ETL pre-flight, and writes
// nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createPgSystem, type Row, seedReference, sqlCounter } from '../../helpers/catalogue.js';
import { ok, UNKNOWN_ID } from '../../helpers/factories.js';
import {
  type ColumnSpec,
  createLink,
  type VersionedDataset,
  versionedDataset,
} from '../../helpers/lineage.js';
import { copyBody, createDataflowRequest, pipelineFixture } from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;
let up: VersionedDataset;
let mid: VersionedDataset;
let down: VersionedDataset;
let side: VersionedDataset;
let upLink: Row;
let downLink: Row;
let sideLink: Row;

const MID: ColumnSpec[] = [
  ['id', 'integer', undefined, true],
  ['name', 'varchar', { length: 255 }],
  ['amount', 'numeric', { precision: 12, scale: 2 }],
  ['note', 'text'],
];

async function fieldLinks(link: Row, source: VersionedDataset, target: VersionedDataset, names: string[]) {
  ok(
    await ctx.request('POST', `${API}/dataset-links/${link.id}/field-links/bulk`, {
      token: ctx.userToken,
      body: names.map((n) => ({
        source_field_id: source.fields.get(n),
        target_field_id: target.fields.get(n),
      })),
    }),
    201,
  );
}

const column = (name: string, data_type: string, params?: Record<string, unknown>, nullable = true) => ({
  name,
  nullable,
  type: { data_type, ...(params ? { params } : {}) },
});

const preview = (datasetId: string, body: unknown) =>
  ctx.request('POST', `${API}/datasets/${datasetId}/schema-versions/impact`, { token: ctx.userToken, body });

async function rowCounts(): Promise<Record<string, number>> {
  const [row] = await ctx.dataSource.query(
    `SELECT (SELECT count(*) FROM dataset_schemas)::int AS schemas, (SELECT count(*) FROM fields)::int AS fields,
            (SELECT count(*) FROM type_instances)::int AS types, (SELECT count(*) FROM field_bindings)::int AS bindings,
            (SELECT count(*) FROM dataset_links)::int AS links, (SELECT count(*) FROM field_links)::int AS field_links`,
  );
  return row;
}

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
  // up (source) → mid (raw) → down (core), and mid → side (core) whose `note` is already broken.
  up = await versionedDataset(ctx, system.id, 'source', [
    ['id', 'integer', undefined, true],
    ['name', 'varchar', { length: 255 }],
    ['note', 'text'],
  ]);
  mid = await versionedDataset(ctx, system.id, 'raw', MID);
  down = await versionedDataset(ctx, system.id, 'core', MID.slice(0, 3));
  side = await versionedDataset(ctx, system.id, 'core', [['note', 'date']]);
  upLink = await createLink(ctx, up, mid);
  downLink = await createLink(ctx, mid, down);
  sideLink = await createLink(ctx, mid, side);
  await fieldLinks(upLink, up, mid, ['id', 'name', 'note']);
  await fieldLinks(downLink, mid, down, ['id', 'name', 'amount']);
  await fieldLinks(sideLink, mid, side, ['note']);
});
afterAll(async () => {
  await ctx.close();
});

describe('schema version impact', () => {
  it('lists the links and field links a version would break, downstream and upstream, writing nothing', async () => {
    const before = await rowCounts();
    const body = {
      columns: [
        column('id', 'integer', undefined, false),
        column('name', 'varchar', { length: 100 }), // upstream varchar(255) → varchar(100): narrowing
        // `amount` dropped: the downstream field link loses its source
        column('note', 'text'),
      ],
    };
    const report = ok(await preview(mid.dataset.id, body));
    expect(await rowCounts()).toEqual(before);
    expect(report.dataset_id).toBe(mid.dataset.id);
    expect(report.current_version_num).toBe(1);
    expect(report.summary).toEqual({
      links: 3,
      breaking_links: 2,
      breaking_field_links: 2,
      dataflows: 0,
      breaking_dataflows: 0,
    });
    expect(report.links.map((l: Row) => l.side)).toEqual(['source', 'source', 'target']);

    const byId = Object.fromEntries(report.links.map((l: Row) => [l.dataset_link_id, l]));
    const rows = (linkId: string) =>
      Object.fromEntries(byId[linkId].field_links.map((f: Row) => [f.source_field.name, f]));

    expect(byId[downLink.id]).toMatchObject({
      side: 'source',
      source_dataset: { id: mid.dataset.id, object_name: mid.dataset.object_name },
      target_dataset: { id: down.dataset.id },
      status_now: 'ok',
      status_after: 'error',
      summary_after: { ok: 2, warn: 0, error: 1, total: 3 },
      breaks: true,
    });
    expect(rows(downLink.id)['amount']).toMatchObject({
      severity_now: 'ok',
      severity_after: 'error',
      issues_after: ['source_unbound'],
      source_type_after: null,
      breaks: true,
    });
    // varchar(100) into varchar(255) is wider: fine downstream.
    expect(rows(downLink.id)['name']).toMatchObject({
      severity_after: 'ok',
      source_type_after: 'varchar(100)',
      target_type_after: 'varchar(255)',
      breaks: false,
    });

    expect(byId[upLink.id]).toMatchObject({
      side: 'target',
      status_now: 'ok',
      status_after: 'error',
      breaks: true,
    });
    expect(rows(upLink.id)['name']).toMatchObject({
      issues_after: ['type_narrowing'],
      target_type_after: 'varchar(100)',
      breaks: true,
    });
    expect(rows(upLink.id)['id']).toMatchObject({ severity_after: 'ok', breaks: false });

    // Already broken (text → date, no cast rule): still an error, not a break caused by this version.
    expect(byId[sideLink.id]).toMatchObject({ status_now: 'error', status_after: 'error', breaks: false });
    expect(rows(sideLink.id)['note']).toMatchObject({
      severity_now: 'error',
      severity_after: 'error',
      issues_after: ['type_incompatible'],
      breaks: false,
    });

    // Nothing was published: the history still has one version.
    const history = ok(
      await ctx.request('GET', `${API}/datasets/${mid.dataset.id}/schema-versions`, { token: ctx.userToken }),
    );
    expect(history).toHaveLength(1);
  });

  it('breaks nothing for the current shape; a column dropped from a target is unbound on that side', async () => {
    const same = ok(
      await preview(mid.dataset.id, {
        columns: MID.map(([name, type, params, notNull]) => column(name, type, params, notNull !== true)),
      }),
    );
    expect(same.summary).toEqual({
      links: 3,
      breaking_links: 0,
      breaking_field_links: 0,
      dataflows: 0,
      breaking_dataflows: 0,
    });
    const loosened = ok(
      await preview(down.dataset.id, {
        columns: [column('id', 'integer', undefined, false), column('name', 'varchar', { length: 255 })],
      }),
    );
    // down is only a target; `amount` dropped from it is unbound on the target side.
    expect(loosened.links).toHaveLength(1);
    expect(loosened.links[0].field_links.find((f: Row) => f.target_field.name === 'amount')).toMatchObject({
      issues_after: ['target_unbound'],
      breaks: true,
    });
  });

  it('answers a dataset without links with an empty report', async () => {
    const alone = await versionedDataset(ctx, system.id, 'raw');
    const report = ok(await preview(alone.dataset.id, { columns: [column('id', 'integer')] }));
    expect(report).toEqual({
      dataset_id: alone.dataset.id,
      current_version_num: 1,
      summary: { links: 0, breaking_links: 0, breaking_field_links: 0, dataflows: 0, breaking_dataflows: 0 },
      links: [],
      dataflows: [],
    });
  });

  it('costs the same statements for one downstream link or four', async () => {
    const cols: ColumnSpec[] = [
      ['id', 'integer'],
      ['name', 'varchar', { length: 50 }],
    ];
    const producer = await versionedDataset(ctx, system.id, 'raw', cols);
    const consumer = async () => {
      const target = await versionedDataset(ctx, system.id, 'core', cols);
      await fieldLinks(await createLink(ctx, producer, target), producer, target, ['id', 'name']);
    };
    const body = { columns: [column('id', 'integer')] }; // `name` dropped: every consumer breaks
    const counter = sqlCounter(ctx);
    await consumer();
    counter.start();
    const one = ok(await preview(producer.dataset.id, body));
    const forOne = counter.stop().length;
    for (let i = 0; i < 3; i++) await consumer();
    counter.start();
    const four = ok(await preview(producer.dataset.id, body));
    expect(counter.stop().length).toBe(forOne);
    expect(one.summary).toEqual({
      links: 1,
      breaking_links: 1,
      breaking_field_links: 1,
      dataflows: 0,
      breaking_dataflows: 0,
    });
    expect(four.summary).toEqual({
      links: 4,
      breaking_links: 4,
      breaking_field_links: 4,
      dataflows: 0,
      breaking_dataflows: 0,
    });
  });

  it('checks the body as a publish does: the catalogue codes, with paths', async () => {
    expectEnvelope(
      await preview(UNKNOWN_ID, { columns: [column('id', 'integer')] }),
      404,
      'DATASET_NOT_FOUND',
    );
    const unknownType = await preview(mid.dataset.id, { columns: [column('id', 'no_such_type')] });
    expectEnvelope(unknownType, 404, 'DATA_TYPE_NOT_FOUND');
    expect(unknownType.body.details.path).toEqual(['columns', 0, 'type', 'data_type']);
    expectEnvelope(
      await preview(mid.dataset.id, { columns: [column('name', 'varchar', { length: 'long' })] }),
      422,
      'TYPE_INSTANCE_PARAMS_INVALID',
    );
    expectEnvelope(await preview(mid.dataset.id, { columns: 'x' }), 422, 'VALIDATION_ERROR');
    expectEnvelope(
      await preview(mid.dataset.id, { columns: [column('id', 'integer')], surprise: true }),
      422,
      'VALIDATION_ERROR',
    );
  });
});

describe('dataflows touching the dataset (issue 25)', () => {
  it('lists the dataflows reading and writing it, with the columns they name that the version lacks', async () => {
    const f = await pipelineFixture(ctx);
    const flow = ok(await createDataflowRequest(ctx, copyBody(f)), 201);
    // The source loses its watermark column: the dataflow reading it breaks.
    const source = ok(
      await preview(f.orders.id, {
        columns: [column('order_id', 'bigint'), column('amount', 'numeric', { precision: 18, scale: 2 })],
      }),
    );
    expect(source.summary).toMatchObject({ dataflows: 1, breaking_dataflows: 1 });
    expect(source.dataflows).toEqual([
      {
        dataflow_id: flow.id,
        name: flow.name,
        workspace_id: f.workspace.id,
        side: 'source',
        other_dataset: { id: f.bronzeOrders.id, object_name: f.bronzeOrders.object_name },
        dataset_link_id: flow.dataset_link_id,
        is_active: true,
        missing_columns: ['updated_at'],
        breaks: true,
      },
    ]);
    // The destination keeps its merge key: listed, not breaking.
    const kept = ok(
      await preview(f.bronzeOrders.id, {
        columns: [column('order_id', 'long'), column('amount', 'decimal')],
      }),
    );
    expect(kept.dataflows).toMatchObject([{ side: 'destination', missing_columns: [], breaks: false }]);
    const lost = ok(await preview(f.bronzeOrders.id, { columns: [column('amount', 'decimal')] }));
    expect(lost.dataflows).toMatchObject([
      { side: 'destination', missing_columns: ['order_id'], breaks: true },
    ]);
  });
});
