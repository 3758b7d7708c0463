// Lineage against the real backend: engines (polymorphic, soft delete and restore), dataset links and
// the field links inside them; tech-field templates applied to a dataset.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AideClient, ConflictError, ValidationError } from '../src/index.js';
import { adminClient, unique } from './helpers/backend.js';

let client: AideClient;
let systemId: string;

beforeAll(async () => {
  client = adminClient();
  const { items } = await client.systemFlavors.list({ code: 'postgres14' });
  const system = await client.systems.create({
    code: unique('lineage-db'),
    name: 'Lineage',
    flavor_id: items[0]!.id,
  });
  systemId = system.id;
});

/** An rdbms dataset of a layer with a published version of two columns. */
async function versioned(layer: 'source' | 'raw') {
  const name = unique('t');
  const dataset = await client.datasets.create({
    kind: 'rdbms',
    system_id: systemId,
    object_name: `public.${name}`,
    schema_name: 'public',
    table_name: name,
    layer,
  });
  const { version } = await client.datasets.publishSchemaVersion(dataset.id, {
    columns: [
      { name: 'id', nullable: false, type: { data_type: 'integer' } },
      { name: 'name', type: { data_type: 'text' } },
    ],
  });
  const fields = new Map(version.columns.map((c) => [c.name, c.field_id]));
  return { dataset, schemaId: version.dataset_schema_id, fields };
}
afterAll(async () => {
  await client.close();
});

type Versioned = Awaited<ReturnType<typeof versioned>>;

/** A dataset link between two versioned datasets, pinned to their versions. */
function linkOf(source: Versioned, target: Versioned) {
  return client.datasetLinks.create({
    source_dataset_id: source.dataset.id,
    target_dataset_id: target.dataset.id,
    source_schema_id: source.schemaId,
    target_schema_id: target.schemaId,
  });
}

describe('engines', () => {
  it('creates, updates, lists, deletes and restores an engine with its kind attributes', async () => {
    const code = unique('spark');
    const engine = await client.engines.create({ kind: 'spark', code, name: 'Spark', version: '3.x' });
    expect(engine).toMatchObject({ kind: 'spark', role: 'compute', runtime_opts: null, row_version: 1 });
    const updated = await client.engines.update(engine.id, {
      kind: 'spark',
      runtime_opts: { executors: 2 },
      row_version: engine.row_version,
    });
    expect(updated).toMatchObject({ runtime_opts: { executors: 2 }, row_version: 2 });
    expect((await client.engines.list({ code })).items.map((e) => e.id)).toEqual([engine.id]);
    await client.engines.delete(engine.id);
    const restored = await client.engines.restore(engine.id);
    expect(restored).toMatchObject({ id: engine.id, runtime_opts: { executors: 2 }, deleted_at: null });
  });

  it('surfaces the catalogue codes as typed errors', async () => {
    const code = unique('deb');
    const body = {
      kind: 'debezium',
      code,
      name: 'CDC',
      version: '2.x',
      envelope_template: { after_path: 'a' },
    } as const;
    await client.engines.create(body);
    await expect(client.engines.create(body)).rejects.toBeInstanceOf(ConflictError);
    await expect(
      client.engines.create({ ...body, code: unique('deb'), version: '9.x' }),
    ).rejects.toMatchObject({
      errorCode: 'ENGINE_VERSION_INVALID',
    });
    await expect(
      client.engines.create({ ...body, code: unique('deb'), version: '9.x' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('dataset links and field links', () => {
  it('links two datasets, adds field links one by one and in bulk, and lists them', async () => {
    const source = await versioned('source');
    const target = await versioned('raw');
    const link = await linkOf(source, target);
    const one = await client.datasetLinks.addFieldLink(link.id, {
      source_field_id: source.fields.get('id')!,
      target_field_id: target.fields.get('id')!,
    });
    const bulk = await client.datasetLinks.addFieldLinks(link.id, [
      { source_field_id: source.fields.get('name')!, target_field_id: target.fields.get('name')! },
    ]);
    expect((await client.datasetLinks.fieldLinks(link.id)).map((l) => l.id)).toEqual([one.id, bulk[0]!.id]);
    const flat = await client.fieldLinks.list({ dataset_link_id: link.id, sort: 'created_at' });
    expect(flat.items.map((l) => l.id)).toEqual([one.id, bulk[0]!.id]);
    await expect(
      client.datasetLinks.addFieldLinks(link.id, [
        { source_field_id: source.fields.get('id')!, target_field_id: target.fields.get('id')! },
      ]),
    ).rejects.toMatchObject({ errorCode: 'FIELD_LINK_ALREADY_EXISTS', status: 409 });
    const report = await client.datasetLinks.compat(link.id);
    expect(report).toMatchObject({ status: 'ok', summary: { ok: 2, warn: 0, error: 0, total: 2 } });
    const summaries = [];
    for await (const s of client.datasetLinks.compatSummaries({ dataset_id: source.dataset.id, size: 1 })) {
      summaries.push(s.dataset_link_id);
    }
    expect(summaries).toEqual([link.id]);
    await expect(client.datasetLinks.renderSql(link.id)).rejects.toMatchObject({
      errorCode: 'ENGINE_NOT_ATTACHED',
      status: 409,
    });
    await client.datasetLinks.delete(link.id);
    expect((await client.datasetLinks.restore(link.id)).deleted_at).toBeNull();
  });
});

describe('impact analysis', () => {
  it('previews what a version would break downstream, writing nothing', async () => {
    const source = await versioned('source');
    const target = await versioned('raw');
    const link = await linkOf(source, target);
    await client.datasetLinks.addFieldLinks(link.id, [
      { source_field_id: source.fields.get('id')!, target_field_id: target.fields.get('id')! },
      { source_field_id: source.fields.get('name')!, target_field_id: target.fields.get('name')! },
    ]);
    const impact = await client.datasets.previewSchemaVersionImpact(source.dataset.id, {
      columns: [{ name: 'id', nullable: false, type: { data_type: 'integer' } }],
    });
    expect(impact.summary).toEqual({
      links: 1,
      breaking_links: 1,
      breaking_field_links: 1,
      dataflows: 0,
      breaking_dataflows: 0,
    });
    expect(impact.links[0]).toMatchObject({ dataset_link_id: link.id, side: 'source', breaks: true });
    const name = impact.links[0]!.field_links.find((f) => f.source_field.name === 'name');
    expect(name).toMatchObject({ severity_now: 'ok', issues_after: ['source_unbound'], breaks: true });
    expect(await client.datasets.schemaVersions(source.dataset.id)).toHaveLength(1);
    await expect(
      client.datasets.previewSchemaVersionImpact(source.dataset.id, {
        columns: [{ name: 'id', type: { data_type: 'no_such_type' } }],
      }),
    ).rejects.toMatchObject({ errorCode: 'DATA_TYPE_NOT_FOUND', status: 404 });
  });
});

describe('render-sql', () => {
  it('renders the INSERT … SELECT of a hop driven by a compute engine', async () => {
    const { items } = await client.systemFlavors.list({ code: 'iceberg_v2' });
    const lake = await client.systems.create({ code: unique('lake'), name: 'Lake', flavor_id: items[0]!.id });
    const table = async (db: string, layer: 'raw' | 'core') => {
      const dataset = await client.datasets.create({
        kind: 'hive',
        system_id: lake.id,
        object_name: `${db}.${unique('t')}`,
        catalog_uri: 'thrift://hms:9083',
        db_name: db,
        table_name: 'orders',
        file_format: 'iceberg',
        layer,
      });
      const { version } = await client.datasets.publishSchemaVersion(dataset.id, {
        columns: [{ name: 'id', nullable: false, type: { data_type: 'long' } }],
      });
      return { dataset, version, db };
    };
    const raw = await table(unique('raw'), 'raw');
    const core = await table(unique('core'), 'core');
    const engine = await client.engines.create({
      kind: 'impala',
      code: unique('impala'),
      name: 'Impala',
      version: '4.x',
    });
    const link = await client.datasetLinks.create({
      source_dataset_id: raw.dataset.id,
      target_dataset_id: core.dataset.id,
      source_schema_id: raw.version.dataset_schema_id,
      target_schema_id: core.version.dataset_schema_id,
      engine_id: engine.id,
    });
    await client.datasetLinks.addFieldLink(link.id, {
      source_field_id: raw.version.columns[0]!.field_id,
      target_field_id: core.version.columns[0]!.field_id,
    });
    const result = await client.datasetLinks.renderSql(link.id);
    expect(result).toEqual({
      engine_id: engine.id,
      engine_kind: 'impala',
      sql: `INSERT INTO \`${core.db}\`.\`orders\` (\`id\`)\nSELECT\n  CAST(\`id\` AS BIGINT) AS \`id\`\nFROM \`${raw.db}\`.\`orders\`;`,
      warnings: [],
    });
  });
});

describe('lake-sync', () => {
  it('mirrors a dataset into a new Iceberg table, linked column by column', async () => {
    const source = await versioned('source');
    const { items } = await client.systemFlavors.list({ code: 'iceberg_v2' });
    const lake = await client.systems.create({ code: unique('lake'), name: 'Lake', flavor_id: items[0]!.id });
    const result = await client.datasets.lakeSync(source.dataset.id, {
      target_system_id: lake.id,
      target_layer: 'raw',
      db_name: 'raw',
      table_name: unique('orders'),
      catalog_uri: 'thrift://hms:9083',
    });
    expect(result).toMatchObject({ mapped_field_count: 2, tech_field_count: 0, warnings: [] });
    const version = await client.datasets.schemaVersion(result.target_dataset_id, 1);
    expect(version.columns.map((c) => [c.name, c.rendered_type])).toEqual([
      ['id', 'int'],
      ['name', 'string'],
    ]);
    expect(await client.datasetLinks.fieldLinks(result.dataset_link_id)).toHaveLength(2);
  });
});

describe('OpenLineage intake', () => {
  it('sends a RunEvent: datasets matched by namespace and name, links created, a repeat answered once', async () => {
    const namespace = `postgres://${unique('sdk-host')}:5432`;
    const { items } = await client.systemFlavors.list({ code: 'postgres14' });
    const system = await client.systems.create({
      code: unique('ol-db'),
      name: 'OpenLineage source',
      flavor_id: items[0]!.id,
      extra: { openlineage_namespace: namespace },
    });
    const table = async (name: string, layer: 'source' | 'raw') => {
      const dataset = await client.datasets.create({
        kind: 'rdbms',
        system_id: system.id,
        object_name: `public.${name}`,
        schema_name: 'public',
        table_name: name,
        layer,
      });
      await client.datasets.publishSchemaVersion(dataset.id, {
        columns: [{ name: 'id', nullable: false, type: { data_type: 'integer' } }],
      });
      return dataset;
    };
    const orders = await table(unique('orders'), 'source');
    const copy = await table(unique('copy'), 'raw');
    const event = {
      eventType: 'COMPLETE' as const,
      eventTime: new Date().toISOString(),
      producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.24.2/client/python',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: { runId: randomUUID() },
      job: { namespace: 'sdk', name: 'copy_orders' },
      inputs: [{ namespace, name: `app.${orders.object_name}` }],
      outputs: [
        {
          namespace,
          name: `app.${copy.object_name}`,
          facets: {
            columnLineage: {
              _producer: 'p',
              _schemaURL: 's',
              fields: {
                id: { inputFields: [{ namespace, name: `app.${orders.object_name}`, field: 'id' }] },
              },
            },
          },
        },
      ],
    };
    const result = await client.lineage.sendOpenLineageEvent(event);
    expect(result).toMatchObject({ duplicate: false, applied: true, unknown_datasets: [] });
    expect(result.dataset_links).toEqual([
      expect.objectContaining({
        source_dataset_id: orders.id,
        target_dataset_id: copy.id,
        status: 'created',
      }),
    ]);
    expect(result.field_links).toEqual([expect.objectContaining({ source_field: 'id', target_field: 'id' })]);
    expect(await client.lineage.sendOpenLineageEvent(event)).toEqual({ ...result, duplicate: true });
    await expect(
      client.lineage.sendOpenLineageEvent({ ...event, run: { runId: 'not-a-uuid' } }),
    ).rejects.toMatchObject({ errorCode: 'VALIDATION_ERROR', status: 422 });
  });
});

describe('lineage graph', () => {
  it('reads a graph page by page, with for await, and whole', async () => {
    const a = await versioned('source');
    const b = await versioned('raw');
    const link = await linkOf(a, b);
    const page = await client.lineage.datasetGraph(a.dataset.id, { direction: 'downstream', size: 1 });
    expect(page).toMatchObject({ total_nodes: 2, total_edges: 1, pages: 2 });
    const seen: string[] = [];
    for await (const p of client.lineage.datasetPages(a.dataset.id, { direction: 'downstream', size: 1 })) {
      seen.push(...p.nodes.map((n) => n.id));
    }
    expect(seen).toEqual([a.dataset.id, b.dataset.id]);
    const whole = await client.lineage.datasets(b.dataset.id, { direction: 'upstream' });
    expect(whole.nodes.map((n) => [n.id, n.upstream_depth])).toEqual([
      [b.dataset.id, 0],
      [a.dataset.id, 1],
    ]);
    expect(whole.edges).toEqual([
      { id: link.id, source_id: a.dataset.id, target_id: b.dataset.id, engine_id: null },
    ]);
    await expect(client.lineage.datasetGraph(a.dataset.id, { depth: 21 })).rejects.toMatchObject({
      errorCode: 'VALIDATION_ERROR',
    });
  });
});

describe('techFieldTemplates', () => {
  it('creates a template, applies it idempotently and reports a layer mismatch', async () => {
    const template = await client.techFieldTemplates.create({
      code: unique('tft'),
      name: 'Raw technical columns',
      layer: 'raw',
      fields: [{ name: 'load_ts', position: 0, type_code: 'timestamptz', nullable: false }],
    });
    expect(template.fields).toEqual([
      {
        name: 'load_ts',
        position: 0,
        type_code: 'timestamptz',
        type_params: null,
        nullable: false,
        default_value: null,
        comment: null,
      },
    ]);
    const raw = (await versioned('raw')).dataset;
    const first = await client.techFieldTemplates.apply(raw.id, { template_id: template.id });
    expect(first.created.map((f) => [f.name, f.origin])).toEqual([['load_ts', 'tech']]);
    expect(await client.techFieldTemplates.apply(raw.id, { template_id: template.id })).toEqual({
      created: [],
      skipped: ['load_ts'],
    });
    const source = (await versioned('source')).dataset;
    const failure = client.techFieldTemplates.apply(source.id, { template_id: template.id });
    await expect(failure).rejects.toBeInstanceOf(ValidationError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      errorCode: 'TECH_FIELD_TEMPLATE_LAYER_MISMATCH',
    });
  });
});

describe('OpenLineage jobs and runs', () => {
  it('reads the job, its versions and runs, a run and its events, and a dataset history', async () => {
    const { dataset } = await versioned('source');
    const job = unique('sdk_job');
    const runId = randomUUID();
    const event = (eventType: 'START' | 'COMPLETE', eventTime: string) => ({
      eventType,
      eventTime,
      producer: 'https://example.com/sdk-test',
      run: { runId },
      job: { namespace: 'sdk', name: job },
      inputs: [{ namespace: 'sdk-test', name: 'not_registered' }],
      outputs: [],
    });
    await client.lineage.sendOpenLineageEvent(event('START', '2026-12-07T10:00:00Z'));
    await client.lineage.sendOpenLineageEvent(event('COMPLETE', '2026-12-07T10:00:30Z'));

    const page = await client.lineage.jobs.list({ namespace: 'sdk', name: job });
    expect(page.items.map((j) => [j.name, j.current_version, j.latest_run?.state])).toEqual([
      [job, 1, 'COMPLETED'],
    ]);
    const found = page.items[0]!;
    expect((await client.lineage.jobs.get(found.id)).inputs).toEqual([
      { namespace: 'sdk-test', name: 'not_registered', dataset_id: null },
    ]);
    expect((await client.lineage.jobs.versions(found.id)).items.map((v) => v.version)).toEqual([1]);
    const runs = [];
    for await (const run of client.lineage.jobs.runs(found.id, { state: 'COMPLETED' })) runs.push(run);
    expect(runs.map((r) => [r.run_id, r.duration_ms])).toEqual([[runId, 30_000]]);
    expect((await client.lineage.runs.get(runId)).state).toBe('COMPLETED');
    expect((await client.lineage.runs.events(runId)).map((e) => e.event_type)).toEqual(['START', 'COMPLETE']);
    expect((await client.lineage.runs.ofDataset(dataset.id)).total).toBe(0);
    const graph = await client.lineage.jobs.graph(`job:${found.id}`, { direction: 'upstream' });
    expect(graph.nodes.map((n) => n.key)).toEqual([`job:${found.id}`, 'dataset:sdk-test/not_registered']);
    await expect(client.lineage.runs.get(randomUUID())).rejects.toMatchObject({
      status: 404,
      errorCode: 'LINEAGE_RUN_NOT_FOUND',
    });
  });
});
