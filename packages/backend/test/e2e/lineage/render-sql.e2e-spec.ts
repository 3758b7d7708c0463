// render-sql (AIDE v2 §9.5, weak spot §10.25 fixed): POST /dataset-links/{id}/render-sql writes the hop's
// INSERT … SELECT for its compute engine, each column cast to the pinned target binding's type rendered
// with the target flavor's sandboxed templates, in the engine's dialect. Compared with the expected text
// for each engine kind and source kind.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  createDataset,
  createPgSystem,
  flavorByCode,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { createSystem, ok, UNKNOWN_ID } from '../../helpers/factories.js';
import { createEngine, createLink, type VersionedDataset, versionedDataset } from '../../helpers/lineage.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let source: VersionedDataset;
let topic: VersionedDataset;
let raw: VersionedDataset;
let core: VersionedDataset;
let cdcLink: Row;
let streamLink: Row;
let lakeLink: Row;

const NAMES = ['id', 'amount', 'name', 'created', 'tags', 'blob'];

/** An Iceberg table `<db>.orders` with a version of six columns, list and fixed included. */
async function icebergTable(system: Row, db: string, layer: string): Promise<VersionedDataset> {
  const dataset = await createDataset(ctx, system.id, 'hive', {
    object_name: `${db}.orders`,
    db_name: db,
    table_name: 'orders',
    layer,
  });
  const body = {
    columns: [
      { name: 'id', nullable: false, type: { data_type: 'long' } },
      { name: 'amount', type: { data_type: 'decimal', params: { precision: 12, scale: 2 } } },
      { name: 'name', type: { data_type: 'string' } },
      { name: 'created', type: { data_type: 'timestamptz' } },
      {
        name: 'tags',
        type: { data_type: 'list', children: [{ slot: 'element', type: { data_type: 'string' } }] },
      },
      { name: 'blob', type: { data_type: 'fixed', params: { length: 16 } } },
    ],
  };
  const { version } = ok(
    await ctx.request('POST', `${API}/datasets/${dataset.id}/schema-versions`, {
      token: ctx.userToken,
      body,
    }),
    201,
  );
  const fields = new Map<string, string>(version.columns.map((c: Row) => [c.name, c.field_id]));
  return { dataset, schemaId: version.dataset_schema_id, fields };
}

async function linkFields(link: Row, from: VersionedDataset, to: VersionedDataset) {
  ok(
    await ctx.request('POST', `${API}/dataset-links/${link.id}/field-links/bulk`, {
      token: ctx.userToken,
      body: NAMES.map((n) => ({ source_field_id: from.fields.get(n), target_field_id: to.fields.get(n) })),
    }),
    201,
  );
}

const render = (id: string) =>
  ctx.request('POST', `${API}/dataset-links/${id}/render-sql`, { token: ctx.userToken });

async function setEngine(link: Row, engineId: string | null): Promise<Row> {
  const current = ok(await ctx.request('GET', `${API}/dataset-links/${link.id}`, { token: ctx.userToken }));
  return ok(
    await ctx.request('PATCH', `${API}/dataset-links/${link.id}`, {
      token: ctx.userToken,
      body: { engine_id: engineId, row_version: current.row_version },
    }),
  );
}

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  const pg = await createPgSystem(ctx);
  const lake = await createSystem(ctx, (await flavorByCode(ctx, 'iceberg_v2')).id);
  const columns = NAMES.map((n) => [n, n === 'id' ? 'integer' : 'text'] as [string, string]);
  source = await versionedDataset(ctx, pg.id, 'source', columns);
  topic = await versionedDataset(ctx, pg.id, 'kafka', columns, 'kafka');
  raw = await icebergTable(lake, 'raw', 'raw');
  core = await icebergTable(lake, 'core', 'core');
  const debezium = await createEngine(ctx, 'debezium', { envelope_template: { after_path: 'after' } });
  cdcLink = await createLink(ctx, source, topic, { engine_id: debezium.id });
  streamLink = await createLink(ctx, topic, raw, { engine_id: (await createEngine(ctx, 'spark')).id });
  lakeLink = await createLink(ctx, raw, core, { engine_id: (await createEngine(ctx, 'impala')).id });
  await linkFields(cdcLink, source, topic);
  await linkFields(streamLink, topic, raw);
  await linkFields(lakeLink, raw, core);
});
afterAll(async () => {
  await ctx.close();
});

describe('render-sql', () => {
  it('Spark, Kafka (Avro) → Iceberg: columns read in the Debezium after-image, Iceberg types in Spark spelling', async () => {
    const body = ok(await render(streamLink.id));
    const topicName = topic.dataset.topic as string;
    expect(body).toEqual({
      engine_id: streamLink.engine_id,
      engine_kind: 'spark',
      sql: [
        'INSERT INTO `raw`.`orders` (`id`, `amount`, `name`, `created`, `tags`, `blob`)',
        'SELECT',
        '  CAST(`payload`.`after`.`id` AS bigint) AS `id`,',
        '  CAST(`payload`.`after`.`amount` AS decimal(12,2)) AS `amount`,',
        '  CAST(`payload`.`after`.`name` AS string) AS `name`,',
        '  CAST(`payload`.`after`.`created` AS timestamp) AS `created`,',
        '  CAST(`payload`.`after`.`tags` AS array<string>) AS `tags`,',
        '  CAST(`payload`.`after`.`blob` AS binary) AS `blob`',
        `FROM \`${topicName}\`;`,
      ].join('\n'),
      warnings: [],
    });
    // Deterministic: the same link renders the same text.
    expect(ok(await render(streamLink.id))).toEqual(body);
  });

  it('Spark, Kafka (JSON) → Iceberg: the after-image read with get_json_object', async () => {
    const current = ok(
      await ctx.request('GET', `${API}/datasets/${topic.dataset.id}`, { token: ctx.userToken }),
    );
    ok(
      await ctx.request('PATCH', `${API}/datasets/${topic.dataset.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', format: 'json', row_version: current.row_version },
      }),
    );
    const { sql } = ok(await render(streamLink.id));
    expect(sql.split('\n').slice(2, 4)).toEqual([
      "  CAST(get_json_object(`payload`, '$.after.id') AS bigint) AS `id`,",
      "  CAST(get_json_object(`payload`, '$.after.amount') AS decimal(12,2)) AS `amount`,",
    ]);
  });

  it('Impala, Iceberg → Iceberg: upper-case Impala types; a list cannot be cast and is selected as it is', async () => {
    const body = ok(await render(lakeLink.id));
    expect(body.engine_kind).toBe('impala');
    expect(body.sql).toBe(
      [
        'INSERT INTO `core`.`orders` (`id`, `amount`, `name`, `created`, `tags`, `blob`)',
        'SELECT',
        '  CAST(`id` AS BIGINT) AS `id`,',
        '  CAST(`amount` AS DECIMAL(12,2)) AS `amount`,',
        '  CAST(`name` AS STRING) AS `name`,',
        '  CAST(`created` AS TIMESTAMP) AS `created`,',
        '  `tags` AS `tags`,',
        '  CAST(`blob` AS BINARY) AS `blob`',
        'FROM `raw`.`orders`;',
      ].join('\n'),
    );
    expect(body.warnings).toEqual([
      {
        code: 'TYPE_NOT_CASTABLE',
        field_link_id: expect.any(String),
        field_name: 'tags',
        detail: 'impala cannot CAST to list<string>: the column is selected as it is.',
      },
    ]);
  });

  it('Spark on the same Iceberg hop: plain columns, Spark types (the dialects differ)', async () => {
    lakeLink = await setEngine(lakeLink, (await createEngine(ctx, 'spark')).id);
    const { sql, engine_kind } = ok(await render(lakeLink.id));
    expect(engine_kind).toBe('spark');
    expect(sql.split('\n').slice(2)).toEqual([
      '  CAST(`id` AS bigint) AS `id`,',
      '  CAST(`amount` AS decimal(12,2)) AS `amount`,',
      '  CAST(`name` AS string) AS `name`,',
      '  CAST(`created` AS timestamp) AS `created`,',
      '  CAST(`tags` AS array<string>) AS `tags`,',
      '  CAST(`blob` AS binary) AS `blob`',
      'FROM `raw`.`orders`;',
    ]);
  });

  it('warns when the topic has no CDC engine upstream, and leaves out columns unbound after a re-pin', async () => {
    cdcLink = await setEngine(cdcLink, null);
    const plain = ok(await render(streamLink.id));
    expect(plain.sql).toContain('  CAST(`id` AS bigint) AS `id`,');
    expect(plain.warnings).toEqual([expect.objectContaining({ code: 'NO_CDC_ENGINE', field_link_id: null })]);

    // The topic's next version drops `name`; re-pinned to it, that column cannot be read.
    const columns = NAMES.filter((n) => n !== 'name').map((n) => ({
      name: n,
      type: { data_type: n === 'id' ? 'integer' : 'text' },
    }));
    const { version } = ok(
      await ctx.request('POST', `${API}/datasets/${topic.dataset.id}/schema-versions`, {
        token: ctx.userToken,
        body: { columns },
      }),
      201,
    );
    const current = ok(
      await ctx.request('GET', `${API}/dataset-links/${streamLink.id}`, { token: ctx.userToken }),
    );
    ok(
      await ctx.request('PATCH', `${API}/dataset-links/${streamLink.id}`, {
        token: ctx.userToken,
        body: { source_schema_id: version.dataset_schema_id, row_version: current.row_version },
      }),
    );
    const broken = ok(await render(streamLink.id));
    expect(broken.sql.split('\n')[0]).toBe(
      'INSERT INTO `raw`.`orders` (`id`, `amount`, `created`, `tags`, `blob`)',
    );
    expect(broken.warnings).toContainEqual(
      expect.objectContaining({ code: 'FIELD_LINK_BROKEN', field_name: 'name' }),
    );
  });

  it('answers the catalogue codes: no engine, a CDC engine, an unknown link', async () => {
    expectEnvelope(await render(cdcLink.id), 409, 'ENGINE_NOT_ATTACHED');
    cdcLink = await setEngine(cdcLink, (await createEngine(ctx, 'ogg')).id);
    expectEnvelope(await render(cdcLink.id), 409, 'ENGINE_NOT_RENDERABLE');
    expectEnvelope(await render(UNKNOWN_ID), 404, 'DATASET_LINK_NOT_FOUND');
    const deleted = await createLink(
      ctx,
      await versionedDataset(ctx, source.dataset.system_id, 'source'),
      await versionedDataset(ctx, source.dataset.system_id, 'raw'),
    );
    ok(await ctx.request('DELETE', `${API}/dataset-links/${deleted.id}`, { token: ctx.adminToken }));
    expectEnvelope(await render(deleted.id), 404, 'DATASET_LINK_NOT_FOUND');
  });
});
