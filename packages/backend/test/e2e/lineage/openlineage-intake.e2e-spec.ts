// OpenLineage intake reached as integrations reach it (issue 27 §1, ADR 0051): the HTTP transport's
// default endpoint POST /api/v1/lineage next to POST /api/v1/lineage/openlineage, an API key sent as
// `Authorization: Bearer`, gzip bodies (the body limit applying to the decoded size), JobEvents and
// DatasetEvents (spec 2-0-2) next to RunEvents, and what each event type does.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, flavorByCode, type Row, seedReference } from '../../helpers/catalogue.js';
import { createSystem, ok, unique } from '../../helpers/factories.js';
import { publishVersion } from '../../helpers/lineage.js';
import { createWorkspace } from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

const NS = 'postgres://ol-intake.example.com:5432';
const SPEC = 'https://openlineage.io/spec/2-0-2/OpenLineage.json';
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/spark';
let ctx: TestContext;
let system: Row;

interface Table {
  dataset: Row;
  fields: Map<string, string>;
}

/** A registered table `<schema>.<table>` of the test system with a published version of the columns. */
async function table(name: string, columns: [string, string][]): Promise<Table> {
  const [schema, tableName] = name.split('.') as [string, string];
  const dataset = await createDataset(ctx, system.id, 'rdbms', {
    object_name: name,
    schema_name: schema,
    table_name: tableName,
    layer: schema === 'src' ? 'source' : 'raw',
  });
  return { dataset, ...(await publishVersion(ctx, dataset.id, columns)) };
}

const post = (path: string, event: unknown, headers: Record<string, string> = {}) =>
  ctx.request('POST', `${API}/${path}`, { token: ctx.userToken, body: event, headers });

function runEvent(
  eventType: string | undefined,
  inputs: string[],
  outputs: string[],
  runId: string = randomUUID(),
): Record<string, unknown> {
  return {
    ...(eventType === undefined ? {} : { eventType }),
    eventTime: '2026-12-07T10:00:00.000Z',
    producer: PRODUCER,
    schemaURL: `${SPEC}#/$defs/RunEvent`,
    run: { runId },
    job: { namespace: 'spark', name: 'intake_job' },
    inputs: inputs.map((name) => ({ namespace: NS, name })),
    outputs: outputs.map((name) => ({ namespace: NS, name })),
  };
}

/** The links of a pair of datasets, active or not. */
const linksBetween = async (source: Table, target: Table): Promise<Row[]> =>
  ctx.dataSource.query(
    'SELECT id, deleted_at FROM dataset_links WHERE source_dataset_id = $1 AND target_dataset_id = $2',
    [source.dataset.id, target.dataset.id],
  );

const storedEvents = (where: string, params: unknown[]): Promise<Row[]> =>
  ctx.dataSource.query(
    `SELECT event_key, kind, run_id, event_type, job_name, dataset_namespace, dataset_name
     FROM openlineage_events WHERE ${where} ORDER BY received_at`,
    params,
  );

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

describe('the default endpoint and API keys', () => {
  let src: Table;
  let dst: Table;
  beforeAll(async () => {
    src = await table('src.paths_in', [['id', 'integer']]);
    dst = await table('dw.paths_out', [['id', 'integer']]);
  });

  it('serves the same intake at /lineage and /lineage/openlineage: one store, the same answers', async () => {
    const event = runEvent('COMPLETE', ['src.paths_in'], ['dw.paths_out']);
    const first = ok(await post('lineage/openlineage', event), 201);
    expect(first).toMatchObject({
      event_kind: 'run',
      outcome: 'linked',
      applied: true,
      reason: null,
      dataset: null,
      dataset_links: [{ status: 'created' }],
    });
    // The same event at the other path is the same event: the first answer, nothing done again.
    const again = ok(await post('lineage', event), 200);
    expect(again).toEqual({ ...first, duplicate: true });
    // A new run at the default endpoint confirms the link the first created.
    const next = ok(await post('lineage', runEvent('COMPLETE', ['src.paths_in'], ['dw.paths_out'])), 201);
    expect(next.dataset_links).toEqual([{ ...first.dataset_links[0], status: 'confirmed' }]);
    expect(next.datasets).toEqual(first.datasets);
    expect(await linksBetween(src, dst)).toHaveLength(1);
  });

  it("takes an API key as `Authorization: Bearer` (the transport's api_key auth) and as X-API-Key, with catalogue:write", async () => {
    const workspace = await createWorkspace(ctx);
    const newKey = async (scopes: string[]) =>
      ok(
        await ctx.request('POST', `${API}/api-keys`, {
          token: ctx.userToken,
          body: { name: unique('ol-key'), workspace_ids: [workspace.id], scopes },
        }),
        201,
      ) as { key: string };
    const writer = await newKey(['catalogue:write']);
    const event = runEvent('START', ['src.paths_in'], ['dw.paths_out']);
    const bearer = await ctx.request('POST', `${API}/lineage`, { token: writer.key, body: event });
    expect(bearer.status).toBe(201);
    expect((bearer.body as Row).dataset_links).toEqual([expect.objectContaining({ status: 'confirmed' })]);
    const [stored] = await ctx.dataSource.query(
      'SELECT received_by FROM openlineage_events WHERE event_key = $1',
      [`run:${(event['run'] as Row).runId}:START`],
    );
    const me = ok(await ctx.request('GET', `${API}/users/me`, { token: ctx.userToken }));
    expect(stored.received_by).toBe(me.id);

    const header = await ctx.request('POST', `${API}/lineage/openlineage`, {
      token: null,
      headers: { 'x-api-key': writer.key },
      body: runEvent('RUNNING', ['src.paths_in'], ['dw.paths_out']),
    });
    expect(header.status).toBe(201);

    // A key without the scope is refused, naming the scope; a revoked or made-up key is 401.
    const reader = await newKey(['catalogue:read']);
    const refused = await ctx.request('POST', `${API}/lineage`, { token: reader.key, body: event });
    expect(expectEnvelope(refused, 403, 'API_KEY_FORBIDDEN').details).toEqual({
      required_scope: 'catalogue:write',
    });
    const made_up = `aidek_${'x'.repeat(43)}`;
    expectEnvelope(
      await ctx.request('POST', `${API}/lineage`, { token: made_up, body: event }),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('Content-Encoding', () => {
  let src: Table;
  let dst: Table;
  beforeAll(async () => {
    src = await table('src.gz_in', [['id', 'integer']]);
    dst = await table('dw.gz_out', [['id', 'integer']]);
  });
  const send = (body: Buffer | string, encoding: string) =>
    ctx.request('POST', `${API}/lineage`, {
      token: ctx.userToken,
      rawBody: body,
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });

  it("decodes a gzip body (the transport's compression: gzip) and applies the event", async () => {
    const event = runEvent('COMPLETE', ['src.gz_in'], ['dw.gz_out']);
    const r = await send(gzipSync(JSON.stringify(event)), 'gzip');
    expect(r.status).toBe(201);
    expect((r.body as Row).dataset_links).toEqual([expect.objectContaining({ status: 'created' })]);
    expect(await linksBetween(src, dst)).toHaveLength(1);
    expect(await storedEvents('run_id = $1', [(event['run'] as Row).runId])).toHaveLength(1);
  });

  it('refuses a gzip body that decodes beyond the body limit with 413 PAYLOAD_TOO_LARGE, recording nothing', async () => {
    const event = runEvent('COMPLETE', ['src.gz_in'], ['dw.gz_out']);
    // 16 MiB of JSON whitespace before a valid event: a few KiB compressed, 16 times the 1 MiB limit.
    const bomb = gzipSync(
      Buffer.concat([Buffer.alloc(16 * 1024 * 1024, ' '), Buffer.from(JSON.stringify(event))]),
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    expectEnvelope(await send(bomb, 'gzip'), 413, 'PAYLOAD_TOO_LARGE');
    expect(await storedEvents('run_id = $1', [(event['run'] as Row).runId])).toEqual([]);
  });

  it('refuses an unknown encoding with 415 UNSUPPORTED_CONTENT_ENCODING, and bytes that are not gzip with 422', async () => {
    const body = JSON.stringify(runEvent('COMPLETE', ['src.gz_in'], ['dw.gz_out']));
    const br = expectEnvelope(await send(body, 'br'), 415, 'UNSUPPORTED_CONTENT_ENCODING');
    expect(br.details).toMatchObject({ content_encoding: 'br' });
    expectEnvelope(await send(body, 'gzip'), 422, 'VALIDATION_ERROR');
    // identity is no encoding at all
    expect((await send(body, 'identity')).status).toBe(201);
  });
});

describe('DatasetEvent and JobEvent (spec 2-0-2)', () => {
  let src: Table;
  let dst: Table;
  beforeAll(async () => {
    src = await table('src.static_in', [
      ['id', 'integer'],
      ['amount', 'numeric'],
    ]);
    dst = await table('dw.static_out', [
      ['id', 'integer'],
      ['total', 'numeric'],
    ]);
  });

  const datasetEvent = (name: string, fields: string[], eventTime = '2026-12-07T10:00:00.000Z') => ({
    eventTime,
    producer: PRODUCER,
    schemaURL: `${SPEC}#/$defs/DatasetEvent`,
    dataset: {
      namespace: NS,
      name,
      facets: {
        schema: {
          _producer: PRODUCER,
          _schemaURL:
            'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet',
          fields: fields.map((f) => ({ name: f, type: 'integer' })),
        },
      },
    },
  });

  it('a DatasetEvent: matched, its schema compared, stored once per content, no link written', async () => {
    const event = datasetEvent('src.static_in', ['id', 'amount', 'currency']);
    const first = ok(await post('lineage', event), 201);
    expect(first).toMatchObject({
      event_kind: 'dataset',
      run_id: null,
      event_type: null,
      job: null,
      dataset: { namespace: NS, name: 'src.static_in' },
      applied: true,
      outcome: 'observed',
      duplicate: false,
      dataset_links: [],
      field_links: [],
      unknown_datasets: [],
    });
    expect(first.reason).toMatch(/DatasetEvent/);
    expect(first.datasets).toEqual([
      expect.objectContaining({
        status: 'matched',
        dataset_id: src.dataset.id,
        schema_fields_unknown: ['currency'],
      }),
    ]);
    // The same event again: the first answer. The same dataset at another time: a new event.
    expect(ok(await post('lineage/openlineage', event), 200)).toEqual({ ...first, duplicate: true });
    ok(await post('lineage', datasetEvent('src.static_in', ['id'], '2026-12-07T11:00:00.000Z')), 201);
    const stored = await storedEvents('dataset_name = $1', ['src.static_in']);
    expect(stored).toEqual([
      expect.objectContaining({
        kind: 'dataset',
        run_id: null,
        event_type: null,
        job_name: null,
        dataset_namespace: NS,
      }),
      expect.objectContaining({ kind: 'dataset' }),
    ]);
    expect(stored[0].event_key).toMatch(/^dataset:[0-9a-f]{64}$/);

    // A dataset the registry does not know is reported, as a run event's would be.
    const unknown = ok(await post('lineage', datasetEvent('src.nowhere', ['id'])), 201);
    expect(unknown.unknown_datasets).toEqual([{ role: 'output', namespace: NS, name: 'src.nowhere' }]);
  });

  it('a JobEvent links its inputs to its outputs like a completed run, column lineage included, once per content', async () => {
    const event = {
      eventTime: '2026-12-07T10:00:00.000Z',
      producer: PRODUCER,
      schemaURL: `${SPEC}#/$defs/JobEvent`,
      job: { namespace: 'dbt', name: 'model.shop.static_out' },
      inputs: [{ namespace: NS, name: 'src.static_in' }],
      outputs: [
        {
          namespace: NS,
          name: 'dw.static_out',
          facets: {
            columnLineage: {
              _producer: PRODUCER,
              _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
              fields: {
                total: { inputFields: [{ namespace: NS, name: 'src.static_in', field: 'amount' }] },
              },
            },
          },
        },
      ],
    };
    const first = ok(await post('lineage', event), 201);
    expect(first).toMatchObject({
      event_kind: 'job',
      run_id: null,
      event_type: null,
      job: { namespace: 'dbt', name: 'model.shop.static_out' },
      dataset: null,
      applied: true,
      outcome: 'linked',
      reason: null,
      dataset_links: [
        { source_dataset_id: src.dataset.id, target_dataset_id: dst.dataset.id, status: 'created' },
      ],
      field_links: [{ source_field: 'amount', target_field: 'total', status: 'created' }],
    });
    const links = await linksBetween(src, dst);
    expect(links).toHaveLength(1);
    const [{ n }] = await ctx.dataSource.query(
      'SELECT count(*)::int AS n FROM field_links WHERE dataset_link_id = $1',
      [links[0]?.id],
    );
    expect(n).toBe(1);

    expect(ok(await post('lineage', event), 200)).toEqual({ ...first, duplicate: true });
    const stored = await storedEvents('job_name = $1', ['model.shop.static_out']);
    expect(stored).toEqual([expect.objectContaining({ kind: 'job', run_id: null, event_type: null })]);
    expect(stored[0].event_key).toMatch(/^job:[0-9a-f]{64}$/);
  });

  it('tells the events apart by shape without a schemaURL, and names the paths of the event it is', async () => {
    const { schemaURL: _s, ...bare } = datasetEvent('src.static_in', ['id'], '2026-12-07T12:00:00.000Z');
    expect(ok(await post('lineage', bare), 201).event_kind).toBe('dataset');
    const noName = datasetEvent('src.static_in', ['id']);
    delete (noName.dataset as { name?: string }).name;
    const refused = expectEnvelope(await post('lineage', noName), 422, 'VALIDATION_ERROR');
    expect(refused.details.issues.map((i: Row) => i.path)).toEqual([['dataset', 'name']]);
    const jobWithoutName = {
      eventTime: '2026-12-07T10:00:00Z',
      producer: PRODUCER,
      job: { namespace: 'dbt' },
    };
    const jobRefused = expectEnvelope(await post('lineage', jobWithoutName), 422, 'VALIDATION_ERROR');
    expect(jobRefused.details.issues.map((i: Row) => i.path)).toEqual([['job', 'name']]);
  });
});

describe('what each event type does', () => {
  let src: Table;
  let dst: Table;
  beforeAll(async () => {
    src = await table('src.types_in', [['id', 'integer']]);
    dst = await table('dw.types_out', [['id', 'integer']]);
  });
  const send = (eventType: string | undefined) =>
    post('lineage', runEvent(eventType, ['src.types_in'], ['dw.types_out']));

  it('FAIL and ABORT match and report only; START, RUNNING, COMPLETE, OTHER and no type link', async () => {
    for (const [type, outcome] of [
      ['FAIL', 'run_failed'],
      ['ABORT', 'run_aborted'],
    ] as const) {
      const r = ok(await send(type), 201);
      expect(r).toMatchObject({ event_type: type, applied: false, outcome, dataset_links: [], skipped: [] });
      expect(r.reason).toMatch(type === 'FAIL' ? /failed/ : /aborted/);
      expect(r.datasets.map((d: Row) => d.status)).toEqual(['matched', 'matched']);
    }
    expect(await linksBetween(src, dst)).toEqual([]);

    const statuses: string[] = [];
    for (const type of ['START', 'RUNNING', 'COMPLETE', 'OTHER', undefined]) {
      const r = ok(await send(type), 201);
      expect(r).toMatchObject({
        event_type: type ?? 'OTHER',
        applied: true,
        outcome: 'linked',
        reason: null,
      });
      statuses.push(...r.dataset_links.map((l: Row) => l.status));
    }
    expect(statuses).toEqual(['created', 'confirmed', 'confirmed', 'confirmed', 'confirmed']);
    expect(await linksBetween(src, dst)).toHaveLength(1);
  });

  it('answers a repeat of an event stored before these fields existed with them filled in', async () => {
    const event = runEvent('FAIL', ['src.types_in'], ['dw.types_out']);
    const runId = (event['run'] as Row).runId as string;
    const before = { run_id: runId, event_type: 'FAIL', applied: false, datasets: [], dataset_links: [] };
    await ctx.dataSource.query(
      `INSERT INTO openlineage_events (event_key, kind, run_id, event_type, event_time, job_namespace, job_name, producer, result)
       VALUES ($1, 'run', $2, 'FAIL', now(), 'spark', 'intake_job', 'p', $3)`,
      [`run:${runId}:FAIL`, runId, JSON.stringify(before)],
    );
    const r = ok(await post('lineage', event), 200);
    expect(r).toMatchObject({
      ...before,
      duplicate: true,
      event_kind: 'run',
      outcome: 'run_failed',
      dataset: null,
    });
  });
});
