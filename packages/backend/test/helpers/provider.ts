// Factories of the metadata-provider e2e tests (workspaces, connection profiles, dataflows) under
// test/e2e/provider. The fixture is a DataCoolie pipeline: an ERP PostgreSQL table copied into a
// lakehouse (delta) table, each dataset with a published version and a lineage layer.
import { createFlavor, createSystem, ok, unique } from './factories.js';
import { API, createDataset, flavorFor, flavorByCode, seedReference, type Row } from './catalogue.js';
import { publishVersion } from './lineage.js';
import type { TestContext } from './test-app.js';

export async function createWorkspace(
  ctx: TestContext,
  overrides: Record<string, unknown> = {},
): Promise<Row> {
  const code = unique('ws').replace(/_/g, '-');
  return ok(
    await ctx.request('POST', `${API}/workspaces`, {
      token: ctx.userToken,
      body: { code, name: `Workspace ${code}`, ...overrides },
    }),
    201,
  );
}

export function createProfileRequest(ctx: TestContext, body: Record<string, unknown>, token = ctx.userToken) {
  return ctx.request('POST', `${API}/connection-profiles`, { token, body });
}

export async function createProfile(
  ctx: TestContext,
  workspaceId: string,
  systemId: string,
  overrides: Record<string, unknown> = {},
): Promise<Row> {
  return ok(
    await createProfileRequest(ctx, {
      workspace_id: workspaceId,
      system_id: systemId,
      name: unique('conn'),
      connection_type: 'database',
      format: 'sql',
      ...overrides,
    }),
    201,
  );
}

export function createDataflowRequest(
  ctx: TestContext,
  body: Record<string, unknown>,
  token = ctx.userToken,
) {
  return ctx.request('POST', `${API}/dataflows`, { token, body });
}

/** A data type on a flavor that has none of that code (storage flavors come without types). */
export async function ensureDataTypes(
  ctx: TestContext,
  flavorId: string,
  codes: readonly string[],
): Promise<void> {
  for (const code of codes) {
    const query = `system_flavor_id=${flavorId}&code=${code}`;
    const found = ok(await ctx.request('GET', `${API}/data-types?${query}`, { token: ctx.userToken }));
    if (found.items.length > 0) continue;
    const body = { system_flavor_id: flavorId, code, params_schema: {}, render_template: code };
    ok(await ctx.request('POST', `${API}/data-types`, { token: ctx.adminToken, body }), 201);
  }
}

export interface PipelineFixture {
  workspace: Row;
  pgSystem: Row;
  lakeSystem: Row;
  /** database/sql over the PostgreSQL system. */
  erp: Row;
  /** lakehouse/delta over the storage system, base_path s3://lake/bronze. */
  bronze: Row;
  /** rdbms sales.orders (layer source) with columns order_id, amount, updated_at. */
  orders: Row;
  /** storage s3://lake/bronze/erp/orders (delta, layer raw) with the same columns. */
  bronzeOrders: Row;
}

/** A workspace with two profiles and two versioned datasets, ready for dataflows between them. */
export async function pipelineFixture(ctx: TestContext): Promise<PipelineFixture> {
  const workspace = await createWorkspace(ctx);
  const pgSystem = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
    extra: { host: 'erp-db.internal.example.com', port: 5432 },
  });
  // A flavor of its own: the seeded storage_files types need params (decimal, timestamp[unit]).
  const lakeFlavor = await createFlavor(ctx, (await flavorFor(ctx, 'storage')).kind_id);
  await ensureDataTypes(ctx, lakeFlavor.id, ['long', 'decimal', 'timestamp', 'string']);
  const lakeSystem = await createSystem(ctx, lakeFlavor.id);
  const erp = await createProfile(ctx, workspace.id, pgSystem.id, { name: unique('erp'), database: 'erp' });
  const bronze = await createProfile(ctx, workspace.id, lakeSystem.id, {
    name: unique('bronze'),
    connection_type: 'lakehouse',
    format: 'delta',
    configure: { base_path: 's3://lake/bronze' },
  });
  const orders = await sourceTable(ctx, pgSystem.id, unique('orders'));
  const bronzeOrders = await lakeTable(ctx, lakeSystem.id, `s3://lake/bronze/erp/${unique('orders')}`);
  return { workspace, pgSystem, lakeSystem, erp, bronze, orders, bronzeOrders };
}

/** An rdbms table in schema `sales` (layer source) with a published version. */
export async function sourceTable(
  ctx: TestContext,
  systemId: string,
  table: string,
  schema = 'sales',
): Promise<Row> {
  const dataset = await createDataset(ctx, systemId, 'rdbms', {
    object_name: `${schema}.${table}`,
    schema_name: schema,
    table_name: table,
    layer: 'source',
  });
  await publishVersion(ctx, dataset.id, [
    ['order_id', 'bigint', undefined, true],
    ['amount', 'numeric', { precision: 18, scale: 2 }],
    ['updated_at', 'timestamptz'],
  ]);
  return dataset;
}

/** A delta table at `path` (layer raw) with a published version. */
export async function lakeTable(
  ctx: TestContext,
  systemId: string,
  path: string,
  publish = true,
): Promise<Row> {
  const dataset = await createDataset(ctx, systemId, 'storage', {
    object_name: path,
    path,
    file_format: 'delta',
    partition_by: null,
    layer: 'raw',
  });
  if (publish) {
    await publishVersion(ctx, dataset.id, [
      ['order_id', 'long', undefined, true],
      ['amount', 'decimal'],
      ['updated_at', 'timestamp'],
    ]);
  }
  return dataset;
}

/** A dataflow body copying `fixture.orders` into `fixture.bronzeOrders`. */
export function copyBody(
  f: PipelineFixture,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    workspace_id: f.workspace.id,
    name: unique('flow'),
    stage: 'source2bronze',
    source_connection_id: f.erp.id,
    source_dataset_id: f.orders.id,
    source_watermark_columns: ['updated_at'],
    destination_connection_id: f.bronze.id,
    destination_dataset_id: f.bronzeOrders.id,
    load_type: 'merge_upsert',
    merge_keys: ['order_id'],
    ...overrides,
  };
}

export { seedReference };
