// Issue 27 §4: events published by the integrations themselves (Spark, Airflow, dbt and Flink test
// fixtures, Marquez's own test events; test/fixtures/openlineage/README.md says where each comes from)
// posted unmodified to the transport's default endpoint with an API key as Bearer (one gzip), and what
// Marquez would derive from them asserted: jobs, runs, states, durations, parents, dataset links and every
// column edge with its transformations, unknown datasets, and the drift of their schema facets by type.
// Every expected value is read from the events in this file's own tables, never from the server.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, flavorByCode, type Row, seedReference } from '../helpers/catalogue.js';
import { createSystem, ok, unique } from '../helpers/factories.js';
import { type ColumnSpec, publishVersion } from '../helpers/lineage.js';
import { createWorkspace } from '../helpers/provider.js';
import { createTestContext, type TestContext } from '../helpers/test-app.js';

// Events as read from the fixtures: any JSON (the spec reads their keys as the integrations wrote them).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
let ctx: TestContext;
let apiKey: string;

const FIXTURES = new URL('../fixtures/openlineage/', import.meta.url);
const fixture = (path: string): Json | Json[] => JSON.parse(readFileSync(new URL(path, FIXTURES), 'utf8'));

/**
 * What the expected-event templates of the integrations' own tests leave out (they match by pattern and
 * ignore these keys): the run id, the time, the producer, a job name. Only missing keys are added; the
 * README lists the files this is applied to.
 */
function filled(
  event: Json,
  fill: { runId: string; eventTime: string; producer: string; job?: string },
): Json {
  return {
    ...event,
    eventTime: event['eventTime'] ?? fill.eventTime,
    producer: event['producer'] ?? fill.producer,
    run: { runId: fill.runId, ...(event['run'] ?? {}) },
    job: { ...(fill.job ? { name: fill.job } : {}), ...event['job'] },
  };
}

const post = (event: Json) => ctx.request('POST', `${API}/lineage`, { token: apiKey, body: event });
const get = (path: string) => ctx.request('GET', `${API}/${path}`, { token: ctx.userToken });
const runOf = async (runId: string): Promise<Row> => ok(await get(`lineage/runs/${runId}`));
const ms = (a: string, b: string) => new Date(b).getTime() - new Date(a).getTime();

/** A system of the flavor answering to the namespaces (and database) its `extra` names. */
async function system(flavor: string, extra: Record<string, unknown>): Promise<Row> {
  return createSystem(ctx, (await flavorByCode(ctx, flavor)).id, { extra });
}

async function registered(
  sys: Row,
  kind: 'rdbms' | 'storage',
  attributes: Record<string, unknown>,
  columns: readonly ColumnSpec[],
): Promise<Row> {
  const dataset = await createDataset(ctx, sys.id, kind, { layer: 'raw', ...attributes });
  if (columns.length > 0) await publishVersion(ctx, dataset.id, columns);
  return dataset;
}

/** Every field link between two datasets: source field → target field, with its transformations. */
async function edges(source: Row, target: Row): Promise<[string, string, unknown[]][]> {
  const rows: { s: string; t: string; transformations: unknown[] }[] = await ctx.dataSource.query(
    `SELECT sf.name AS s, tf.name AS t, fl.transformations
     FROM field_links fl JOIN dataset_links l ON l.id = fl.dataset_link_id
     JOIN fields sf ON sf.id = fl.source_field_id JOIN fields tf ON tf.id = fl.target_field_id
     WHERE l.source_dataset_id = $1 AND l.target_dataset_id = $2
     ORDER BY tf.name, sf.name`,
    [source.id, target.id],
  );
  return rows.map((r) => [r.s, r.t, r.transformations]);
}

async function activeLinks(source: Row, target: Row): Promise<number> {
  const [row] = await ctx.dataSource.query(
    `SELECT count(*)::int AS n FROM dataset_links
     WHERE source_dataset_id = $1 AND target_dataset_id = $2 AND deleted_at IS NULL`,
    [source.id, target.id],
  );
  return row.n as number;
}

/** The transformations of an input field as the facet gives them, canonical (empty description → null). */
const canonical = (input: Json) =>
  (input['transformations'] ?? []).map((t: Json) => ({
    type: t['type'],
    subtype: t['subtype'] ?? null,
    description: t['description'] ? t['description'] : null,
    masking: typeof t['masking'] === 'boolean' ? t['masking'] : null,
  }));

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  const workspace = await createWorkspace(ctx);
  apiKey = (
    ok(
      await ctx.request('POST', `${API}/api-keys`, {
        token: ctx.userToken,
        body: { name: unique('ol-real'), workspace_ids: [workspace.id], scopes: ['catalogue:write'] },
      }),
      201,
    ) as { key: string }
  ).key;
});
afterAll(async () => {
  await ctx.close();
});

describe('Spark (openlineage-spark, pysparkCLLEnd.json): column lineage with transformations', () => {
  const event = filled(fixture('spark/pysparkCLLEnd.json'), {
    runId: '0191f3d2-5a1e-7c6b-9d4f-1a2b3c4d5e6f',
    eventTime: '2024-09-10T08:00:05.000Z',
    producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.22.0/integration/spark',
    job: 'test_column_level_lineage.execute_insert_into_hadoop_fs_relation_command',
  });
  const output = event['outputs'][0] as Json;
  let source1: Row;
  let source2: Row;
  let tbl1: Row;

  beforeAll(async () => {
    // Spark names files by `file` and their path; the registry's files of that namespace, Arrow-typed.
    const files = await system('storage_files', { openlineage_namespace: 'file' });
    const at = (path: string) => ({ object_name: unique('cll'), path, partition_by: [] });
    source1 = await registered(files, 'storage', at('/tmp/cll_test/cll_source1'), [
      ['a', 'int32'],
      ['b', 'utf8'],
    ]);
    source2 = await registered(files, 'storage', at('/tmp/cll_test/cll_source2'), [
      ['a', 'int32'],
      ['c', 'int32'],
    ]);
    // `agg` registered as int32: the event's `long` is a wider type (drift, compatible).
    tbl1 = await registered(files, 'storage', at('/tmp/cll_test/tbl1'), [
      ['ident', 'int32'],
      ['trans', 'utf8'],
      ['agg', 'int32'],
    ]);
  });

  it('lands gzip-compressed, links both inputs to the output and stores every column edge', async () => {
    const r = await ctx.request('POST', `${API}/lineage`, {
      token: apiKey,
      rawBody: gzipSync(JSON.stringify(event)),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(r.status).toBe(201);
    const answer = r.body as Json;
    expect(answer).toMatchObject({ outcome: 'linked', unknown_datasets: [], skipped: [] });
    expect(answer['datasets'].map((d: Json) => [d.role, d.name, d.status])).toEqual([
      ['input', '/tmp/cll_test/cll_source2', 'matched'],
      ['input', '/tmp/cll_test/cll_source1', 'matched'],
      ['output', '/tmp/cll_test/tbl1', 'matched'],
    ]);
    expect(await activeLinks(source1, tbl1)).toBe(1);
    expect(await activeLinks(source2, tbl1)).toBe(1);

    // Every (output field, input field) of the facet is one edge, with the facet's transformations.
    const fields = output['facets']['columnLineage']['fields'] as Record<string, { inputFields: Json[] }>;
    const expected = (path: string) =>
      Object.entries(fields)
        .flatMap(([target, { inputFields }]) =>
          inputFields.filter((i) => i['name'] === path).map((i) => [i['field'], target, canonical(i)]),
        )
        .sort((a, b) => `${a[1]}/${a[0]}`.localeCompare(`${b[1]}/${b[0]}`));
    const fromSource1 = expected('/tmp/cll_test/cll_source1');
    const fromSource2 = expected('/tmp/cll_test/cll_source2');
    expect(fromSource1.length + fromSource2.length).toBe(10);
    expect(await edges(source1, tbl1)).toEqual(fromSource1);
    expect(await edges(source2, tbl1)).toEqual(fromSource2);
    expect(answer['field_links']).toHaveLength(10);
  });

  it('reports the drift of the output by type: long is int64, wider than the registered int32', async () => {
    const observed = ok(await get(`datasets/${tbl1.id}/observed-schemas`));
    expect(observed).toHaveLength(1);
    expect(observed[0]).toMatchObject({ drift: 'compatible', compared_version_num: 1 });
    expect(observed[0].changes.map((c: Json) => [c.category, c.name, c.compatibility])).toEqual([
      ['type_changed', 'agg', 'compatible'],
    ]);
    // The inputs' facets name the registered types (integer = int32, string = utf8): no drift.
    for (const input of [source1, source2]) {
      expect(ok(await get(`datasets/${input.id}/observed-schemas`))[0].drift).toBe('none');
    }
  });

  it('records the job and its completed run with the datasets it read and wrote', async () => {
    const run = await runOf(event['run']['runId']);
    expect(run).toMatchObject({
      state: 'COMPLETED',
      ended_at: event['eventTime'],
      started_at: null,
      duration_ms: null,
      parent: null,
      job: { namespace: event['job']['namespace'], name: event['job']['name'] },
    });
    expect(run.inputs.map((d: Row) => [d.name, d.dataset_id]).sort()).toEqual(
      [
        ['/tmp/cll_test/cll_source2', source2.id],
        ['/tmp/cll_test/cll_source1', source1.id],
      ].sort(),
    );
    expect(run.outputs.map((d: Row) => [d.name, d.dataset_id])).toEqual([['/tmp/cll_test/tbl1', tbl1.id]]);
  });
});

describe('Airflow (openlineage-airflow, requests/postgres.json): SQL tasks on PostgreSQL', () => {
  const [createStart, insertStart, createComplete, insertComplete] = fixture(
    'airflow/postgres.json',
  ) as Json[];
  const producer = 'https://github.com/OpenLineage/OpenLineage/tree/0.0.1/integration/airflow';
  const createRun = '0b5c6c1e-2a8e-4d8e-9a57-3c1f2e4d5a01';
  const insertRun = '0b5c6c1e-2a8e-4d8e-9a57-3c1f2e4d5a02';
  const events = [
    filled(createStart, { runId: createRun, eventTime: '2021-06-01T10:00:00.000Z', producer }),
    filled(insertStart, { runId: insertRun, eventTime: '2021-06-01T10:00:01.000Z', producer }),
    filled(createComplete, { runId: createRun, eventTime: '2021-06-01T10:00:00.250Z', producer }),
    filled(insertComplete, { runId: insertRun, eventTime: '2021-06-01T10:00:03.500Z', producer }),
  ];
  const insertEvent = events[3];
  let top: Row;
  let popular: Row;

  beforeAll(async () => {
    const pg = await system('postgres14', {
      openlineage_namespace: 'postgres://postgres:5432',
      openlineage_database: 'food_delivery',
    });
    const table = (t: string) => ({ object_name: `public.${t}`, schema_name: 'public', table_name: t });
    top = await registered(pg, 'rdbms', table('top_delivery_times'), [['order_placed_on', 'timestamp']]);
    // orders_placed registered as bigint: the event's int4 (integer) is narrower (drift, breaking).
    popular = await registered(pg, 'rdbms', table('popular_orders_day_of_week'), [
      ['order_day_of_week', 'varchar', { length: 64 }, true],
      ['order_placed_on', 'timestamp', undefined, true],
      ['orders_placed', 'bigint', undefined, true],
    ]);
  });

  it('lands each event, links the INSERT task input to its output', async () => {
    const answers: Json[] = [];
    for (const e of events) answers.push(ok(await post(e), 201));
    expect(answers.map((a) => [a.event_type, a.job.name, a.dataset_links.length])).toEqual(
      events.map((e) => [e['eventType'], e['job']['name'], e['inputs'].length * e['outputs'].length]),
    );
    expect(answers[3]?.['dataset_links']).toEqual([
      expect.objectContaining({
        source_dataset_id: top.id,
        target_dataset_id: popular.id,
        status: 'created',
      }),
    ]);
    expect(await activeLinks(top, popular)).toBe(1);
  });

  it('records two runs of two jobs with their states, durations and SQL', async () => {
    for (const [runId, start, end] of [
      [createRun, events[0], events[2]],
      [insertRun, events[1], events[3]],
    ] as [string, Json, Json][]) {
      const run = await runOf(runId);
      expect(run).toMatchObject({
        state: 'COMPLETED',
        started_at: start['eventTime'],
        ended_at: end['eventTime'],
        duration_ms: ms(start['eventTime'], end['eventTime']),
        job: { namespace: start['job']['namespace'], name: start['job']['name'] },
      });
      // Run facets sent with START only (airflow_version) are kept after the COMPLETE without any.
      expect(run.facets['airflow_version']).toEqual(start['run']['facets']['airflow_version']);
      const job = ok(await get(`lineage/jobs/${run.job.id}`));
      expect(job).toMatchObject({
        sql: end['job']['facets']['sql']['query'],
        description: start['job']['facets']['documentation']['description'],
        latest_run: { run_id: runId, state: 'COMPLETED' },
      });
    }
    const insert = ok(await get(`lineage/jobs/${(await runOf(insertRun)).job.id}`));
    expect(insert.inputs).toEqual([
      {
        namespace: 'postgres://postgres:5432',
        name: 'food_delivery.public.top_delivery_times',
        dataset_id: top.id,
      },
    ]);
    expect(insert.outputs).toEqual([
      {
        namespace: 'postgres://postgres:5432',
        name: 'food_delivery.public.popular_orders_day_of_week',
        dataset_id: popular.id,
      },
    ]);
  });

  it('maps the PostgreSQL type names of the schema facet: only orders_placed drifts (bigint → integer)', async () => {
    const observed = ok(await get(`datasets/${popular.id}/observed-schemas`));
    expect(observed[0].fields).toEqual(insertEvent['outputs'][0]['facets']['schema']['fields']);
    expect(observed[0]).toMatchObject({ drift: 'breaking', compared_version_num: 1 });
    expect(observed[0].changes.map((c: Json) => [c.category, c.name, c.compatibility])).toEqual([
      ['type_changed', 'orders_placed', 'breaking'],
    ]);
  });
});

describe('dbt (dbt-ol, catalog/small/result.json): a BigQuery model', () => {
  const events = fixture('dbt/catalog_small_result.json') as Json[];
  const [start, complete] = events as [Json, Json];
  let source: Row;
  let model: Row;

  beforeAll(async () => {
    const bq = await system('postgres14', { openlineage_namespace: 'bigquery' });
    const table = (t: string) => ({
      object_name: `dbt_test1.${t}`,
      catalog_name: 'speedy-vim-308516',
      schema_name: 'dbt_test1',
      table_name: t,
    });
    source = await registered(bq, 'rdbms', table('source_table'), [
      ['id', 'integer'],
      ['name', 'text'],
    ]);
    model = await registered(bq, 'rdbms', table('test_model'), [['id', 'integer']]);
  });

  it('links the model to its source from START on, and the COMPLETE confirms it', async () => {
    const first = ok(await post(start), 201);
    expect(first.dataset_links).toEqual([
      expect.objectContaining({
        source_dataset_id: source.id,
        target_dataset_id: model.id,
        status: 'created',
      }),
    ]);
    const second = ok(await post(complete), 201);
    expect(second.dataset_links).toEqual([expect.objectContaining({ status: 'confirmed' })]);
    // dbt sends `fields: []` when it does not know the columns and `type: null` when it does not know a
    // type: neither is a drift (no column removed, no type compared).
    expect(second.drift).toEqual([]);
  });

  it('records one completed run of the model with its duration and SQL', async () => {
    const run = await runOf(start['run']['runId']);
    expect(run).toMatchObject({
      state: 'COMPLETED',
      job: { namespace: start['job']['namespace'], name: start['job']['name'] },
      duration_ms: ms(start['eventTime'], complete['eventTime']),
      job_version: 1,
    });
    const job = ok(await get(`lineage/jobs/${run.job.id}`));
    expect(job.sql).toBe(complete['job']['facets']['sql']['query']);
    expect(job.inputs.map((d: Row) => d.dataset_id)).toEqual([source.id]);
    expect(job.outputs.map((d: Row) => d.dataset_id)).toEqual([model.id]);
  });
});

describe('Flink (openlineage-flink, expected_jdbc.json): JDBC tables named by their URL', () => {
  const event = filled(fixture('flink/expected_jdbc.json'), {
    runId: '5f0c6d1a-8b7e-4c3d-9e2f-0a1b2c3d4e5f',
    eventTime: '2024-03-01T12:00:00.000Z',
    producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.9.0/integration/flink',
  });
  let sourceEvent: Row;
  let sinkEvent: Row;

  beforeAll(async () => {
    // The server's namespace as the naming spec writes it; the database `postgres`, schema public.
    const pg = await system('postgres14', {
      openlineage_namespace: 'postgres://postgres:5432',
      openlineage_database: 'postgres',
    });
    const table = (t: string) => ({ object_name: `public.${t}`, schema_name: 'public', table_name: t });
    sourceEvent = await registered(pg, 'rdbms', table('source_event'), []);
    sinkEvent = await registered(pg, 'rdbms', table('sink_event'), []);
  });

  it('matches jdbc:postgresql://host:port/database names in the schema public of that database', async () => {
    const answer = ok(await post(event), 201);
    expect(answer.datasets.map((d: Json) => [d.name, d.status, d.dataset_id, d.matched_by])).toEqual([
      [
        'source_event',
        'matched',
        sourceEvent.id,
        'jdbc:postgres://postgres:5432/postgres.public.source_event',
      ],
      ['sink_event', 'matched', sinkEvent.id, 'jdbc:postgres://postgres:5432/postgres.public.sink_event'],
    ]);
    // Neither has a version: linked unpinned (ADR 0054).
    expect(answer.dataset_links).toEqual([expect.objectContaining({ status: 'created' })]);
    expect(await runOf(event['run']['runId'])).toMatchObject({
      state: 'RUNNING',
      started_at: event['eventTime'],
    });
  });
});

describe("Marquez's own test events", () => {
  const naming = fixture('marquez/event_namespace_naming.json') as Json;
  const simple = fixture('marquez/event_simple.json') as Json;
  const listener = fixture('marquez/listener_1.json') as Json;
  let blobSource: Row;
  let blobSink: Row;

  beforeAll(async () => {
    // One storage system per bucket: `s3://blob-source` and `s3://blob-sink`, the object key the name.
    const bucket = async (ns: string) =>
      registered(
        await system('storage_files', { openlineage_namespace: ns }),
        'storage',
        { object_name: unique('blob'), path: 'instance.schema.table', partition_by: [] },
        [['column1', 'utf8']],
      );
    blobSource = await bucket('s3://blob-source');
    blobSink = await bucket('s3://blob-sink');
  });

  it('event_namespace_naming: S3 buckets as namespaces, job facets, nominal time and parent', async () => {
    const answer = ok(await post(naming), 201);
    expect(answer.dataset_links).toEqual([
      expect.objectContaining({ source_dataset_id: blobSource.id, target_dataset_id: blobSink.id }),
    ]);
    expect(answer.drift).toEqual([]); // VARCHAR is utf8 in the files' flavor
    const run = await runOf(naming['run']['runId']);
    const facets = naming['run']['facets'];
    expect(run).toMatchObject({
      state: 'COMPLETED',
      ended_at: naming['eventTime'],
      nominal_start_time: facets['nominalTime']['nominalStartTime'],
      nominal_end_time: facets['nominalTime']['nominalEndTime'],
      parent: {
        run_id: facets['parent']['run']['runId'],
        job_namespace: facets['parent']['job']['namespace'],
        job_name: facets['parent']['job']['name'],
        id: null,
      },
    });
    const job = ok(await get(`lineage/jobs/${run.job.id}`));
    const { _producer, _schemaURL, ...location } = naming['job']['facets']['sourceCodeLocation'];
    expect(job.source_code_location).toMatchObject(location);
    expect(job).toMatchObject({
      namespace: naming['job']['namespace'],
      name: naming['job']['name'],
      sql: naming['job']['facets']['sql']['query'],
      description: naming['job']['facets']['documentation']['description'],
    });
  });

  it('event_simple: datasets nobody registered are listed, not dropped; the same job gets a second run', async () => {
    const answer = ok(await post(simple), 201);
    const named = [...simple['inputs'], ...simple['outputs']].map((d: Json) => d['name']).sort();
    expect(answer.unknown_datasets.map((d: Json) => d.name).sort()).toEqual(named);
    expect(answer.dataset_links).toEqual([]);
    const unknown = ok(await get('lineage/unknown-datasets?namespace=my-datasource-namespace&size=100'));
    expect(unknown.items.map((d: Row) => d.name).sort()).toEqual(named);
    const run = await runOf(simple['run']['runId']);
    expect(run.state).toBe('COMPLETED');
    const runs = ok(await get(`lineage/jobs/${run.job.id}/runs`));
    expect(runs.items.map((r: Row) => r.run_id).sort()).toEqual(
      [naming['run']['runId'], simple['run']['runId']].sort(),
    );
  });

  it('listener/1: a RUNNING event alone starts a run; its file datasets stay unknown', async () => {
    const answer = ok(await post(listener), 201);
    expect(answer.unknown_datasets).toHaveLength(3);
    expect(await runOf(listener['run']['runId'])).toMatchObject({
      state: 'RUNNING',
      started_at: new Date(listener['eventTime']).toISOString(),
      ended_at: null,
    });
  });
});
