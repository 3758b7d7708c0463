// Dataflows: the write-time invariants of reference §8.7 (so that a DataCoolie start-up never fails on
// what the registry accepted) and the lineage hop a dataset-to-dataset dataflow keeps.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, flavorByCode, seedReference } from '../../helpers/catalogue.js';
import { createSystem, ok, unique } from '../../helpers/factories.js';
import {
  copyBody,
  createDataflowRequest,
  createProfile,
  createWorkspace,
  lakeTable,
  type PipelineFixture,
  pipelineFixture,
  sourceTable,
} from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

describe('/api/v1/dataflows', () => {
  let ctx: TestContext;
  let f: PipelineFixture;
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    f = await pipelineFixture(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const create = (body: Record<string, unknown>) => createDataflowRequest(ctx, body);
  const get = async (path: string) =>
    ok(await ctx.request('GET', `${API}/${path}`, { token: ctx.userToken }));

  it('creates a dataset-to-dataset dataflow with its lineage hop, reused by the next one on the pair', async () => {
    const dataflow = ok(
      await create(copyBody(f, { description: 'ERP orders to bronze', group_number: 1 })),
      201,
    );
    expect(dataflow).toMatchObject({
      workspace_id: f.workspace.id,
      stage: 'source2bronze',
      processing_mode: 'batch',
      is_active: true,
      source_kind: 'dataset',
      source_dataset_id: f.orders.id,
      source_query: null,
      source_watermark_columns: ['updated_at'],
      load_type: 'merge_upsert',
      merge_keys: ['order_id'],
      partition_columns: [],
      transform: {},
      group_number: 1,
      execution_order: null,
    });
    expect(dataflow.dataset_link_id).toEqual(expect.any(String));
    const link = await get(`dataset-links/${dataflow.dataset_link_id}`);
    expect(link).toMatchObject({ source_dataset_id: f.orders.id, target_dataset_id: f.bronzeOrders.id });
    const downstream = await get(`lineage/datasets/${f.orders.id}?direction=downstream`);
    expect(JSON.stringify(downstream)).toContain(f.bronzeOrders.id);

    const second = ok(await create(copyBody(f, { stage: 'replay' })), 201);
    expect(second.dataset_link_id).toBe(dataflow.dataset_link_id);
    expect(await get(`dataflows/${dataflow.id}`)).toEqual(dataflow);
  });

  it('stands without a link when lineage rules cannot be met (no layer order, no version)', async () => {
    const unversioned = await lakeTable(ctx, f.lakeSystem.id, `s3://lake/bronze/erp/${unique('raw')}`, false);
    const dataflow = ok(
      await create(copyBody(f, { destination_dataset_id: unversioned.id, merge_keys: [] })),
      201,
    );
    expect(dataflow.dataset_link_id).toBeNull();
  });

  it('reads a query or a function instead of a dataset, through a fitting profile', async () => {
    const query = ok(
      await create(
        copyBody(f, {
          source_dataset_id: null,
          source_query: 'select * from sales.orders',
          source_watermark_columns: [],
        }),
      ),
      201,
    );
    expect(query).toMatchObject({ source_kind: 'query', source_dataset_id: null, dataset_link_id: null });
    // A function source needs a function profile, and a function profile reads functions only.
    expectEnvelope(
      await create(copyBody(f, { source_dataset_id: null, source_python_function: 'jobs.extract.orders' })),
      422,
      'DATAFLOW_SOURCE_INVALID',
    );
    const fn = await createProfile(ctx, f.workspace.id, f.pgSystem.id, {
      connection_type: 'function',
      format: 'function',
    });
    const functional = ok(
      await create(
        copyBody(f, {
          source_connection_id: fn.id,
          source_dataset_id: null,
          source_python_function: 'jobs.extract.orders',
          source_watermark_columns: [],
        }),
      ),
      201,
    );
    expect(functional.source_kind).toBe('function');
    expectEnvelope(
      await create(
        copyBody(f, { source_connection_id: fn.id, source_dataset_id: null, source_query: 'select 1' }),
      ),
      422,
      'DATAFLOW_SOURCE_INVALID',
    );
  });

  it('reads exactly one of a dataset, a query and a function', async () => {
    expectEnvelope(await create(copyBody(f, { source_query: 'select 1' })), 422, 'DATAFLOW_SOURCE_INVALID');
    expectEnvelope(await create(copyBody(f, { source_dataset_id: null })), 422, 'DATAFLOW_SOURCE_INVALID');
  });

  it("keeps a dataflow's profiles in its workspace", async () => {
    const other = await createWorkspace(ctx);
    const foreign = await createProfile(ctx, other.id, f.pgSystem.id);
    const body = expectEnvelope(
      await create(copyBody(f, { source_connection_id: foreign.id })),
      422,
      'DATAFLOW_WORKSPACE_MISMATCH',
    );
    expect(body.details).toMatchObject({ role: 'source', connection_id: foreign.id });
    expectEnvelope(
      await create(copyBody(f, { destination_connection_id: '00000000-0000-4000-8000-000000000009' })),
      404,
      'CONNECTION_PROFILE_NOT_FOUND',
    );
    expectEnvelope(await create(copyBody(f, { workspace_id: other.id })), 422, 'DATAFLOW_WORKSPACE_MISMATCH');
  });

  it('addresses datasets through their profiles (reference §8.3) or refuses them', async () => {
    // On another system than the profile's.
    const otherPg = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id);
    const elsewhere = await sourceTable(ctx, otherPg.id, unique('t'));
    let body = expectEnvelope(
      await create(copyBody(f, { source_dataset_id: elsewhere.id })),
      422,
      'DATAFLOW_DATASET_MISMATCH',
    );
    expect(body.detail).toContain('not on the system');
    // Outside the profile's base_path.
    const outside = await lakeTable(ctx, f.lakeSystem.id, `s3://other/${unique('t')}`, false);
    body = expectEnvelope(
      await create(copyBody(f, { destination_dataset_id: outside.id, merge_keys: [] })),
      422,
      'DATAFLOW_DATASET_MISMATCH',
    );
    expect(body.detail).toContain("not below the connection's base_path");
    // Another format than the profile's.
    const parquet = await createDataset(ctx, f.lakeSystem.id, 'storage', {
      path: `s3://lake/bronze/${unique('p')}`,
      file_format: 'parquet',
      layer: 'raw',
    });
    expectEnvelope(
      await create(copyBody(f, { destination_dataset_id: parquet.id, merge_keys: [] })),
      422,
      'DATAFLOW_DATASET_MISMATCH',
    );
    // A database profile of another database than the table's catalog.
    const catalogued = await createDataset(ctx, f.pgSystem.id, 'rdbms', {
      catalog_name: 'hr',
      layer: 'source',
    });
    expectEnvelope(
      await create(copyBody(f, { source_dataset_id: catalogued.id, source_watermark_columns: [] })),
      422,
      'DATAFLOW_DATASET_MISMATCH',
    );
  });

  it("applies DataCoolie's dataflow rules and reports them with DataCoolie's messages", async () => {
    let body = expectEnvelope(
      await create(
        copyBody(f, { destination_configure: { replace_by_watermark: true }, load_type: 'merge_overwrite' }),
      ),
      422,
      'DATAFLOW_INVALID',
    );
    expect(body.detail).toBe(
      'replace_by_watermark requires date_backward on the source to ensure the read window covers the delete scope',
    );
    body = expectEnvelope(
      await create(
        copyBody(f, {
          source_configure: { backward_days: 2 },
          destination_configure: { replace_by_watermark: true },
          load_type: 'append',
        }),
      ),
      422,
      'DATAFLOW_INVALID',
    );
    expect(body.detail).toBe(
      "replace_by_watermark is only supported with merge_overwrite load_type, got 'append'",
    );
    ok(
      await create(
        copyBody(f, {
          source_configure: { backward_days: 2 },
          destination_configure: { replace_by_watermark: true },
          load_type: 'merge_overwrite',
        }),
      ),
      201,
    );
    body = expectEnvelope(
      await create(copyBody(f, { transform: { select_columns: ['a'], drop_columns: ['b'] } })),
      422,
      'DATAFLOW_INVALID',
    );
    expect(body.details.datacoolie_error).toBe('ConfigurationError');
    body = expectEnvelope(
      await create(
        copyBody(f, {
          transform: {
            schema_hints: [
              { column_name: 'a', data_type: 'int' },
              { column_name: 'A', data_type: 'int' },
            ],
          },
        }),
      ),
      422,
      'DATAFLOW_INVALID',
    );
    expect(body.detail).toContain('schema_hints must not contain duplicate columns');
    body = expectEnvelope(
      await create(
        copyBody(f, {
          source_dataset_id: null,
          source_query: '/etc/orders.sql',
          source_watermark_columns: [],
        }),
      ),
      422,
      'DATAFLOW_INVALID',
    );
    expect(body.detail).toContain("Invalid SQL file reference '/etc/orders.sql'");
    // Stage filters are comma lists: a comma in a stage is refused; so is a load type DataCoolie lacks.
    expectEnvelope(await create(copyBody(f, { stage: 'a,b' })), 422, 'VALIDATION_ERROR');
    expectEnvelope(await create(copyBody(f, { load_type: 'upsert' })), 422, 'VALIDATION_ERROR');
  });

  it("names only columns of the datasets' current versions (case-insensitively)", async () => {
    const body = expectEnvelope(
      await create(
        copyBody(f, {
          source_watermark_columns: ['changed_at'],
          merge_keys: ['ORDER_ID', 'customer_id'],
          partition_columns: [
            { column: 'order_day' },
            { column: 'order_year', expression: 'year(updated_at)' },
          ],
        }),
      ),
      422,
      'DATAFLOW_UNKNOWN_COLUMNS',
    );
    expect(body.details).toEqual({
      source_watermark_columns: ['changed_at'],
      merge_keys: ['customer_id'],
      partition_columns: ['order_day'],
    });
    ok(
      await create(
        copyBody(f, {
          merge_keys: ['ORDER_ID'],
          partition_columns: [{ column: 'order_year', expression: 'year(updated_at)' }],
        }),
      ),
      201,
    );
  });

  it('keeps schema-hint keys unambiguous among the source tables of a profile', async () => {
    const upper = await sourceTable(ctx, f.pgSystem.id, 'Invoices');
    const lower = await sourceTable(ctx, f.pgSystem.id, 'invoices');
    ok(await create(copyBody(f, { source_dataset_id: upper.id })), 201);
    // Same dataset again: fine. Another dataset with the same key: its hints would merge.
    ok(await create(copyBody(f, { source_dataset_id: upper.id })), 201);
    const body = expectEnvelope(
      await create(copyBody(f, { source_dataset_id: lower.id })),
      409,
      'DATAFLOW_SOURCE_KEY_CONFLICT',
    );
    expect(body.details).toMatchObject({
      conflicting_dataset_id: upper.id,
      schema_name: 'sales',
      table: 'invoices',
    });
    // Another schema with the same table name is a distinct key.
    const archived = await sourceTable(ctx, f.pgSystem.id, 'invoices', 'archive');
    ok(await create(copyBody(f, { source_dataset_id: archived.id })), 201);
    // A lakehouse table read without a schema would make the lookup ambiguous next to one with a schema.
    const withSchema = await lakeTable(ctx, f.lakeSystem.id, 's3://lake/bronze/crm/customers');
    const withoutSchema = await lakeTable(ctx, f.lakeSystem.id, 's3://lake/bronze/customers');
    const lakeRead = {
      source_connection_id: f.bronze.id,
      destination_dataset_id: f.bronzeOrders.id,
      merge_keys: [],
    };
    ok(await create(copyBody(f, { ...lakeRead, source_dataset_id: withSchema.id })), 201);
    expectEnvelope(
      await create(copyBody(f, { ...lakeRead, source_dataset_id: withoutSchema.id })),
      409,
      'DATAFLOW_SOURCE_KEY_CONFLICT',
    );
  });

  it('keeps names unique per workspace, and keeps a given dataflow_id (watermarks are keyed by it)', async () => {
    const name = unique('flow');
    ok(await create(copyBody(f, { name })), 201);
    expectEnvelope(await create(copyBody(f, { name })), 409, 'DATAFLOW_ALREADY_EXISTS');
    const id = '1c172c53-13ba-5273-8d8f-66e8d480ccf5';
    expect(ok(await create(copyBody(f, { id })), 201).id).toBe(id);
    expectEnvelope(await create(copyBody(f, { id })), 409, 'DATAFLOW_ALREADY_EXISTS');
  });

  it('updates: a new source replaces the old one, and the lineage hop follows', async () => {
    const dataflow = ok(await create(copyBody(f)), 201);
    const toQuery = ok(
      await ctx.request('PATCH', `${API}/dataflows/${dataflow.id}`, {
        token: ctx.userToken,
        body: { source_query: 'select 1', source_watermark_columns: [], row_version: 1 },
      }),
    );
    expect(toQuery).toMatchObject({
      source_kind: 'query',
      source_dataset_id: null,
      dataset_link_id: null,
      row_version: 2,
    });
    const back = ok(
      await ctx.request('PUT', `${API}/dataflows/${dataflow.id}`, {
        token: ctx.userToken,
        body: { source_dataset_id: f.orders.id, row_version: 2 },
      }),
    );
    expect(back).toMatchObject({
      source_kind: 'dataset',
      source_query: null,
      dataset_link_id: dataflow.dataset_link_id,
    });
    expectEnvelope(
      await ctx.request('PATCH', `${API}/dataflows/${dataflow.id}`, {
        token: ctx.userToken,
        body: { workspace_id: f.workspace.id, row_version: 3 },
      }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('guards its datasets and profiles, and is checked again on restore', async () => {
    const destination = await lakeTable(ctx, f.lakeSystem.id, `s3://lake/bronze/erp/${unique('g')}`, false);
    const dataflow = ok(
      await create(
        copyBody(f, {
          source_dataset_id: null,
          source_query: 'select 1',
          source_watermark_columns: [],
          destination_dataset_id: destination.id,
          merge_keys: [],
        }),
      ),
      201,
    );
    const admin = { token: ctx.adminToken };
    expectEnvelope(
      await ctx.request('DELETE', `${API}/datasets/${destination.id}`, admin),
      409,
      'HAS_DEPENDENT_ENTITIES',
    );
    expectEnvelope(
      await ctx.request('DELETE', `${API}/dataflows/${dataflow.id}`, { token: ctx.userToken }),
      403,
      'FORBIDDEN',
    );
    ok(await ctx.request('DELETE', `${API}/dataflows/${dataflow.id}`, admin));
    expectEnvelope(
      await ctx.request('GET', `${API}/dataflows/${dataflow.id}`, { token: ctx.userToken }),
      404,
      'DATAFLOW_NOT_FOUND',
    );
    ok(await ctx.request('DELETE', `${API}/datasets/${destination.id}`, admin));
    expectEnvelope(
      await ctx.request('POST', `${API}/dataflows/${dataflow.id}/restore`, admin),
      404,
      'DATASET_NOT_FOUND',
    );
    ok(await ctx.request('POST', `${API}/datasets/${destination.id}/restore`, admin));
    const restored = ok(await ctx.request('POST', `${API}/dataflows/${dataflow.id}/restore`, admin));
    expect(restored.deleted_at).toBeNull();
  });

  it('lists by workspace, stage and source, and answers 401 / 404', async () => {
    const ws = await createWorkspace(ctx);
    const erp = await createProfile(ctx, ws.id, f.pgSystem.id, { database: 'erp' });
    const bronze = await createProfile(ctx, ws.id, f.lakeSystem.id, {
      connection_type: 'lakehouse',
      format: 'delta',
      configure: { base_path: 's3://lake/bronze' },
    });
    const scoped = { ...f, workspace: ws, erp, bronze };
    const a = ok(await create(copyBody(scoped, { stage: 'bronze2silver' })), 201);
    ok(await create(copyBody(scoped, { stage: 'silver2gold' })), 201);
    const page = await get(`dataflows?workspace_id=${ws.id}&stage=bronze2silver`);
    expect(page.items.map((d: { id: string }) => d.id)).toEqual([a.id]);
    expect((await get(`dataflows?workspace_id=${ws.id}&source_kind=dataset`)).total).toBe(2);
    expectEnvelope(await ctx.request('GET', `${API}/dataflows`, {}), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await ctx.request('GET', `${API}/dataflows/00000000-0000-4000-8000-00000000000a`, {
        token: ctx.userToken,
      }),
      404,
      'DATAFLOW_NOT_FOUND',
    );
  });
});
