// A DataCoolie pipeline written into the real registry through the SDK client (the backend of
// test/global-setup.mjs): an ERP PostgreSQL table copied into a lakehouse table, with a published
// version of each, so that the snapshot carries connections, dataflows and schema hints.
import { randomBytes } from 'node:crypto';
import type { ConnectionProfile, Dataflow, Dataset, Workspace } from '@aide/schemas';
import { Agent, type Dispatcher } from 'undici';
import { AideClient, ConflictError } from '@aide/sdk';
import { backend } from './helpers/backend.js';

export const suffix = (): string => randomBytes(4).toString('hex');

export async function flavorId(admin: AideClient, kindCode: string, flavorCode: string): Promise<string> {
  const flavor = await findOrCreate(
    async () => (await admin.systemFlavors.list({ code: flavorCode })).items[0],
    async () => {
      const kind = await findOrCreate(
        async () => (await admin.systemKinds.list({ code: kindCode })).items[0],
        () => admin.systemKinds.create({ code: kindCode, name: `${kindCode} systems` }),
      );
      return admin.systemFlavors.create({ code: flavorCode, name: flavorCode, kind_id: kind.id });
    },
  );
  return flavor.id;
}

/**
 * The entity `find` returns, else the one `create` makes. Test files run in parallel against one
 * backend: another may create the same entity between the find and the create (409), and then it is found.
 */
async function findOrCreate<T>(find: () => Promise<T | undefined>, create: () => Promise<T>): Promise<T> {
  const found = await find();
  if (found) return found;
  try {
    return await create();
  } catch (error) {
    const raced = error instanceof ConflictError ? await find() : undefined;
    if (raced) return raced;
    throw error;
  }
}

export async function ensureTypes(
  admin: AideClient,
  flavor: string,
  codes: readonly string[],
): Promise<void> {
  for (const code of codes) {
    const found = await admin.dataTypes.list({ system_flavor_id: flavor, code });
    if (found.items.length > 0) continue;
    // Test files run in parallel: another may create the same type between the list and the create.
    await admin.dataTypes
      .create({ system_flavor_id: flavor, code, params_schema: {}, render_template: code })
      .catch((error: unknown) => {
        if (!(error instanceof ConflictError)) throw error;
      });
  }
}

export interface RegistryPipeline {
  workspace: Workspace;
  erp: ConnectionProfile;
  bronze: ConnectionProfile;
  orders: Dataset;
  bronzeOrders: Dataset;
  /** The source table's name and the lakehouse table's (its path's leaf). */
  table: string;
  /** Reads `orders` (stage source2bronze); hints come from its version. */
  copy: Dataflow;
  /** An inactive query dataflow (stage bronze2silver). */
  inactive: Dataflow;
}

/** A workspace with two profiles, two versioned datasets and two dataflows (one inactive). */
export async function registryPipeline(admin: AideClient): Promise<RegistryPipeline> {
  const id = suffix();
  const workspace = await admin.workspaces.create({ code: `ws-${id}`, name: `Workspace ${id}` });
  const pg = await admin.systems.create({
    code: `erp_${id}`,
    name: 'ERP',
    flavor_id: await flavorId(admin, 'rdbms', 'postgres14'),
    extra: { host: 'erp-db.internal.example.com', port: 5432 },
  });
  const lakeFlavor = await flavorId(admin, 'storage', 'sdk_lake');
  await ensureTypes(admin, lakeFlavor, ['long', 'decimal', 'timestamp']);
  const lake = await admin.systems.create({ code: `lake_${id}`, name: 'Lake', flavor_id: lakeFlavor });
  const erp = await admin.connectionProfiles.create({
    workspace_id: workspace.id,
    system_id: pg.id,
    name: `erp_${id}`,
    connection_type: 'database',
    format: 'sql',
    database: 'erp',
  });
  const bronze = await admin.connectionProfiles.create({
    workspace_id: workspace.id,
    system_id: lake.id,
    name: `bronze_${id}`,
    connection_type: 'lakehouse',
    format: 'delta',
    configure: { base_path: 's3://lake/bronze' },
  });
  const orders = await admin.datasets.create({
    kind: 'rdbms',
    system_id: pg.id,
    object_name: `sales.orders_${id}`,
    schema_name: 'sales',
    table_name: `orders_${id}`,
    layer: 'source',
  });
  await admin.datasets.publishSchemaVersion(orders.id, {
    columns: [
      { name: 'order_id', nullable: false, type: { data_type: 'bigint' } },
      { name: 'amount', type: { data_type: 'numeric', params: { precision: 18, scale: 2 } } },
      { name: 'updated_at', type: { data_type: 'timestamptz' } },
    ],
  });
  const path = `s3://lake/bronze/erp/orders_${id}`;
  const bronzeOrders = await admin.datasets.create({
    kind: 'storage',
    system_id: lake.id,
    object_name: path,
    path,
    file_format: 'delta',
    layer: 'raw',
  });
  const copy = await admin.dataflows.create({
    workspace_id: workspace.id,
    name: `orders_${id}`,
    stage: 'source2bronze',
    source_connection_id: erp.id,
    source_dataset_id: orders.id,
    source_watermark_columns: ['updated_at'],
    destination_connection_id: bronze.id,
    destination_dataset_id: bronzeOrders.id,
    load_type: 'merge_upsert',
    merge_keys: ['order_id'],
  });
  const inactive = await admin.dataflows.create({
    workspace_id: workspace.id,
    name: `replay_${id}`,
    stage: 'bronze2silver',
    is_active: false,
    source_connection_id: erp.id,
    source_query: 'select * from sales.orders',
    destination_connection_id: bronze.id,
    destination_dataset_id: bronzeOrders.id,
  });
  return { workspace, erp, bronze, orders, bronzeOrders, table: `orders_${id}`, copy, inactive };
}

/** A request as the counting dispatcher saw it: `METHOD /path`, the query and the headers. */
export interface SeenRequest {
  line: string;
  query: string;
  headers: Record<string, string>;
}

/** A dispatcher that records every HTTP request (on a real connection); close `agent` when done. */
export function countingDispatcher(): { dispatcher: Dispatcher; requests: SeenRequest[]; agent: Agent } {
  const requests: SeenRequest[] = [];
  const agent = new Agent();
  const dispatcher = agent.compose((dispatch) => (options: Dispatcher.DispatchOptions, handler) => {
    const [path = '', query = ''] = String(options.path).split('?');
    requests.push({
      line: `${options.method} ${path}`,
      query,
      headers: { ...(options.headers as Record<string, string> | undefined) },
    });
    return dispatch(options, handler);
  });
  return { dispatcher, requests, agent };
}

/** A superuser client whose HTTP requests are recorded. */
export function countingClient(): { client: AideClient; requests: SeenRequest[]; agent: Agent } {
  const { dispatcher, requests, agent } = countingDispatcher();
  const client = new AideClient({
    baseUrl: backend.baseUrl,
    username: backend.username,
    password: backend.password,
    dispatcher,
  });
  return { client, requests, agent };
}
