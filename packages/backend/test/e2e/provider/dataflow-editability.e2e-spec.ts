// Issue 26 item 3: a dataflow written from a valid DataCoolie document stays editable when a schema
// version published later lacks a column it names. Column checks (reference §8.7, a registry-only
// check) look at the names a write introduces; a profile edit re-checks its dataflows for what the
// profile determines, and an unchanged one is always accepted.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, type Row } from '../../helpers/catalogue.js';
import { ok, unique } from '../../helpers/factories.js';
import { type ColumnSpec, publishVersion } from '../../helpers/lineage.js';
import {
  createDataflowRequest,
  createProfile,
  createWorkspace,
  pipelineFixture,
  seedReference,
  type PipelineFixture,
} from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

/** The DataCoolie-shaped workspace of the issue: a lakehouse with bronze.orders and silver.orders. */
interface Accounting {
  f: PipelineFixture;
  lakehouse: Row;
  bronzeOrders: Row;
  silverOrders: Row;
  dataflow: Row;
}

describe('a dataflow stays editable when the schema moves under its columns', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const patch = (path: string, body: Record<string, unknown>) =>
    ctx.request('PATCH', `${API}/${path}`, { token: ctx.userToken, body });

  const ordersTable = (systemId: string, path: string) =>
    createDataset(ctx, systemId, 'storage', {
      object_name: path,
      path,
      file_format: 'delta',
      partition_by: null,
      layer: 'raw',
    });

  /**
   * Profiles and datasets as an import leaves them (datasets without versions), the dataflow
   * acc_orders_bronze2silver watermarked on modified_at, then a version of bronze.orders without it.
   */
  async function accounting(): Promise<Accounting> {
    const f = await pipelineFixture(ctx);
    const base = `s3://lake/${unique('acc')}`;
    const lakehouse = await createProfile(ctx, f.workspace.id, f.lakeSystem.id, {
      name: 'acc_lakehouse',
      connection_type: 'lakehouse',
      format: 'delta',
      configure: { base_path: base },
    });
    const bronzeOrders = await ordersTable(f.lakeSystem.id, `${base}/bronze/orders`);
    const silverOrders = await ordersTable(f.lakeSystem.id, `${base}/silver/orders`);
    const dataflow = ok(
      await createDataflowRequest(ctx, {
        workspace_id: f.workspace.id,
        name: 'acc_orders_bronze2silver',
        stage: 'bronze2silver',
        description: 'Orders to silver',
        source_connection_id: lakehouse.id,
        source_dataset_id: bronzeOrders.id,
        source_watermark_columns: ['modified_at'],
        destination_connection_id: lakehouse.id,
        destination_dataset_id: silverOrders.id,
        load_type: 'merge_upsert',
        merge_keys: ['order_id'],
        partition_columns: [{ column: 'order_date' }],
      }),
      201,
    );
    const threeColumns: ColumnSpec[] = [
      ['order_id', 'long', undefined, true],
      ['amount', 'decimal'],
      ['order_date', 'timestamp'],
    ];
    await publishVersion(ctx, bronzeOrders.id, threeColumns);
    await publishVersion(ctx, silverOrders.id, threeColumns);
    return { f, lakehouse, bronzeOrders, silverOrders, dataflow };
  }

  it("edits a dataflow's description and name though the source's version lacks its watermark column", async () => {
    const { dataflow } = await accounting();
    const edited = ok(
      await patch(`dataflows/${dataflow.id}`, {
        description: 'Orders to silver, deduplicated',
        row_version: dataflow.row_version,
      }),
    );
    expect(edited).toMatchObject({
      description: 'Orders to silver, deduplicated',
      source_watermark_columns: ['modified_at'],
    });
    // Naming the kept columns again (any case) introduces nothing either.
    const again = ok(
      await patch(`dataflows/${dataflow.id}`, {
        name: 'acc_orders_bronze2silver_v2',
        source_watermark_columns: ['MODIFIED_AT'],
        merge_keys: ['order_id'],
        row_version: edited.row_version,
      }),
    );
    expect(again).toMatchObject({
      name: 'acc_orders_bronze2silver_v2',
      source_watermark_columns: ['MODIFIED_AT'],
    });
  });

  it('refuses column names a write introduces that the current versions lack, and only those', async () => {
    const { f, lakehouse, bronzeOrders, silverOrders, dataflow } = await accounting();
    const body = expectEnvelope(
      await patch(`dataflows/${dataflow.id}`, {
        source_watermark_columns: ['modified_at', 'changed_at'],
        merge_keys: ['order_id', 'customer_id'],
        partition_columns: [{ column: 'order_date' }, { column: 'region' }],
        row_version: dataflow.row_version,
      }),
      422,
      'DATAFLOW_UNKNOWN_COLUMNS',
    );
    expect(body.details).toEqual({
      source_watermark_columns: ['changed_at'],
      merge_keys: ['customer_id'],
      partition_columns: ['region'],
    });
    // A name of the current version is accepted next to a kept one.
    const edited = ok(
      await patch(`dataflows/${dataflow.id}`, {
        source_watermark_columns: ['modified_at', 'order_date'],
        row_version: dataflow.row_version,
      }),
    );
    expect(edited.source_watermark_columns).toEqual(['modified_at', 'order_date']);
    // Reading another dataset introduces every watermark column: they are that dataset's now.
    const other = await ordersTable(f.lakeSystem.id, `${lakehouse.configure.base_path}/bronze/returns`);
    await publishVersion(ctx, other.id, [['order_id', 'long', undefined, true]]);
    const moved = expectEnvelope(
      await patch(`dataflows/${dataflow.id}`, {
        source_dataset_id: other.id,
        row_version: edited.row_version,
      }),
      422,
      'DATAFLOW_UNKNOWN_COLUMNS',
    );
    expect(moved.details).toEqual({ source_watermark_columns: ['modified_at', 'order_date'] });
    // A new dataflow introduces all its names.
    const created = expectEnvelope(
      await createDataflowRequest(ctx, {
        workspace_id: f.workspace.id,
        name: 'acc_orders_replay',
        source_connection_id: lakehouse.id,
        source_dataset_id: bronzeOrders.id,
        source_watermark_columns: ['modified_at'],
        destination_connection_id: lakehouse.id,
        destination_dataset_id: silverOrders.id,
      }),
      422,
      'DATAFLOW_UNKNOWN_COLUMNS',
    );
    expect(created.details).toEqual({ source_watermark_columns: ['modified_at'] });
  });

  it('accepts any column names on datasets without a schema version, in any workspace', async () => {
    const first = await accounting();
    const second = await createWorkspace(ctx);
    const base = first.lakehouse.configure.base_path as string;
    const lakehouse = await createProfile(ctx, second.id, first.f.lakeSystem.id, {
      name: 'acc_lakehouse',
      connection_type: 'lakehouse',
      format: 'delta',
      configure: { base_path: base },
    });
    const gold = await ordersTable(first.f.lakeSystem.id, `${base}/gold/orders`);
    const platinum = await ordersTable(first.f.lakeSystem.id, `${base}/platinum/orders`);
    const dataflow = ok(
      await createDataflowRequest(ctx, {
        workspace_id: second.id,
        name: 'acc_orders_bronze2silver',
        source_connection_id: lakehouse.id,
        source_dataset_id: gold.id,
        source_watermark_columns: ['modified_at'],
        destination_connection_id: lakehouse.id,
        destination_dataset_id: platinum.id,
        load_type: 'merge_upsert',
        merge_keys: ['anything'],
        partition_columns: [{ column: 'whatever' }],
      }),
      201,
    );
    const edited = ok(
      await patch(`dataflows/${dataflow.id}`, {
        source_watermark_columns: ['changed_at'],
        merge_keys: ['order_key'],
        row_version: dataflow.row_version,
      }),
    );
    expect(edited).toMatchObject({ source_watermark_columns: ['changed_at'], merge_keys: ['order_key'] });
  });

  it('restores a deleted dataflow whose columns a later version lacks', async () => {
    const { dataflow } = await accounting();
    ok(await ctx.request('DELETE', `${API}/dataflows/${dataflow.id}`, { token: ctx.adminToken }));
    const restored = ok(
      await ctx.request('POST', `${API}/dataflows/${dataflow.id}/restore`, { token: ctx.adminToken }),
    );
    expect(restored).toMatchObject({ id: dataflow.id, source_watermark_columns: ['modified_at'] });
  });

  it('accepts an unchanged profile edit, and a change that breaks no dataflow', async () => {
    const { lakehouse, dataflow } = await accounting();
    const unchanged = ok(
      await patch(`connection-profiles/${lakehouse.id}`, {
        name: lakehouse.name,
        connection_type: lakehouse.connection_type,
        format: lakehouse.format,
        configure: lakehouse.configure,
        use_schema_hint: lakehouse.use_schema_hint,
        is_active: lakehouse.is_active,
        row_version: lakehouse.row_version,
      }),
    );
    expect(unchanged).toMatchObject({
      configure: lakehouse.configure,
      row_version: lakehouse.row_version + 1,
    });
    // A real change is re-checked for what the profile determines, not for the datasets' columns.
    const changed = ok(
      await patch(`connection-profiles/${lakehouse.id}`, {
        use_schema_hint: false,
        description: 'Accounting lakehouse',
        row_version: unchanged.row_version,
      }),
    );
    expect(changed).toMatchObject({ use_schema_hint: false, description: 'Accounting lakehouse' });
    // The dataflow is untouched and still editable.
    const current = ok(await ctx.request('GET', `${API}/dataflows/${dataflow.id}`, { token: ctx.userToken }));
    expect(current.source_watermark_columns).toEqual(['modified_at']);
  });

  it('still refuses a profile edit that would break its dataflows', async () => {
    const { f, lakehouse, dataflow } = await accounting();
    const base = lakehouse.configure.base_path as string;
    // The tables are delta: an iceberg profile no longer reaches them.
    const format = expectEnvelope(
      await patch(`connection-profiles/${lakehouse.id}`, {
        format: 'iceberg',
        row_version: lakehouse.row_version,
      }),
      422,
      'DATAFLOW_INVALID',
    );
    expect(format.details).toMatchObject({
      dataflow_id: dataflow.id,
      cause: { error_code: 'DATAFLOW_DATASET_MISMATCH' },
    });
    // Nor does a base_path the tables are not below.
    const moved = expectEnvelope(
      await patch(`connection-profiles/${lakehouse.id}`, {
        configure: { base_path: 's3://elsewhere' },
        row_version: lakehouse.row_version,
      }),
      422,
      'DATAFLOW_INVALID',
    );
    expect(moved.details.cause.error_code).toBe('DATAFLOW_DATASET_MISMATCH');
    // Nor one whose base_path would make two source tables' hint keys ambiguous.
    const raw = await createProfile(ctx, f.workspace.id, f.lakeSystem.id, {
      name: 'acc_raw',
      connection_type: 'lakehouse',
      format: 'delta',
      configure: { base_path: `${base}/raw` },
    });
    const all = await ordersTable(f.lakeSystem.id, `${base}/raw/erp/orders_all`);
    for (const path of [`${base}/raw/erp/orders`, `${base}/raw/erp/eu/orders`]) {
      const source = await ordersTable(f.lakeSystem.id, path);
      ok(
        await createDataflowRequest(ctx, {
          workspace_id: f.workspace.id,
          name: unique('acc_orders_raw'),
          source_connection_id: raw.id,
          source_dataset_id: source.id,
          destination_connection_id: raw.id,
          destination_dataset_id: all.id,
        }),
        201,
      );
    }
    const keys = expectEnvelope(
      await patch(`connection-profiles/${raw.id}`, {
        configure: { base_path: `${base}/raw/erp` },
        row_version: raw.row_version,
      }),
      422,
      'DATAFLOW_INVALID',
    );
    expect(keys.details.cause.error_code).toBe('DATAFLOW_SOURCE_KEY_CONFLICT');
    // DataCoolie's own rules still apply to the profile itself.
    expectEnvelope(
      await patch(`connection-profiles/${lakehouse.id}`, {
        format: 'csv',
        row_version: lakehouse.row_version,
      }),
      422,
      'CONNECTION_PROFILE_INVALID',
    );
  });
});
