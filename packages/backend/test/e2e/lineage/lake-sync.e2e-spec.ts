// Lake-sync (AIDE v2 §9.4, weak spots §10.19 fixed): POST /datasets/{id}/lake-sync mirrors a dataset's
// current version into a new Iceberg table — dataset, version 1, link and field links — all or nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  createDataset,
  createPgSystem,
  dataTypeOf,
  flavorByCode,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { createSystem, ok, unique, UNKNOWN_ID } from '../../helpers/factories.js';
import { type VersionedDataset } from '../../helpers/lineage.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let pg: Row;
let lake: Row;
let source: VersionedDataset;
let template: Row;

const sync = (id: string, body: Record<string, unknown>) =>
  ctx.request('POST', `${API}/datasets/${id}/lake-sync`, { token: ctx.userToken, body });

const request = (overrides: Record<string, unknown> = {}) => ({
  target_system_id: lake.id,
  target_layer: 'raw',
  db_name: 'raw',
  table_name: unique('orders'),
  catalog_uri: 'thrift://hms:9083',
  location: 's3://lake/raw/orders',
  ...overrides,
});

async function hiveCount(table: string): Promise<number> {
  const [{ n }] = await ctx.dataSource.query(
    `SELECT count(*)::int AS n FROM datasets d JOIN dataset_hive h ON h.id = d.id WHERE h.table_name = $1`,
    [table],
  );
  return n;
}

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  pg = await createPgSystem(ctx);
  lake = await createSystem(ctx, (await flavorByCode(ctx, 'iceberg_v2')).id);
  const dataset = await createDataset(ctx, pg.id, 'rdbms', { layer: 'source' });
  const body = {
    columns: [
      { name: 'id', nullable: false, type: { data_type: 'integer' } },
      { name: 'amount', type: { data_type: 'numeric', params: { precision: 12, scale: 2 } } },
      {
        name: 'tags',
        type: { data_type: 'array', children: [{ slot: 'item', type: { data_type: 'integer' } }] },
      },
      { name: 'doc', type: { data_type: 'jsonb' } },
      { name: 'stats', type: { data_type: 'pg_ndistinct' } },
      { name: 'name', type: { data_type: 'varchar', params: { length: 100 } } },
    ],
  };
  const { version } = ok(
    await ctx.request('POST', `${API}/datasets/${dataset.id}/schema-versions`, {
      token: ctx.userToken,
      body,
    }),
    201,
  );
  source = {
    dataset,
    schemaId: version.dataset_schema_id,
    fields: new Map(version.columns.map((c: Row) => [c.name, c.field_id])),
  };
  template = ok(
    await ctx.request('POST', `${API}/tech-field-templates`, {
      token: ctx.adminToken,
      body: {
        code: unique('lake_tech'),
        name: 'Lake technical columns',
        layer: 'raw',
        fields: [
          { name: '_batch', position: 1, type_code: 'long' },
          { name: '_loaded_at', position: 0, type_code: 'timestamptz', nullable: false },
        ],
      },
    }),
    201,
  );
});
afterAll(async () => {
  await ctx.close();
});

describe('lake-sync', () => {
  it('creates the Iceberg table, its version 1 through the cast rules, the link and the field links', async () => {
    const body = request({
      overrides: { name: { data_type_code: 'string' } },
      tech_template_id: template.id,
      tech_overrides: [{ name: '_batch', type_code: 'int' }],
      partition_cols: ['id'],
    });
    const result = ok(await sync(source.dataset.id, body), 201);
    expect(result).toMatchObject({ mapped_field_count: 6, tech_field_count: 2 });
    expect(result.warnings).toEqual([
      {
        field_name: 'doc',
        code: 'UNSAFE_CAST',
        detail: expect.stringContaining('jsonb to string is unsafe'),
      },
      { field_name: 'stats', code: 'UNSUPPORTED_TYPE_FALLBACK', detail: expect.any(String) },
      { field_name: 'name', code: 'OVERRIDE_APPLIED', detail: 'Typed string by the request.' },
    ]);

    const target = ok(
      await ctx.request('GET', `${API}/datasets/${result.target_dataset_id}`, { token: ctx.userToken }),
    );
    expect(target).toMatchObject({
      kind: 'hive',
      system_id: lake.id,
      object_name: `raw.${body.table_name}`,
      layer: 'raw',
      db_name: 'raw',
      table_name: body.table_name,
      file_format: 'iceberg',
      is_external: true,
      location: 's3://lake/raw/orders',
      partition_cols: ['id'],
    });
    const version = ok(
      await ctx.request('GET', `${API}/datasets/${result.target_dataset_id}/schema-versions/1`, {
        token: ctx.userToken,
      }),
    );
    expect(version.dataset_schema_id).toBe(result.target_dataset_schema_id);
    expect(version.columns.map((c: Row) => [c.name, c.rendered_type, c.nullable])).toEqual([
      ['id', 'int', false],
      ['amount', 'decimal(12,2)', true],
      ['tags', 'list<int>', true],
      ['doc', 'string', true],
      ['stats', 'string', true],
      ['name', 'string', true],
      ['_loaded_at', 'timestamptz', false],
      ['_batch', 'int', true],
    ]);
    const techField = ok(
      await ctx.request('GET', `${API}/fields/${version.columns[7].field_id}`, { token: ctx.userToken }),
    );
    expect(techField.origin).toBe('tech');

    const link = ok(
      await ctx.request('GET', `${API}/dataset-links/${result.dataset_link_id}`, { token: ctx.userToken }),
    );
    expect(link).toMatchObject({
      source_dataset_id: source.dataset.id,
      target_dataset_id: result.target_dataset_id,
      source_schema_id: source.schemaId,
      target_schema_id: result.target_dataset_schema_id,
      engine_id: null,
    });
    const fieldLinks = ok(
      await ctx.request('GET', `${API}/dataset-links/${result.dataset_link_id}/field-links`, {
        token: ctx.userToken,
      }),
    );
    const byTarget = new Map(version.columns.map((c: Row) => [c.field_id, c.name]));
    expect(
      fieldLinks
        .map((f: Row) => [f.source_field_id, byTarget.get(f.target_field_id)])
        .sort((a: string[], b: string[]) => a[1].localeCompare(b[1])),
    ).toEqual(['amount', 'doc', 'id', 'name', 'stats', 'tags'].map((n) => [source.fields.get(n), n]));

    // The same table again: it exists.
    expectEnvelope(await sync(source.dataset.id, { ...body }), 409, 'DATASET_ALREADY_EXISTS');
  });

  it('checks the source, the target system and the layers (the original took any layer and deleted systems)', async () => {
    expectEnvelope(await sync(UNKNOWN_ID, request()), 404, 'DATASET_NOT_FOUND');
    const bare = await createDataset(ctx, pg.id, 'rdbms', { layer: 'source' });
    expectEnvelope(await sync(bare.id, request()), 422, 'LAKE_SYNC_NO_SOURCE_SCHEMA');
    expectEnvelope(
      await sync(source.dataset.id, request({ target_system_id: UNKNOWN_ID })),
      404,
      'SYSTEM_NOT_FOUND',
    );
    expectEnvelope(
      await sync(source.dataset.id, request({ target_system_id: pg.id })),
      422,
      'LAKE_SYNC_TARGET_FLAVOR_MISMATCH',
    );
    const gone = await createSystem(ctx, (await flavorByCode(ctx, 'iceberg_v2')).id);
    ok(await ctx.request('DELETE', `${API}/systems/${gone.id}`, { token: ctx.adminToken }));
    expectEnvelope(
      await sync(source.dataset.id, request({ target_system_id: gone.id })),
      404,
      'SYSTEM_NOT_FOUND',
    );
    expectEnvelope(
      await sync(source.dataset.id, request({ target_layer: 'bronze' })),
      422,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await sync(source.dataset.id, request({ target_layer: 'source' })),
      400,
      'DATASET_LINK_LAYER_ORDER',
    );
  });

  it('checks overrides and the template before writing, and writes nothing when a later step fails', async () => {
    expectEnvelope(
      await sync(source.dataset.id, request({ overrides: { nope: { data_type_code: 'string' } } })),
      422,
      'LAKE_SYNC_UNKNOWN_OVERRIDE_FIELD',
    );
    expectEnvelope(
      await sync(source.dataset.id, request({ overrides: { id: { data_type_code: 'no_such' } } })),
      404,
      'DATA_TYPE_NOT_FOUND',
    );
    expectEnvelope(
      await sync(source.dataset.id, request({ tech_template_id: UNKNOWN_ID })),
      404,
      'TECH_FIELD_TEMPLATE_NOT_FOUND',
    );
    expectEnvelope(
      await sync(source.dataset.id, request({ target_layer: 'core', tech_template_id: template.id })),
      400,
      'TECH_FIELD_TEMPLATE_LAYER_MISMATCH',
    );
    const unresolvable = request({
      tech_template_id: template.id,
      tech_overrides: [{ name: '_batch', type_code: 'bigint' }],
    });
    expectEnvelope(await sync(source.dataset.id, unresolvable), 400, 'TECH_TYPE_CODE_NOT_RESOLVABLE');
    expect(await hiveCount(unresolvable.table_name)).toBe(0);

    // Params that do not fit the override's type fail at publish, after the dataset was inserted: rolled back.
    const late = request({
      overrides: { amount: { data_type_code: 'decimal', type_params: { precision: 'x' } } },
    });
    expectEnvelope(await sync(source.dataset.id, late), 422, 'TYPE_INSTANCE_PARAMS_INVALID');
    expect(await hiveCount(late.table_name)).toBe(0);
  });

  it('refuses a column with several cast rules into the flavor (LAKE_SYNC_AMBIGUOUS_CAST)', async () => {
    ok(
      await ctx.request('POST', `${API}/cast-rules`, {
        token: ctx.adminToken,
        body: {
          source_data_type_id: (await dataTypeOf(ctx, 'postgres14', 'integer')).id,
          target_data_type_id: (await dataTypeOf(ctx, 'iceberg_v2', 'long')).id,
          param_mapping: {},
          safety: 'implicit',
        },
      }),
      201,
    );
    const r = await sync(source.dataset.id, request());
    const envelope = expectEnvelope(r, 422, 'LAKE_SYNC_AMBIGUOUS_CAST');
    expect(envelope.details).toMatchObject({ field: 'id', candidates: ['int', 'long'] });
  });
});
