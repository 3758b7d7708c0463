// What the OpenLineage intake observes beyond the registry (issue 27 §2, ADR 0054): datasets without a
// version linked all the same, zero-column versions, the datasets the registry did not know (kept,
// listed, registered in one call, their events replayed), and schema facets that drift from the
// registered version (classified by the crawler's classifier, never published).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, flavorByCode, type Row, seedReference } from '../../helpers/catalogue.js';
import { createSystem, ok, unique } from '../../helpers/factories.js';
import { publishVersion } from '../../helpers/lineage.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

const NS = `postgres://ol-observe-${randomUUID().slice(0, 8)}.example.com:5432`;
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/spark';
let ctx: TestContext;
let system: Row;

interface Dataset {
  id: string;
  versionId: string | null;
}

async function rdbms(name: string, columns: [string, string][] | null): Promise<Dataset> {
  const [schema, table] = name.split('.') as [string, string];
  const dataset = await createDataset(ctx, system.id, 'rdbms', {
    object_name: name,
    schema_name: schema,
    table_name: table,
    layer: null,
  });
  if (columns === null) return { id: dataset.id, versionId: null };
  return { id: dataset.id, versionId: (await publishVersion(ctx, dataset.id, columns)).schemaId };
}

type Fields = [string, string][];
interface Side {
  name: string;
  fields?: Fields;
  /** Output field → input fields (`namespace` NS). */
  lineage?: Record<string, { name: string; field: string }[]>;
}

function facetsOf(side: Side): Record<string, unknown> {
  return {
    ...(side.fields
      ? {
          schema: {
            _producer: PRODUCER,
            _schemaURL: 'x',
            fields: side.fields.map(([name, type]) => ({ name, type })),
          },
        }
      : {}),
    ...(side.lineage
      ? {
          columnLineage: {
            _producer: PRODUCER,
            _schemaURL: 'x',
            fields: Object.fromEntries(
              Object.entries(side.lineage).map(([out, ins]) => [
                out,
                { inputFields: ins.map((i) => ({ namespace: NS, name: i.name, field: i.field })) },
              ]),
            ),
          },
        }
      : {}),
  };
}

function runEvent(
  job: string,
  inputs: Side[],
  outputs: Side[],
  eventTime = '2026-12-07T10:00:00.000Z',
  runId: string = randomUUID(),
): Record<string, unknown> {
  return {
    eventType: 'COMPLETE',
    eventTime,
    producer: PRODUCER,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId },
    job: { namespace: 'spark', name: job },
    inputs: inputs.map((s) => ({ namespace: NS, name: s.name, facets: facetsOf(s) })),
    outputs: outputs.map((s) => ({ namespace: NS, name: s.name, facets: facetsOf(s) })),
  };
}

const post = (event: unknown) =>
  ctx.request('POST', `${API}/lineage/openlineage`, { token: ctx.userToken, body: event });
const get = (path: string) => ctx.request('GET', `${API}/${path}`, { token: ctx.userToken });
const postTo = (path: string, body: unknown) =>
  ctx.request('POST', `${API}/${path}`, { token: ctx.userToken, body });

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
    extra: { openlineage_namespace: NS },
  });
});
afterAll(async () => {
  await ctx.close();
});

describe('datasets without a schema', () => {
  it('links an input that has no version (unpinned), and pins it once the dataset has one', async () => {
    const bare = await rdbms('src.bare_in', null);
    const out = await rdbms('dw.bare_out', [['id', 'integer']]);
    const first = ok(
      await post(runEvent('bare_job', [{ name: 'src.bare_in' }], [{ name: 'dw.bare_out' }])),
      201,
    );
    expect(first.skipped).toEqual([]);
    expect(first.dataset_links).toEqual([
      expect.objectContaining({ source_dataset_id: bare.id, target_dataset_id: out.id, status: 'created' }),
    ]);
    const link = ok(await get(`dataset-links/${first.dataset_links[0].dataset_link_id}`));
    expect(link).toMatchObject({ source_schema_id: null, target_schema_id: out.versionId });

    // The dataset gets a version: the next event confirms the link and pins its source.
    const { schemaId } = await publishVersion(ctx, bare.id, [['id', 'integer']]);
    const next = ok(
      await post(runEvent('bare_job', [{ name: 'src.bare_in' }], [{ name: 'dw.bare_out' }])),
      201,
    );
    expect(next.dataset_links).toEqual([{ ...first.dataset_links[0], status: 'confirmed' }]);
    const pinned = ok(await get(`dataset-links/${link.id}`));
    expect(pinned).toMatchObject({ source_schema_id: schemaId, target_schema_id: out.versionId });
    expect(pinned.row_version).toBe(link.row_version + 1);
  });

  it('publishes a zero-column version (CREATE TABLE t ())', async () => {
    const empty = await rdbms('src.no_columns', null);
    const published = ok(
      await postTo(`datasets/${empty.id}/schema-versions`, { columns: [], note: 'CREATE TABLE t ()' }),
      201,
    );
    expect(published.version).toMatchObject({ version_num: 1, columns: [] });
    const history = ok(await get(`datasets/${empty.id}/schema-versions`));
    expect((history.items ?? history).map((v: Row) => v.version_num)).toEqual([1]);
  });
});

describe('datasets the registry does not know', () => {
  let target: Dataset;
  let target2: Dataset;
  const runA = randomUUID();
  const eventA = () =>
    runEvent(
      'orders_daily',
      [
        {
          name: 'unk.orders',
          fields: [
            ['id', 'integer'],
            ['amount', 'decimal(12,2)'],
          ],
        },
      ],
      [{ name: 'dw.orders_total', lineage: { total: [{ name: 'unk.orders', field: 'amount' }] } }],
      '2026-12-07T08:00:00.000Z',
      runA,
    );
  const eventB = () =>
    runEvent(
      'orders_by_customer',
      [
        {
          name: 'unk.orders',
          fields: [
            ['id', 'bigint'],
            ['customer', 'varchar'],
          ],
        },
      ],
      [{ name: 'dw.orders_by_customer' }],
      '2026-12-07T09:30:00.000Z',
    );

  beforeAll(async () => {
    target = await rdbms('dw.orders_total', [
      ['id', 'integer'],
      ['total', 'numeric'],
    ]);
    target2 = await rdbms('dw.orders_by_customer', [['customer', 'text']]);
  });

  it('keeps an unknown dataset seen by two events of two jobs: fields merged, first/last seen, jobs', async () => {
    const a = ok(await post(eventA()), 201);
    expect(a.unknown_datasets).toEqual([{ role: 'input', namespace: NS, name: 'unk.orders' }]);
    expect(a.dataset_links).toEqual([]);
    ok(await post(eventB()), 201);
    // A duplicate is not counted again.
    ok(await post(eventA()), 200);

    const page = ok(await get(`lineage/unknown-datasets?namespace=${encodeURIComponent(NS)}&name=unk.ord`));
    expect(page).toMatchObject({ total: 1, page: 1, pages: 1 });
    const [unknown] = page.items;
    expect(unknown).toMatchObject({
      namespace: NS,
      name: 'unk.orders',
      first_seen: '2026-12-07T08:00:00.000Z',
      last_seen: '2026-12-07T09:30:00.000Z',
      event_count: 2,
      registered_dataset_id: null,
    });
    // The union of the fields, the latest event's type for `id`.
    expect(unknown.fields).toEqual([
      { name: 'amount', type: 'decimal(12,2)' },
      { name: 'customer', type: 'varchar' },
      { name: 'id', type: 'bigint' },
    ]);
    expect(unknown.jobs.map((j: Row) => [j.namespace, j.name, j.role, j.event_count])).toEqual([
      ['spark', 'orders_by_customer', 'input', 1],
      ['spark', 'orders_daily', 'input', 1],
    ]);
    expect(ok(await get(`lineage/unknown-datasets/${unknown.id}`))).toEqual(unknown);
  });

  it('registers it in one call: the dataset, version 1 of the fields seen, both events replayed', async () => {
    const [unknown] = ok(await get(`lineage/unknown-datasets?name=unk.orders&registered=false`)).items;
    const body = ok(
      await postTo(`lineage/unknown-datasets/${unknown.id}/register`, { publish_schema: true }),
      201,
    );
    expect(body.dataset).toMatchObject({
      kind: 'rdbms',
      system_id: system.id,
      object_name: 'unk.orders',
      schema_name: 'unk',
      table_name: 'orders',
    });
    expect(body.schema_version_num).toBe(1);
    expect(body.unknown_dataset).toMatchObject({ id: unknown.id, registered_dataset_id: body.dataset.id });
    expect(body.replay.events).toHaveLength(2);
    const [ra, rb] = body.replay.events.map((e: Row) => e.result);
    expect(ra.unknown_datasets).toEqual([]);
    expect(ra.dataset_links).toEqual([
      expect.objectContaining({
        source_dataset_id: body.dataset.id,
        target_dataset_id: target.id,
        status: 'created',
      }),
    ]);
    expect(ra.field_links.map((f: Row) => [f.source_field, f.target_field, f.status])).toEqual([
      ['amount', 'total', 'created'],
    ]);
    expect(rb.dataset_links).toEqual([
      expect.objectContaining({
        source_dataset_id: body.dataset.id,
        target_dataset_id: target2.id,
        status: 'created',
      }),
    ]);
    expect(body.replay).toMatchObject({ dataset_links: 2, field_links: 1 });

    // The links are in the graph, and the stored answer is the replayed one.
    const graph = ok(await get(`lineage/datasets/${body.dataset.id}?direction=downstream&depth=1`));
    expect(graph.edges.map((e: Row) => e.target_id).sort()).toEqual([target.id, target2.id].sort());
    const again = ok(await post(eventA()), 200);
    expect(again).toMatchObject({ duplicate: true, dataset_links: ra.dataset_links });

    // Registered: out of the unregistered list, and refused a second time.
    expect(ok(await get(`lineage/unknown-datasets?name=unk.orders&registered=false`)).total).toBe(0);
    expectEnvelope(
      await postTo(`lineage/unknown-datasets/${unknown.id}/register`, {}),
      409,
      'UNKNOWN_DATASET_ALREADY_REGISTERED',
    );
  });

  it('replays again on demand, idempotently: links confirmed, nothing counted twice', async () => {
    const [unknown] = ok(await get(`lineage/unknown-datasets?name=unk.orders`)).items;
    const body = ok(await postTo('lineage/openlineage/replay', { unknown_dataset_id: unknown.id }));
    expect(body.events.flatMap((e: Row) => e.result.dataset_links.map((l: Row) => l.status))).toEqual([
      'confirmed',
      'confirmed',
    ]);
    expect(body.events[0].result.field_links.map((f: Row) => f.status)).toEqual(['confirmed']);
    const byRun = ok(await postTo('lineage/openlineage/replay', { run_id: runA }));
    expect(byRun.events.map((e: Row) => e.event_key)).toEqual([`run:${runA}:COMPLETE`]);
    expect(ok(await get(`lineage/unknown-datasets/${unknown.id}`)).event_count).toBe(2);
  });

  it('marks a dataset registered by other means on replay', async () => {
    const a = ok(
      await post(runEvent('crawl_later', [{ name: 'unk.crawled' }], [{ name: 'dw.orders_total' }])),
      201,
    );
    expect(a.unknown_datasets).toHaveLength(1);
    const [unknown] = ok(await get(`lineage/unknown-datasets?name=unk.crawled`)).items;
    const crawled = await rdbms('unk.crawled', [['id', 'integer']]);
    const body = ok(await postTo('lineage/openlineage/replay', { unknown_dataset_id: unknown.id }));
    expect(body.events[0].result.dataset_links).toEqual([
      expect.objectContaining({ source_dataset_id: crawled.id, status: 'created' }),
    ]);
    expect(ok(await get(`lineage/unknown-datasets/${unknown.id}`)).registered_dataset_id).toBe(crawled.id);
  });

  it('answers clear errors: an unknown id, a namespace no system answers to, a bad replay body', async () => {
    expectEnvelope(
      await postTo(`lineage/unknown-datasets/${randomUUID()}/register`, {}),
      404,
      'UNKNOWN_DATASET_NOT_FOUND',
    );
    expectEnvelope(await get(`lineage/unknown-datasets/${randomUUID()}`), 404, 'UNKNOWN_DATASET_NOT_FOUND');
    const event = runEvent('nowhere_job', [], [{ name: 'x.y' }]);
    const nowhere = `postgres://nowhere-${unique('h')}:5432`;
    (event.outputs as Row[])[0].namespace = nowhere;
    ok(await post(event), 201);
    const [unknown] = ok(
      await get(`lineage/unknown-datasets?namespace=${encodeURIComponent(nowhere)}`),
    ).items;
    expectEnvelope(
      await postTo(`lineage/unknown-datasets/${unknown.id}/register`, {}),
      422,
      'UNKNOWN_DATASET_SYSTEM_UNRESOLVED',
    );
    // Named explicitly, the system is used.
    const registered = ok(
      await postTo(`lineage/unknown-datasets/${unknown.id}/register`, { system_id: system.id }),
      201,
    );
    expect(registered.dataset).toMatchObject({ system_id: system.id, schema_name: 'x', table_name: 'y' });
    expect(registered.replay.events).toHaveLength(1);
    expectEnvelope(await postTo('lineage/openlineage/replay', {}), 422, 'VALIDATION_ERROR');
  });
});

describe('schemas that drift', () => {
  let drifting: Dataset;
  beforeAll(async () => {
    drifting = await rdbms('dw.customers', [
      ['id', 'integer'],
      ['name', 'text'],
      ['email', 'text'],
    ]);
  });

  const seen = (job: string, fields: Fields, eventTime = '2026-12-07T11:00:00.000Z') =>
    runEvent(job, [], [{ name: 'dw.customers', fields }], eventTime);

  it('reports a dropped column as breaking, a nullable addition as compatible, the same schema as none', async () => {
    const dropped = ok(
      await post(
        seen('drops_email', [
          ['id', 'int'],
          ['name', 'string'],
        ]),
      ),
      201,
    );
    expect(dropped.drift).toEqual([
      expect.objectContaining({
        dataset_id: drifting.id,
        compared_version_num: 1,
        class: 'breaking',
        type_comparison: 'types',
        changes: [
          expect.objectContaining({ category: 'column_removed', name: 'email', compatibility: 'breaking' }),
        ],
      }),
    ]);
    const added = ok(
      await post(
        seen('adds_phone', [
          ['id', 'int'],
          ['NAME', 'string'],
          ['email', 'string'],
          ['phone', 'string'],
        ]),
      ),
      201,
    );
    expect(added.drift).toEqual([
      expect.objectContaining({
        class: 'compatible',
        changes: [
          expect.objectContaining({ category: 'column_added', name: 'phone', compatibility: 'compatible' }),
        ],
      }),
    ]);
    const same = ok(
      await post(
        seen('same', [
          ['id', 'int'],
          ['name', 'string'],
          ['email', 'string'],
        ]),
      ),
      201,
    );
    expect(same.drift).toEqual([]);
    // Nothing was published.
    const versions = ok(await get(`datasets/${drifting.id}/schema-versions`));
    expect((versions.items ?? versions).map((v: Row) => v.version_num)).toEqual([1]);
  });

  it("lists each job's latest observed schema with its drift class", async () => {
    ok(
      await post(
        seen(
          'drops_email',
          [
            ['id', 'int'],
            ['name', 'string'],
            ['email', 'string'],
          ],
          '2026-12-07T12:00:00.000Z',
        ),
      ),
      201,
    );
    const observed = ok(await get(`datasets/${drifting.id}/observed-schemas`));
    expect(observed.map((o: Row) => [o.job.name, o.drift, o.compared_version_num])).toEqual([
      ['adds_phone', 'compatible', 1],
      ['drops_email', 'none', 1],
      ['same', 'none', 1],
    ]);
    expect(observed[0].fields).toEqual([
      { name: 'id', type: 'int' },
      { name: 'NAME', type: 'string' },
      { name: 'email', type: 'string' },
      { name: 'phone', type: 'string' },
    ]);
    expectEnvelope(await get(`datasets/${randomUUID()}/observed-schemas`), 404, 'DATASET_NOT_FOUND');
  });

  it('keeps one observation per run for a schema its events repeat, another when it changes', async () => {
    const runId = randomUUID();
    const fields: Fields = [
      ['id', 'int'],
      ['name', 'string'],
    ];
    const event = (eventType: string, eventTime: string, sent: Fields) => ({
      ...runEvent('one_run', [], [{ name: 'dw.customers', fields: sent }], eventTime, runId),
      eventType,
    });
    const start = ok(await post(event('START', '2026-12-07T09:00:00.000Z', fields)), 201);
    const progress = ok(await post(event('RUNNING', '2026-12-07T09:01:00.000Z', fields)), 201);
    // Each answer says the drift; the run's second sight of the same schema is not stored again.
    expect(progress.drift).toEqual(start.drift);
    expect(start.drift).toEqual([expect.objectContaining({ class: 'breaking' })]);
    const rows = async () =>
      (
        await ctx.dataSource.query(
          `SELECT fields FROM lineage_observed_schemas WHERE run_id = $1 ORDER BY observed_at`,
          [runId],
        )
      ).map((r: Row) => r.fields.map((f: Row) => f.name).join(','));
    expect(await rows()).toEqual(['id,name']);
    // Another schema, then the first one again: each differs from the run's latest observation.
    ok(await post(event('RUNNING', '2026-12-07T09:02:00.000Z', [...fields, ['email', 'string']])), 201);
    ok(await post(event('COMPLETE', '2026-12-07T09:05:00.000Z', fields)), 201);
    expect(await rows()).toEqual(['id,name', 'id,name,email', 'id,name']);
    // The job's latest observation is the COMPLETE's.
    const observed = ok(await get(`datasets/${drifting.id}/observed-schemas`));
    expect(observed.find((o: Row) => o.job?.name === 'one_run')).toMatchObject({
      run_id: runId,
      observed_at: '2026-12-07T09:05:00.000Z',
    });
  });
});
