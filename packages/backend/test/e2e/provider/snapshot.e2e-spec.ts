// The workspace snapshot (reference §8.6 item 2): the complete DataCoolie scope read in one
// transaction — connections exported from profiles and systems, dataflows with addressed ends, schema
// hints from the source datasets' current versions — every item valid for DataCoolie's models, and a
// revision that changes exactly when the metadata does.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createConnection, createDataflow, createSchemaHint } from '@aide/schemas/datacoolie';
import type { DataCoolieSnapshot } from '@aide/schemas';
import { API, seedReference } from '../../helpers/catalogue.js';
import { createCredentialRef, ok, unique } from '../../helpers/factories.js';
import { publishVersion } from '../../helpers/lineage.js';
import {
  copyBody,
  createDataflowRequest,
  createProfile,
  type PipelineFixture,
  pipelineFixture,
} from '../../helpers/provider.js';
import { createTestContext, type TestContext } from '../../helpers/test-app.js';
import { WorkspaceSnapshotService } from '../../../src/modules/datacoolie/workspace-snapshot.service.js';

/** Every item of a snapshot builds with DataCoolie's own models (dataflow connections expanded). */
function expectValidForDataCoolie(snapshot: DataCoolieSnapshot): void {
  const connections = new Map(snapshot.connections.map((c) => [c.connection_id, createConnection(c)]));
  for (const dataflow of snapshot.dataflows) {
    const { connection_id: s, ...source } = dataflow.source;
    const { connection_id: d, ...destination } = dataflow.destination;
    createDataflow({
      ...dataflow,
      source: { ...source, connection: connections.get(s) },
      destination: { ...destination, connection: connections.get(d) },
    });
  }
  for (const group of snapshot.schema_hints) {
    expect(connections.has(group.connection_id)).toBe(true);
    group.hints.forEach((h) => createSchemaHint(h));
  }
}

describe('workspace snapshot', () => {
  let ctx: TestContext;
  let f: PipelineFixture;
  let snapshots: WorkspaceSnapshotService;
  let flow: { id: string; name: string };
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    f = await pipelineFixture(ctx);
    snapshots = ctx.app.get(WorkspaceSnapshotService);
    flow = ok(
      await createDataflowRequest(ctx, copyBody(f, { description: 'orders', execution_order: 10 })),
      201,
    );
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('exports profiles as DataCoolie connections: configure derived from the system, secrets as names', async () => {
    const ref = await createCredentialRef(ctx, {
      provider: 'https://aide-kv.vault.azure.net/',
      path: 'erp-reader-password',
    });
    const secured = await createProfile(ctx, f.workspace.id, f.pgSystem.id, {
      name: unique('secured'),
      database: 'erp',
      is_active: false,
      configure: { username: 'erp-reader-user', port: 6432 },
      secrets: [{ configure_field: 'password', credential_ref_id: ref.id }],
    });
    const snapshot = await snapshots.build(f.workspace.id);
    expect(snapshot).toMatchObject({
      workspace_id: f.workspace.id,
      workspace_code: f.workspace.code,
      excluded: [],
    });
    const connection = snapshot.connections.find((c) => c.connection_id === secured.id);
    expect(connection).toEqual({
      connection_id: secured.id,
      workspace_id: f.workspace.id,
      name: secured.name,
      connection_type: 'database',
      format: 'sql',
      catalog: null,
      database: 'erp',
      configure: {
        host: 'erp-db.internal.example.com',
        port: 6432,
        database_type: 'postgresql',
        schema_hint_type_system: 'postgresql',
        username: 'erp-reader-user',
        use_schema_hint: true,
        password: 'erp-reader-password',
      },
      secrets_ref: { 'https://aide-kv.vault.azure.net/': ['password'] },
      is_active: false,
    });
    expect(snapshot.connections.find((c) => c.connection_id === f.bronze.id)).toMatchObject({
      connection_type: 'lakehouse',
      format: 'delta',
      configure: { base_path: 's3://lake/bronze', use_schema_hint: true },
      secrets_ref: null,
    });
    expectValidForDataCoolie(snapshot);
    // The same by code.
    expect((await snapshots.build(f.workspace.code)).revision).toBe(snapshot.revision);
  });

  it('exports dataflows with their ends addressed, and the hints of their source tables', async () => {
    const snapshot = await snapshots.build(f.workspace.id);
    const dataflow = snapshot.dataflows.find((d) => d.dataflow_id === flow.id);
    expect(dataflow).toMatchObject({
      workspace_id: f.workspace.id,
      name: flow.name,
      description: 'orders',
      stage: 'source2bronze',
      execution_order: 10,
      processing_mode: 'batch',
      is_active: true,
      source: {
        connection_id: f.erp.id,
        schema_name: 'sales',
        table: f.orders.details?.table_name ?? f.orders.table_name,
        query: null,
        watermark_columns: ['updated_at'],
      },
      destination: {
        connection_id: f.bronze.id,
        schema_name: 'erp',
        table: f.bronzeOrders.path.split('/').pop(),
        load_type: 'merge_upsert',
        merge_keys: ['order_id'],
        partition_columns: [],
      },
    });
    expect(dataflow!.transform).toMatchObject({ schema_hints: [], select_columns: [] });
    const group = snapshot.schema_hints.find((g) => g.connection_id === f.erp.id);
    expect(group).toEqual({
      connection_id: f.erp.id,
      schema_name: 'sales',
      table_name: dataflow!.source.table,
      hints: [
        {
          column_name: 'order_id',
          data_type: 'bigint',
          format: null,
          precision: null,
          scale: null,
          default_value: null,
          ordinal_position: 1,
          is_active: true,
        },
        {
          column_name: 'amount',
          data_type: 'numeric',
          format: null,
          precision: 18,
          scale: 2,
          default_value: null,
          ordinal_position: 2,
          is_active: true,
        },
        {
          column_name: 'updated_at',
          data_type: 'timestamptz',
          format: null,
          precision: null,
          scale: null,
          default_value: null,
          ordinal_position: 3,
          is_active: true,
        },
      ],
    });
    expectValidForDataCoolie(snapshot);
  });

  it('writes hints in the connection’s type system and leaves out types DataCoolie lacks', async () => {
    const spark = await createProfile(ctx, f.workspace.id, f.pgSystem.id, {
      name: unique('spark'),
      database: 'erp',
      configure: { schema_hint_type_system: 'spark' },
    });
    const table = await ctx.request('POST', `${API}/datasets`, {
      token: ctx.userToken,
      body: {
        kind: 'rdbms',
        system_id: f.pgSystem.id,
        object_name: unique('t'),
        schema_name: 'crm',
        table_name: unique('customers'),
        layer: 'source',
      },
    });
    const dataset = ok(table, 201);
    await publishVersion(ctx, dataset.id, [
      ['id', 'integer'],
      ['doc', 'jsonb'],
      ['price', 'numeric'],
      ['seen_at', 'timestamp'],
    ]);
    ok(
      await createDataflowRequest(
        ctx,
        copyBody(f, {
          source_connection_id: spark.id,
          source_dataset_id: dataset.id,
          source_watermark_columns: [],
        }),
      ),
      201,
    );
    const snapshot = await snapshots.build(f.workspace.id);
    const group = snapshot.schema_hints.find((g) => g.connection_id === spark.id);
    // jsonb has no DataCoolie type; a numeric without precision would not resolve: no hint for either.
    expect(group?.hints.map((h) => [h.column_name, h.data_type])).toEqual([
      ['id', 'int'],
      ['seen_at', 'timestamp_ntz'],
    ]);
  });

  it('includes inactive dataflows, leaves deleted ones out, and changes revision exactly when the metadata does', async () => {
    const before = await snapshots.build(f.workspace.id);
    expect((await snapshots.build(f.workspace.id)).revision).toBe(before.revision);
    const inactive = ok(await createDataflowRequest(ctx, copyBody(f, { is_active: false })), 201);
    const withInactive = await snapshots.build(f.workspace.id);
    expect(withInactive.revision).not.toBe(before.revision);
    expect(withInactive.dataflows.find((d) => d.dataflow_id === inactive.id)?.is_active).toBe(false);
    ok(await ctx.request('DELETE', `${API}/dataflows/${inactive.id}`, { token: ctx.adminToken }));
    const after = await snapshots.build(f.workspace.id);
    expect(after.dataflows.some((d) => d.dataflow_id === inactive.id)).toBe(false);
    expect(after.revision).toBe(before.revision);
    // A new version of a source table changes its hints, hence the revision.
    await publishVersion(ctx, f.orders.id, [
      ['order_id', 'bigint', undefined, true],
      ['amount', 'numeric', { precision: 20, scale: 4 }],
      ['updated_at', 'timestamptz'],
    ]);
    const republished = await snapshots.build(f.workspace.id);
    expect(republished.revision).not.toBe(before.revision);
    const amount = republished.schema_hints.find((g) => g.connection_id === f.erp.id)?.hints[1];
    expect(amount).toMatchObject({ column_name: 'amount', precision: 20, scale: 4 });
  });

  it('answers WORKSPACE_NOT_FOUND for an unknown workspace', async () => {
    await expect(snapshots.build('no-such-workspace')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });
});
