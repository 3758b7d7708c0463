// /tech-field-templates: presets of technical columns for one layer (AIDE v2 §2.4.15), and applying one
// to a dataset (§9.3): template fields become root fields with origin `tech`, idempotently.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  createDataset,
  createField,
  createPgSystem,
  dataTypeOf,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { ok, unique, UNKNOWN_ID } from '../../helpers/factories.js';
import { ADMIN, createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;
beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const templates = `${API}/tech-field-templates`;
const applyPath = (datasetId: string) => `${API}/datasets/${datasetId}/apply-tech-template`;

const LOADED_AT = {
  name: 'load_ts',
  position: 1,
  type_code: 'timestamptz',
  nullable: false,
  default_value: 'now()',
  comment: 'Load time',
};
const BATCH = { name: 'batch_id', position: 0, type_code: 'bigint' };

async function createTemplate(overrides: Record<string, unknown> = {}): Promise<Row> {
  const body = {
    code: unique('tft'),
    name: 'Raw technical columns',
    layer: 'raw',
    fields: [LOADED_AT, BATCH],
    ...overrides,
  };
  return ok(await ctx.request('POST', templates, { token: ctx.adminToken, body }), 201);
}

function apply(datasetId: string, body: Record<string, unknown>, token = ctx.adminToken) {
  return ctx.request('POST', applyPath(datasetId), { token, body });
}

async function rootFields(datasetId: string): Promise<Row[]> {
  return ok(
    await ctx.request('GET', `${API}/fields?dataset_id=${datasetId}&sort=name`, { token: ctx.userToken }),
  ).items;
}

describe('tech-field templates', () => {
  it('creates a template with its fields ordered by position, defaults filled, and reads it back', async () => {
    const created = await createTemplate({ note: 'n' });
    expect(created).toEqual({
      id: expect.any(String),
      code: created.code,
      name: 'Raw technical columns',
      layer: 'raw',
      fields: [
        { ...BATCH, type_params: null, nullable: true, default_value: null, comment: null },
        { ...LOADED_AT, type_params: null },
      ],
      note: 'n',
      row_version: 1,
      created_by: ADMIN.id,
      updated_by: ADMIN.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(ok(await ctx.request('GET', `${templates}/${created.id}`, { token: ctx.userToken }))).toEqual(
      created,
    );
    const listed = ok(
      await ctx.request('GET', `${templates}?code=${created.code}&layer=raw`, { token: ctx.userToken }),
    );
    expect(listed.items).toEqual([created]);
  });

  it('refuses a duplicate code (409), a duplicate field name (409) and a duplicate position (422)', async () => {
    const t = await createTemplate();
    expectEnvelope(
      await ctx.request('POST', templates, {
        token: ctx.adminToken,
        body: { code: t.code, name: 'x', layer: 'raw' },
      }),
      409,
      'TECH_FIELD_TEMPLATE_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', templates, {
        token: ctx.adminToken,
        body: { code: unique('tft'), name: 'x', layer: 'raw', fields: [BATCH, { ...BATCH, position: 5 }] },
      }),
      409,
      'TECH_FIELD_TEMPLATE_FIELD_ALREADY_EXISTS',
    );
    expectEnvelope(
      await ctx.request('POST', templates, {
        token: ctx.adminToken,
        body: {
          code: unique('tft'),
          name: 'x',
          layer: 'raw',
          fields: [BATCH, { ...LOADED_AT, position: 0 }],
        },
      }),
      422,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await ctx.request('POST', templates, {
        token: ctx.adminToken,
        body: { code: unique('tft'), name: 'x', layer: 'gold' },
      }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('updates with optimistic concurrency, replaces the fields, and hard-deletes', async () => {
    const t = await createTemplate();
    const updated = ok(
      await ctx.request('PATCH', `${templates}/${t.id}`, {
        token: ctx.adminToken,
        body: { row_version: 1, name: 'Renamed', fields: [BATCH] },
      }),
    );
    expect(updated).toMatchObject({ name: 'Renamed', row_version: 2, fields: [{ name: 'batch_id' }] });
    expect(updated.fields).toHaveLength(1);
    expectEnvelope(
      await ctx.request('PATCH', `${templates}/${t.id}`, {
        token: ctx.adminToken,
        body: { row_version: 1, name: 'Stale' },
      }),
      409,
      'VERSION_CONFLICT',
    );
    expect(ok(await ctx.request('DELETE', `${templates}/${t.id}`, { token: ctx.adminToken })).id).toBe(t.id);
    expectEnvelope(
      await ctx.request('GET', `${templates}/${t.id}`, { token: ctx.userToken }),
      404,
      'TECH_FIELD_TEMPLATE_NOT_FOUND',
    );
  });

  it('lets only superusers write (401 anonymous, 403 regular user)', async () => {
    const body = { code: unique('tft'), name: 'x', layer: 'raw' };
    expect((await ctx.request('POST', templates, { body })).status).toBe(401);
    expectEnvelope(await ctx.request('POST', templates, { token: ctx.userToken, body }), 403, 'FORBIDDEN');
  });
});

describe('apply-tech-template', () => {
  it('adds the template fields as tech fields with the resolved type, and re-applying changes nothing', async () => {
    const t = await createTemplate();
    const dataset = await createDataset(ctx, system.id, 'rdbms', { layer: 'raw' });
    const first = ok(await apply(dataset.id, { template_id: t.id }));
    expect(first.skipped).toEqual([]);
    expect(first.created.map((f: Row) => f.name)).toEqual(['batch_id', 'load_ts']);
    const loadTs = first.created.find((f: Row) => f.name === 'load_ts');
    expect(loadTs).toMatchObject({
      dataset_id: dataset.id,
      parent_id: null,
      origin: 'tech',
      extra: {
        data_type_id: (await dataTypeOf(ctx, 'postgres14', 'timestamptz')).id,
        tech_type_code: 'timestamptz',
        nullable: false,
        default_value: 'now()',
        comment: 'Load time',
        tech_template_id: t.id,
      },
    });

    const before = await rootFields(dataset.id);
    const second = ok(await apply(dataset.id, { template_id: t.id }));
    expect(second).toEqual({ created: [], skipped: ['batch_id', 'load_ts'] });
    expect(await rootFields(dataset.id)).toEqual(before);
  });

  it('creates each field once when two applies race (the dataset field tree is locked)', async () => {
    const t = await createTemplate();
    const dataset = await createDataset(ctx, system.id, 'rdbms', { layer: 'raw' });
    const results = await Promise.all([1, 2, 3].map(() => apply(dataset.id, { template_id: t.id })));
    const bodies = results.map((r) => ok(r));
    expect(bodies.flatMap((b) => b.created.map((f: Row) => f.name)).sort()).toEqual(['batch_id', 'load_ts']);
    expect((await rootFields(dataset.id)).map((f) => f.name)).toEqual(['batch_id', 'load_ts']);
  });

  it('skips a template field whose name is already a root field and applies a type override', async () => {
    const t = await createTemplate();
    const dataset = await createDataset(ctx, system.id, 'rdbms', { layer: 'raw' });
    const own = await createField(ctx, dataset.id, { name: 'batch_id' });
    const r = ok(await apply(dataset.id, { template_id: t.id, type_overrides: { load_ts: 'timestamp' } }));
    expect(r.skipped).toEqual(['batch_id']);
    expect(r.created).toHaveLength(1);
    expect(r.created[0].extra.tech_type_code).toBe('timestamp');
    const fields = await rootFields(dataset.id);
    expect(fields.find((f) => f.name === 'batch_id')).toEqual(own);
  });

  it('fails whole when one type code does not resolve on the dataset flavor (400), creating nothing', async () => {
    const t = await createTemplate({
      fields: [BATCH, { name: 'weird', position: 2, type_code: 'no_such_type' }],
    });
    const dataset = await createDataset(ctx, system.id, 'rdbms', { layer: 'raw' });
    expectEnvelope(await apply(dataset.id, { template_id: t.id }), 400, 'TECH_TYPE_CODE_NOT_RESOLVABLE');
    expect(await rootFields(dataset.id)).toEqual([]);
  });

  it('refuses a layer mismatch (also a dataset without layer), unknown ids, unknown overrides and non-superusers', async () => {
    const t = await createTemplate();
    const core = await createDataset(ctx, system.id, 'rdbms', { layer: 'core' });
    const noLayer = await createDataset(ctx, system.id, 'rdbms', { layer: null });
    const raw = await createDataset(ctx, system.id, 'rdbms', { layer: 'raw' });
    expectEnvelope(await apply(core.id, { template_id: t.id }), 400, 'TECH_FIELD_TEMPLATE_LAYER_MISMATCH');
    expectEnvelope(await apply(noLayer.id, { template_id: t.id }), 400, 'TECH_FIELD_TEMPLATE_LAYER_MISMATCH');
    expectEnvelope(await apply(UNKNOWN_ID, { template_id: t.id }), 404, 'DATASET_NOT_FOUND');
    expectEnvelope(await apply(raw.id, { template_id: UNKNOWN_ID }), 404, 'TECH_FIELD_TEMPLATE_NOT_FOUND');
    expectEnvelope(
      await apply(raw.id, { template_id: t.id, type_overrides: { nope: 'bigint' } }),
      422,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await apply(raw.id, { template_id: t.id }, ctx.userToken), 403, 'FORBIDDEN');
    expect(await rootFields(raw.id)).toEqual([]);
  });

  it('leaves applied fields alone when the template changes afterwards', async () => {
    const t = await createTemplate();
    const dataset = await createDataset(ctx, system.id, 'rdbms', { layer: 'raw' });
    ok(await apply(dataset.id, { template_id: t.id }));
    const before = await rootFields(dataset.id);
    ok(
      await ctx.request('PATCH', `${templates}/${t.id}`, {
        token: ctx.adminToken,
        body: { row_version: 1, fields: [{ ...BATCH, type_code: 'integer' }] },
      }),
    );
    ok(await ctx.request('DELETE', `${templates}/${t.id}`, { token: ctx.adminToken }));
    expect(await rootFields(dataset.id)).toEqual(before);
  });
});
