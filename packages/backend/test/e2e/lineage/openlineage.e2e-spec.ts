// OpenLineage intake (ADR 0022): POST /lineage/openlineage takes RunEvents as the Airflow, Spark and dbt
// integrations send them (OpenLineage spec 2-0-2, facets of their own included), matches their datasets
// by namespace + name (docs/openlineage.md), creates or confirms dataset links, turns columnLineage
// facets into field links, reports what it cannot match or link, and applies each run id + event type once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, flavorByCode, type Row, seedReference } from '../../helpers/catalogue.js';
import { createSystem, ok, unique } from '../../helpers/factories.js';
import { publishVersion } from '../../helpers/lineage.js';
import { waitFor } from '../../helpers/backend-process.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
const PG = 'postgres://db.example.com:5432';
const HMS = 'hive://metastore.example.com:9083';
const BUCKET = 's3://lake-bucket';
let shop: Row;
let lake: Row;
let orders: { dataset: Row; fields: Map<string, string> };
let daily: { dataset: Row; fields: Map<string, string> };
let rawOrders: { dataset: Row; fields: Map<string, string> };

const FACET = (name: string) => ({
  _producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/airflow',
  _schemaURL: `https://openlineage.io/spec/facets/1-1-0/${name}.json#/$defs/${name}`,
});

async function rdbms(
  system: Row,
  schema: string,
  table: string,
  layer: string,
  columns: [string, string, Record<string, unknown>?][],
) {
  const dataset = await createDataset(ctx, system.id, 'rdbms', {
    object_name: `${schema}.${table}`,
    schema_name: schema,
    table_name: table,
    layer,
  });
  const { fields } = await publishVersion(ctx, dataset.id, columns);
  return { dataset, fields };
}

const post = (event: unknown) =>
  ctx.request('POST', `${API}/lineage/openlineage`, { token: ctx.userToken, body: event });

/** An Airflow SQL task's event (apache-airflow-providers-openlineage), with its own run and job facets. */
function airflowEvent(eventType: string, runId: string, withColumns: boolean) {
  const ordersDs = {
    namespace: PG,
    name: 'shop.public.orders',
    facets: {
      schema: {
        ...FACET('SchemaDatasetFacet'),
        fields: [
          { name: 'id', type: 'integer' },
          { name: 'amount', type: 'numeric(12,2)', description: 'order total' },
          { name: 'customer', type: 'text' },
        ],
      },
      dataSource: { ...FACET('DatasourceDatasetFacet'), name: PG, uri: `${PG}/shop` },
    },
    inputFacets: {},
  };
  const dailyDs = {
    namespace: PG,
    name: 'shop.analytics.orders_daily',
    facets: {
      schema: { ...FACET('SchemaDatasetFacet'), fields: [{ name: 'order_id' }, { name: 'amount' }] },
      ...(withColumns
        ? {
            columnLineage: {
              ...FACET('ColumnLineageDatasetFacet'),
              fields: {
                order_id: {
                  inputFields: [
                    {
                      namespace: PG,
                      name: 'shop.public.orders',
                      field: 'id',
                      transformations: [
                        { type: 'DIRECT', subtype: 'IDENTITY', description: '', masking: false },
                      ],
                    },
                  ],
                },
                amount: {
                  inputFields: [{ namespace: PG, name: 'shop.public.orders', field: 'amount' }],
                  transformationDescription: '',
                  transformationType: 'IDENTITY',
                },
              },
            },
          }
        : {}),
    },
    outputFacets: { outputStatistics: { ...FACET('OutputStatisticsOutputDatasetFacet'), rowCount: 42 } },
  };
  return {
    eventType,
    eventTime: '2026-12-03T04:00:00.123456+00:00',
    producer: 'https://github.com/apache/airflow/tree/providers-openlineage/1.14.0',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: {
      runId,
      facets: {
        airflow: { _producer: 'x', _schemaURL: 'y', dag: { dag_id: 'orders' }, task: { task_id: 'daily' } },
        parent: {
          ...FACET('ParentRunFacet'),
          run: { runId: randomUUID() },
          job: { namespace: 'airflow-prod', name: 'orders' },
        },
        processing_engine: { ...FACET('ProcessingEngineRunFacet'), version: '2.10.3', name: 'Airflow' },
      },
    },
    job: {
      namespace: 'airflow-prod',
      name: 'orders.daily',
      facets: {
        jobType: {
          ...FACET('JobTypeJobFacet'),
          processingType: 'BATCH',
          integration: 'AIRFLOW',
          jobType: 'TASK',
        },
        sql: {
          ...FACET('SQLJobFacet'),
          query: 'INSERT INTO analytics.orders_daily SELECT id, amount FROM orders',
        },
      },
    },
    inputs: [ordersDs],
    outputs: [dailyDs],
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  shop = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
    extra: { openlineage_namespace: 'postgresql://DB.example.com:5432/', openlineage_database: 'shop' },
  });
  lake = await createSystem(ctx, (await flavorByCode(ctx, 'iceberg_v2')).id, {
    extra: { openlineage_namespaces: [HMS, BUCKET] },
  });
  orders = await rdbms(shop, 'public', 'orders', 'source', [
    ['id', 'integer'],
    ['amount', 'numeric', { precision: 12, scale: 2 }],
    ['customer', 'text'],
  ]);
  daily = await rdbms(shop, 'analytics', 'orders_daily', 'raw', [
    ['order_id', 'integer'],
    ['amount', 'numeric', { precision: 12, scale: 2 }],
  ]);
  const hive = await createDataset(ctx, lake.id, 'hive', {
    object_name: 'raw.orders',
    db_name: 'raw',
    table_name: 'orders',
    location: `${BUCKET}/warehouse/raw.db/orders`,
    layer: 'raw',
  });
  rawOrders = {
    dataset: hive,
    ...(await publishVersion(ctx, hive.id, [
      ['id', 'int'],
      ['customer', 'string'],
    ])),
  };
});
afterAll(async () => {
  await ctx.close();
});

describe('OpenLineage intake: Airflow', () => {
  it('START creates the dataset link; COMPLETE confirms it and adds the column lineage; repeats are answered once', async () => {
    const runId = randomUUID();
    const start = await post(airflowEvent('START', runId, false));
    expect(start.status).toBe(201);
    const started = start.body;
    expect(started).toMatchObject({
      run_id: runId,
      event_type: 'START',
      job: { namespace: 'airflow-prod', name: 'orders.daily' },
      duplicate: false,
      applied: true,
      unknown_datasets: [],
      skipped: [],
      field_links: [],
    });
    expect(started.datasets).toEqual([
      expect.objectContaining({
        role: 'input',
        status: 'matched',
        dataset_id: orders.dataset.id,
        matched_by: 'name',
      }),
      expect.objectContaining({ role: 'output', status: 'matched', dataset_id: daily.dataset.id }),
    ]);
    expect(started.dataset_links).toEqual([
      expect.objectContaining({
        source_dataset_id: orders.dataset.id,
        target_dataset_id: daily.dataset.id,
        status: 'created',
      }),
    ]);
    const linkId = started.dataset_links[0].dataset_link_id;
    const link = ok(await ctx.request('GET', `${API}/dataset-links/${linkId}`, { token: ctx.userToken }));
    expect(link.note).toBe('OpenLineage: airflow-prod orders.daily');

    const complete = await post(airflowEvent('COMPLETE', runId, true));
    expect(complete.status).toBe(201);
    expect(complete.body.dataset_links).toEqual([
      expect.objectContaining({ dataset_link_id: linkId, status: 'confirmed' }),
    ]);
    expect(complete.body.field_links).toEqual([
      expect.objectContaining({
        dataset_link_id: linkId,
        source_field: 'id',
        target_field: 'order_id',
        status: 'created',
      }),
      expect.objectContaining({ source_field: 'amount', target_field: 'amount', status: 'created' }),
    ]);
    // Facet 1-2-0 transformations as sent; the older field-level `transformationType` read as DIRECT.
    expect(complete.body.field_links.map((f: Row) => f.transformations)).toEqual([
      [{ type: 'DIRECT', subtype: 'IDENTITY', description: null, masking: false }],
      [{ type: 'DIRECT', subtype: 'IDENTITY', description: null, masking: null }],
    ]);
    const fieldLinks = ok(
      await ctx.request('GET', `${API}/dataset-links/${linkId}/field-links`, { token: ctx.userToken }),
    );
    expect(fieldLinks.map((f: Row) => f.target_field_id).sort()).toEqual(
      [daily.fields.get('order_id'), daily.fields.get('amount')].sort(),
    );

    // The same run id and event type again: the first answer, nothing applied twice.
    const again = await post(airflowEvent('COMPLETE', runId, true));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...complete.body, duplicate: true });
    // A new run of the same job confirms what exists.
    const next = ok(await post(airflowEvent('COMPLETE', randomUUID(), true)), 201);
    expect(next.field_links.map((f: Row) => f.status)).toEqual(['confirmed', 'confirmed']);
    expect(next.dataset_links[0].status).toBe('confirmed');
    const [{ n }] = await ctx.dataSource.query(
      'SELECT count(*)::int AS n FROM dataset_links WHERE source_dataset_id = $1 AND target_dataset_id = $2',
      [orders.dataset.id, daily.dataset.id],
    );
    expect(n).toBe(1);
  });

  it('applies one of two identical events sent at once; the other gets the same answer', async () => {
    const event = airflowEvent('COMPLETE', randomUUID(), true);
    const [a, b] = await Promise.all([post(event), post(event)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    const [first, second] = a.status === 201 ? [a.body, b.body] : [b.body, a.body];
    expect(second).toEqual({ ...first, duplicate: true });
  });

  it('rolls back a twin applied while the first one committed, and answers it with the first answer', async () => {
    // The job exists (an earlier run). Its row is held here, so that both twins pass their first
    // statement (nothing stored yet) and then wait; released, one commits and the other finds its row.
    ok(await post(airflowEvent('COMPLETE', randomUUID(), true)), 201);
    const runId = randomUUID();
    const event = airflowEvent('COMPLETE', runId, true);
    const holder = ctx.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query('SELECT 1 FROM lineage_jobs WHERE namespace = $1 AND name = $2 FOR UPDATE', [
        event.job.namespace,
        event.job.name,
      ]);
      const twins = Promise.all([post(event), post(event)]);
      // One waits on the job row, the other on the first one's rows (an observation of the same key).
      await waitFor('both twins waiting on a lock', async () => {
        const [{ n }] = await ctx.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return n >= 2 ? true : undefined;
      });
      await holder.commitTransaction();
      const [a, b] = await twins;
      expect([a.status, b.status].sort()).toEqual([200, 201]);
      const [first, second] = a.status === 201 ? [a.body, b.body] : [b.body, a.body];
      expect(second).toEqual({ ...first, duplicate: true });
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    // Applied once: one event row, one raw event of the run, the run COMPLETED.
    const [{ events, raw, state }] = await ctx.dataSource.query(
      `SELECT (SELECT count(*)::int FROM openlineage_events WHERE run_id = $1) AS events,
              (SELECT count(*)::int FROM lineage_run_events e JOIN lineage_runs r ON r.id = e.lineage_run_id
               WHERE r.run_id = $1) AS raw,
              (SELECT state FROM lineage_runs WHERE run_id = $1) AS state`,
      [runId],
    );
    expect({ events, raw, state }).toEqual({ events: 1, raw: 1, state: 'COMPLETED' });
  });

  it('records FAIL events (and ABORT) without writing links', async () => {
    const event = airflowEvent('FAIL', randomUUID(), true);
    event.outputs[0].name = 'shop.public.orders'; // would be a self link if applied
    event.inputs[0].name = 'shop.analytics.orders_daily';
    const failed = ok(await post(event), 201);
    expect(failed).toMatchObject({ event_type: 'FAIL', applied: false, dataset_links: [], field_links: [] });
    // The column lineage names shop.public.orders, which the inputs no longer list: an input too.
    expect(failed.datasets.map((d: Row) => [d.role, d.name, d.status])).toEqual([
      ['input', 'shop.analytics.orders_daily', 'matched'],
      ['output', 'shop.public.orders', 'matched'],
      ['input', 'shop.public.orders', 'matched'],
    ]);
    const [{ n }] = await ctx.dataSource.query(
      'SELECT count(*)::int AS n FROM dataset_links WHERE source_dataset_id = $1',
      [daily.dataset.id],
    );
    expect(n).toBe(0);
  });
});

describe('OpenLineage intake: Spark', () => {
  it('matches a table written as files through its location or its symlink, with Spark facets of its own', async () => {
    const runId = randomUUID();
    const event = {
      eventTime: '2026-12-03T04:01:02.345Z',
      producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/spark',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      eventType: 'COMPLETE',
      run: {
        runId,
        facets: {
          spark_version: { _producer: 'p', _schemaURL: 's', 'spark-version': '3.5.1' },
          processing_engine: { _producer: 'p', _schemaURL: 's', version: '3.5.1', name: 'spark' },
          'spark.logicalPlan': {
            _producer: 'p',
            _schemaURL: 's',
            plan: [{ class: 'InsertIntoHadoopFsRelationCommand' }],
          },
        },
      },
      job: {
        namespace: 'spark-prod',
        name: 'orders_to_lake.execute_insert_into_hadoop_fs_relation_command.warehouse_raw.db_orders',
        facets: {
          jobType: {
            _producer: 'p',
            _schemaURL: 's',
            processingType: 'BATCH',
            integration: 'SPARK',
            jobType: 'JOB',
          },
        },
      },
      inputs: [
        {
          namespace: PG,
          name: 'shop.public.orders',
          facets: {
            dataSource: { _producer: 'p', _schemaURL: 's', name: PG, uri: PG },
            schema: {
              _producer: 'p',
              _schemaURL: 's',
              fields: [
                { name: 'id', type: 'integer' },
                { name: 'customer', type: 'string' },
              ],
            },
          },
          inputFacets: {},
        },
      ],
      outputs: [
        {
          namespace: BUCKET,
          name: 'warehouse/raw.db/orders',
          facets: {
            dataSource: { _producer: 'p', _schemaURL: 's', name: BUCKET, uri: BUCKET },
            schema: {
              _producer: 'p',
              _schemaURL: 's',
              fields: [
                { name: 'id', type: 'integer' },
                { name: 'customer', type: 'string' },
                { name: 'tags', type: 'struct', fields: [{ name: 'a', type: 'string' }] },
              ],
            },
            storage: { _producer: 'p', _schemaURL: 's', storageLayer: 'iceberg', fileFormat: 'parquet' },
            symlinks: {
              _producer: 'p',
              _schemaURL: 's',
              identifiers: [{ namespace: HMS, name: 'raw.orders', type: 'TABLE' }],
            },
            lifecycleStateChange: { _producer: 'p', _schemaURL: 's', lifecycleStateChange: 'OVERWRITE' },
            columnLineage: {
              _producer: 'p',
              _schemaURL: 's',
              fields: {
                id: {
                  inputFields: [
                    {
                      namespace: PG,
                      name: 'shop.public.orders',
                      field: 'id',
                      transformations: [
                        { type: 'DIRECT', subtype: 'IDENTITY', description: '', masking: false },
                      ],
                    },
                  ],
                },
                customer: {
                  inputFields: [
                    { namespace: PG, name: 'shop.public.orders', field: 'customer', transformations: [] },
                  ],
                },
              },
              dataset: [
                {
                  namespace: PG,
                  name: 'shop.public.orders',
                  field: 'customer',
                  transformations: [{ type: 'INDIRECT', subtype: 'FILTER' }],
                },
              ],
            },
          },
          outputFacets: {
            outputStatistics: { _producer: 'p', _schemaURL: 's', rowCount: 10, size: 2048, fileCount: 1 },
          },
        },
      ],
    };
    const body = ok(await post(event), 201);
    expect(body.datasets[1]).toMatchObject({
      role: 'output',
      status: 'matched',
      dataset_id: rawOrders.dataset.id,
      // The schema facet has a column the registered version lacks: the registry is behind.
      schema_fields_unknown: ['tags'],
    });
    expect(body.datasets[0]).toMatchObject({ dataset_id: orders.dataset.id, schema_fields_unknown: [] });
    expect(body.dataset_links).toEqual([
      expect.objectContaining({
        source_dataset_id: orders.dataset.id,
        target_dataset_id: rawOrders.dataset.id,
        status: 'created',
      }),
    ]);
    expect(body.field_links.map((f: Row) => [f.source_field, f.target_field, f.status])).toEqual([
      ['id', 'id', 'created'],
      ['customer', 'customer', 'created'],
    ]);
    // The facet's dataset-level input (1-2-0 `dataset`) is reported, not stored as a field link.
    expect(body.dataset_field_inputs).toEqual([
      {
        source: { namespace: PG, name: 'shop.public.orders', field: 'customer' },
        target: { namespace: BUCKET, name: 'warehouse/raw.db/orders' },
        transformations: [{ type: 'INDIRECT', subtype: 'FILTER', description: null, masking: null }],
      },
    ]);
    // Without the location, the symlink finds the table.
    const viaSymlink = structuredClone(event);
    viaSymlink.run.runId = randomUUID();
    viaSymlink.outputs[0].name = 'elsewhere/orders';
    const linked = ok(await post(viaSymlink), 201);
    expect(linked.datasets[1]).toMatchObject({
      status: 'matched',
      dataset_id: rawOrders.dataset.id,
      matched_by: `symlink:${HMS}/raw.orders`,
    });
    expect(linked.dataset_links[0].status).toBe('confirmed');
    // Hadoop's s3a:// scheme for the same bucket: the same location.
    const viaS3a = structuredClone(event);
    viaS3a.run.runId = randomUUID();
    viaS3a.outputs[0].namespace = 's3a://lake-bucket/';
    delete (viaS3a.outputs[0].facets as Record<string, unknown>)['symlinks'];
    const s3a = ok(await post(viaS3a), 201);
    expect(s3a.datasets[1]).toMatchObject({
      status: 'matched',
      dataset_id: rawOrders.dataset.id,
      matched_by: 'name',
    });
  });
});

describe('OpenLineage intake: dbt', () => {
  it('reports datasets it does not know instead of dropping them, and links what it knows', async () => {
    const event = {
      eventType: 'COMPLETE',
      eventTime: '2026-12-03T04:05:00.000000+00:00',
      producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: {
        runId: randomUUID(),
        facets: {
          parent: {
            _producer: 'p',
            _schemaURL: 's',
            run: { runId: randomUUID() },
            job: { namespace: 'dbt', name: 'dbt-run-shop' },
          },
          dbt_version: { _producer: 'p', _schemaURL: 's', version: '1.8.0' },
          dbt_run: { _producer: 'p', _schemaURL: 's', invocation_id: randomUUID() },
        },
      },
      job: {
        namespace: 'dbt',
        name: 'shop.analytics.customer_totals',
        facets: {
          sql: {
            _producer: 'p',
            _schemaURL: 's',
            query: 'select customer, sum(amount) from orders group by 1',
          },
        },
      },
      inputs: [
        {
          namespace: PG,
          name: 'shop.public.orders',
          facets: { dataSource: { _producer: 'p', _schemaURL: 's', name: PG, uri: PG } },
        },
        { namespace: 'snowflake://myorg-account1', name: 'ANALYTICS.PUBLIC.FX_RATES', facets: {} },
      ],
      outputs: [
        {
          namespace: PG,
          name: 'shop.analytics.customer_totals',
          facets: {
            schema: {
              _producer: 'p',
              _schemaURL: 's',
              fields: [
                { name: 'customer', type: 'text' },
                { name: 'total', type: 'numeric' },
              ],
            },
            dataQualityAssertions: {
              _producer: 'p',
              _schemaURL: 's',
              assertions: [{ assertion: 'not_null', success: true, column: 'customer' }],
            },
          },
        },
      ],
    };
    const body = ok(await post(event), 201);
    expect(body.unknown_datasets).toEqual([
      { role: 'input', namespace: 'snowflake://myorg-account1', name: 'ANALYTICS.PUBLIC.FX_RATES' },
      { role: 'output', namespace: PG, name: 'shop.analytics.customer_totals' },
    ]);
    expect(body.dataset_links).toEqual([]);
    // Each unknown dataset is reported once (above), not once per pair it would be part of (issue 22).
    expect(body.skipped).toEqual([]);
  });
});

describe('OpenLineage intake: the field-link rules and what cannot be linked', () => {
  it('skips column lineage the original refuses, and links without versions, with their reasons', async () => {
    const src = await rdbms(shop, 'public', unique('src'), 'source', [
      ['a', 'integer'],
      ['b', 'integer'],
    ]);
    const tgt = await rdbms(shop, 'analytics', unique('tgt'), 'raw', [
      ['x', 'integer'],
      ['y', 'integer'],
      ['t', 'integer'],
    ]);
    ok(
      await ctx.request('PATCH', `${API}/fields/${tgt.fields.get('t')}`, {
        token: ctx.userToken,
        body: { origin: 'tech', row_version: 1 },
      }),
    );
    const bare = await createDataset(ctx, shop.id, 'rdbms', {
      object_name: 'analytics.bare',
      schema_name: 'analytics',
      table_name: 'bare',
    });
    const input = (table: string) => ({ namespace: PG, name: `shop.public.${table}` });
    const event = {
      eventType: 'COMPLETE',
      eventTime: '2026-12-03T04:10:00', // no offset, as Python's isoformat() writes it
      producer: 'https://example.com/custom-emitter',
      run: { runId: randomUUID() },
      job: { namespace: 'custom', name: 'rules' },
      inputs: [input(src.dataset.object_name.split('.')[1])],
      outputs: [
        {
          namespace: PG,
          name: `shop.${tgt.dataset.object_name}`,
          facets: {
            columnLineage: {
              fields: {
                x: {
                  inputFields: [
                    { ...input(src.dataset.object_name.split('.')[1]), field: 'a' },
                    { ...input(src.dataset.object_name.split('.')[1]), field: 'b' },
                  ],
                },
                y: { inputFields: [{ ...input(src.dataset.object_name.split('.')[1]), field: 'missing' }] },
                t: { inputFields: [{ ...input(src.dataset.object_name.split('.')[1]), field: 'a' }] },
              },
            },
          },
        },
        { namespace: PG, name: 'shop.analytics.bare' },
        { ...input(src.dataset.object_name.split('.')[1]) },
      ],
    };
    const body = ok(await post(event), 201);
    expect(body.datasets.find((d: Row) => d.name === 'shop.analytics.bare')).toMatchObject({
      status: 'matched',
      dataset_id: bare.id,
    });
    // A dataset without a version is linked all the same, unpinned (ADR 0054; once NO_SCHEMA_VERSION).
    expect(body.dataset_links.map((l: Row) => l.target_dataset_id)).toEqual([tgt.dataset.id, bare.id]);
    // Both inputs of x are kept: a target may have several sources (ADR 0052; once one per target).
    expect(body.field_links.map((f: Row) => [f.source_field, f.target_field])).toEqual([
      ['a', 'x'],
      ['b', 'x'],
    ]);
    expect(body.skipped.map((s: Row) => [s.kind, s.reason])).toEqual([
      ['dataset_link', 'SELF_LINK'],
      ['field_link', 'FIELD_NOT_FOUND'],
      ['field_link', 'FIELD_ORIGIN_CONFLICT'],
    ]);
  });

  it('answers a name two systems share as ambiguous, naming the candidates', async () => {
    const ns = `postgres://shared-${unique('h')}:5432`;
    const a = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
      extra: { openlineage_namespace: ns },
    });
    const b = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
      extra: { openlineage_namespace: ns },
    });
    const da = await rdbms(a, 'public', 'same', 'source', [['id', 'integer']]);
    const db = await rdbms(b, 'public', 'same', 'source', [['id', 'integer']]);
    const body = ok(
      await post({
        eventType: 'START',
        eventTime: '2026-12-03T04:11:00Z',
        producer: 'https://example.com/p',
        run: { runId: randomUUID() },
        job: { namespace: 'j', name: 'j' },
        inputs: [{ namespace: ns, name: 'db.public.same' }],
        outputs: [],
      }),
      201,
    );
    expect(body.datasets[0]).toMatchObject({
      status: 'ambiguous',
      dataset_id: null,
      candidates: [da.dataset.id, db.dataset.id].sort(),
    });
  });
});

describe('OpenLineage intake: malformed events', () => {
  const valid = () => airflowEvent('START', randomUUID(), false) as Record<string, unknown>;
  it.each([
    ['no run', (e: Record<string, unknown>) => delete e['run'], ['run']],
    [
      'a run id that is not a UUID',
      (e: Record<string, unknown>) => ((e['run'] as Row).runId = 'run-1'),
      ['run', 'runId'],
    ],
    ['an unknown event type', (e: Record<string, unknown>) => (e['eventType'] = 'DONE'), ['eventType']],
    [
      'an event time that is not a date-time',
      (e: Record<string, unknown>) => (e['eventTime'] = 'yesterday'),
      ['eventTime'],
    ],
    ['no producer', (e: Record<string, unknown>) => delete e['producer'], ['producer']],
    ['a job without a name', (e: Record<string, unknown>) => delete (e['job'] as Row).name, ['job', 'name']],
    ['inputs that are not a list', (e: Record<string, unknown>) => (e['inputs'] = { a: 1 }), ['inputs']],
    [
      'a dataset without a namespace',
      (e: Record<string, unknown>) => delete (e['outputs'] as Row[])[0].namespace,
      ['outputs', '0', 'namespace'],
    ],
    [
      'column lineage without inputFields',
      (e: Record<string, unknown>) =>
        ((e['outputs'] as Row[])[0].facets.columnLineage = { fields: { a: { inputs: [] } } }),
      ['outputs', '0', 'facets', 'columnLineage', 'fields', 'a', 'inputFields'],
    ],
  ])('refuses %s with 422 and the path', async (_label, spoil, path) => {
    const event = valid();
    spoil(event);
    const r = await post(event);
    const envelope = expectEnvelope(r, 422, 'VALIDATION_ERROR');
    expect(envelope.details.issues.map((i: Row) => i.path)).toContainEqual(path);
  });

  it('refuses a body that is not an object, and writes nothing for a refused event', async () => {
    expectEnvelope(await post([1, 2]), 422, 'VALIDATION_ERROR');
    const [{ n }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM openlineage_events WHERE job_name = 'never'`,
    );
    expect(n).toBe(0);
  });
});
