// Issue 26, done when: a DataCoolie document goes into a workspace with `aide-provider import` and
// comes back exactly — through DataCoolie's routes (what the unmodified Python client reads) and through
// `aide-provider export` — on the real backend (test/global-setup.mjs). The document covers every
// connection type the provider reference covers and every dataflow shape, hints in DataCoolie's own
// spelling, explicit non-UUID ids and name-derived ids. The import is a plan applied in one
// transaction (ADR 0050): unchanged documents are no-ops, changed ones update exactly what changed,
// --prune deletes, a failing import writes nothing, and --dry-run gives the real run's plan and exit code.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataCoolieImportPlan } from '@aide/schemas';
import type { AideClient } from '@aide/sdk';
import { stringify } from 'yaml';
import {
  createConnection,
  createDataflow,
  createSchemaHint,
  loadMetadataDocument,
  nameToUuid,
  type SchemaHintGroup,
} from '../src/index.js';
import { adminClient } from './helpers/backend.js';
import { byName, cli, groupKey, modelsAsServed } from './helpers/cli-and-models.js';
import { ensureTypes, flavorId, suffix } from './registry-fixture.js';

interface Document {
  connections: Record<string, unknown>[];
  dataflows: Record<string, unknown>[];
  schema_hints: Record<string, unknown>[];
}

/** The models DataCoolie loads from `document`, as served from the workspace whose code is `workspace`. */
function expectedModels(document: unknown, workspace: string): string {
  return modelsAsServed(loadMetadataDocument(document), workspace, { sortHints: true });
}

async function allPages<T>(
  fetch: (page: number) => Promise<{ data: T[]; pagination: { total_pages: number } }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetch(page);
    items.push(...answer.data);
    if (page >= answer.pagination.total_pages) return items;
  }
}

/** What DataCoolie's routes serve for a workspace (addressed by code), as DataCoolie's models. */
async function servedModels(client: AideClient, workspace: string): Promise<string> {
  const query = { page_size: '1000', active_only: 'false' as const };
  const connections = await allPages((page) =>
    client.datacoolie.connections(workspace, { ...query, page: String(page) }),
  );
  const dataflows = await allPages((page) =>
    client.datacoolie.dataflows(workspace, { ...query, page: String(page) }),
  );
  const rows = await allPages((page) =>
    client.datacoolie.schemaHints(workspace, { ...query, page: String(page) }),
  );
  const groups = new Map<string, SchemaHintGroup>();
  for (const { connection_id, schema_name, table_name, ...hint } of rows) {
    const key = groupKey({ connection_id, schema_name, table_name });
    const group = groups.get(key) ?? { connection_id, schema_name, table_name, hints: [] };
    group.hints.push(createSchemaHint(hint));
    groups.set(key, group);
  }
  return JSON.stringify({
    connections: connections.map((c) => createConnection(c)).sort(byName),
    dataflows: dataflows.map((d) => createDataflow(d)).sort(byName),
    schemaHints: [...groups.values()].sort((a, b) => groupKey(a).localeCompare(groupKey(b))),
  });
}

/** A plan without what only a dry run or a real run can say (whether it was written, created ids). */
function comparablePlan(plan: DataCoolieImportPlan): unknown {
  return {
    ...plan,
    dry_run: null,
    applied: null,
    workspace: { ...plan.workspace, id: null },
    items: plan.items.map((item) => ({ ...item, id: item.action === 'create' ? null : item.id })),
  };
}

describe('a DataCoolie document round-trips through the registry', () => {
  const admin = adminClient();
  const id = suffix();
  const dir = mkdtempSync(join(tmpdir(), 'aide-provider-round-trip-'));
  const pgHost = `erp-${id}.db.example.com`;
  const mysqlHost = `crm-${id}.db.example.com`;
  const filesRoot = `s3://files-${id}`;
  const lakeRoot = `abfss://lake-${id}@acct.dfs.core.windows.net`;
  const store = `https://kv-${id}.vault.azure.net/`;
  const apiSystem = `partner_api_${id}`;
  const ids = { erp: randomUUID(), orders: randomUUID(), bronze: randomUUID() };
  const workspace = `rt-${id}`;
  const second = `rt2-${id}`;
  const systemFlags = ['--system', `partner_api=${apiSystem}`, '--system', `enrich_fn=${apiSystem}`];

  const connections = [
    {
      connection_id: ids.erp,
      name: 'erp_pg',
      description: 'The ERP PostgreSQL replica',
      connection_type: 'database',
      format: 'sql',
      database: 'erp',
      // Not in alphabetical order: the order is served as written.
      configure: {
        host: pgHost,
        port: 5432,
        database_type: 'postgresql',
        auth_type: 'password',
        username: 'erp-reader-user',
        password: 'erp-reader-password',
        schema_hint_type_system: 'postgresql',
        read_options: { fetchsize: 10000, queryTimeout: 60 },
      },
      secrets_ref: { [store]: ['username', 'password'] },
    },
    {
      connection_id: 'conn-crm-mysql',
      name: 'crm_mysql',
      connection_type: 'database',
      format: 'sql',
      configure: {
        database_type: 'mysql',
        host: mysqlHost,
        port: 3306,
        database: 'crm',
        username: 'crm_reader',
        password: 'crm-reader-password',
      },
      secrets_ref: { 'env:AIDE_': ['password'] },
    },
    {
      // No id: DataCoolie derives it from the name (name_to_uuid).
      name: 'landing_parquet',
      connection_type: 'file',
      format: 'parquet',
      configure: { base_path: `${filesRoot}/landing`, use_hive_partitioning: true, read_options: {} },
    },
    {
      connection_id: 'conn-landing-csv',
      name: 'landing_csv',
      description: 'Point-of-sale CSV drops',
      connection_type: 'file',
      format: 'csv',
      configure: {
        base_path: `${filesRoot}/pos`,
        read_options: { header: 'true', delimiter: ';' },
        date_folder_partitions: '{year}/{month}/{day}',
      },
    },
    {
      connection_id: ids.bronze,
      name: 'bronze_delta',
      connection_type: 'lakehouse',
      format: 'delta',
      catalog: 'main',
      configure: { base_path: `${lakeRoot}/bronze`, write_options: { mergeSchema: 'true' } },
    },
    {
      connection_id: 'conn-silver-iceberg',
      name: 'silver_iceberg',
      connection_type: 'lakehouse',
      format: 'iceberg',
      configure: { base_path: `${lakeRoot}/silver`, catalog: 'glue', database: 'silver' },
    },
    {
      connection_id: 'conn-partner-api',
      name: 'partner_api',
      connection_type: 'api',
      format: 'api',
      is_active: false,
      configure: { url: 'https://api.partner.example.com/v2', auth_type: 'bearer', token: 'partner-token' },
      secrets_ref: { [store]: ['token'] },
    },
    { name: 'enrich_fn', connection_type: 'function', format: 'function', configure: { timeout: 300 } },
  ];

  const dataflows = [
    {
      dataflow_id: ids.orders,
      name: 'orders_copy',
      description: 'Incremental copy of ERP orders into bronze',
      stage: 'source2bronze',
      group_number: 1,
      execution_order: 10,
      source: {
        connection_name: 'erp_pg',
        schema_name: 'sales',
        table: 'orders',
        watermark_columns: ['updated_at', 'order_id'],
        filter_expression: "status <> 'DRAFT'",
        configure: { backward_days: 2, fetch: { size: 500 } },
      },
      destination: {
        connection_name: 'bronze_delta',
        schema_name: 'erp',
        table: 'orders',
        load_type: 'merge_upsert',
        merge_keys: ['order_id'],
        partition_columns: [
          { column: 'order_date', expression: null },
          { column: 'order_year', expression: 'year(order_date)' },
        ],
        configure: { write_options: { mergeSchema: 'true' } },
      },
      transform: {
        deduplicate_columns: ['order_id'],
        latest_data_columns: ['updated_at'],
        additional_columns: [{ column: 'order_year', expression: 'year(order_date)' }],
        rename_columns: { cust_id: 'customer_id' },
        value_rules: [{ operation: 'trim', columns: ['customer_email'], order: 100 }],
        drop_columns: ['internal_note'],
        schema_hints: [
          { column_name: 'order_date', data_type: 'DATE', format: 'yyyy-MM-dd', ordinal_position: 1 },
          { column_name: 'amount', data_type: 'decimal(18,2)', ordinal_position: 2 },
        ],
        configure: { missing_column_policy: 'error' },
      },
    },
    {
      dataflow_id: 'flow.crm.customers',
      name: 'customers_scd2',
      stage: 'bronze2silver',
      group_number: 2,
      execution_order: 1,
      source: { connection_name: 'crm_mysql', schema_name: 'crm', table: 'customers' },
      destination: {
        connection_name: 'silver_iceberg',
        schema_name: 'crm',
        table: 'customers',
        load_type: 'scd2',
        merge_keys: ['customer_id'],
        configure: { scd2_effective_column: 'modified_at' },
      },
      transform: {
        hash_columns: [{ target_column: 'row_hash', columns: ['name', 'email'], algorithm: 'sha256' }],
      },
    },
    {
      // No id: derived from the name.
      name: 'invoices_by_query',
      stage: 'source2bronze',
      source: {
        connection_name: 'crm_mysql',
        query: 'select * from crm.invoices where issued_at > :watermark',
        watermark_columns: ['issued_at'],
      },
      destination: {
        connection_name: 'bronze_delta',
        schema_name: 'crm',
        table: 'invoices',
        load_type: 'append',
      },
    },
    {
      dataflow_id: 'flow-enrich',
      name: 'enrich_by_function',
      is_active: false,
      processing_mode: 'batch',
      source: { connection_name: 'enrich_fn', python_function: 'pipelines.enrich.run' },
      destination: {
        connection_name: 'silver_iceberg',
        schema_name: 'ref',
        table: 'enriched',
        load_type: 'overwrite',
      },
      configure: { retries: 2 },
    },
    {
      dataflow_id: 'flow-pos-daily',
      name: 'pos_daily',
      stage: 'landing2bronze',
      group_number: 3,
      execution_order: 5,
      // Its source table has hints; its watermark column is not one of them (issue 26 item 3).
      source: {
        connection_name: 'landing_csv',
        schema_name: 'stores',
        table: 'daily_sales',
        watermark_columns: ['modified_at'],
      },
      destination: {
        connection_name: 'bronze_delta',
        schema_name: 'pos',
        table: 'daily_sales',
        load_type: 'full_load',
        partition_columns: [{ column: 'sale_date', expression: null }],
      },
      transform: {
        select_columns: ['sale_date', 'store_id', 'total'],
        masking_rules: [{ method: 'redact', columns: ['card_number'], value: '****' }],
      },
    },
    {
      name: 'web_events',
      stage: 'landing2bronze',
      source: { connection_name: 'landing_parquet', table: 'events', watermark_columns: ['event_time'] },
      destination: {
        connection_name: 'silver_iceberg',
        schema_name: 'web',
        table: 'events',
        load_type: 'append',
      },
    },
  ];

  const schemaHints = [
    {
      connection_name: 'erp_pg',
      schema_name: 'sales',
      table_name: 'orders',
      hints: [
        { column_name: 'order_id', data_type: 'BIGINT', ordinal_position: 1 },
        { column_name: 'amount', data_type: 'DECIMAL', precision: 18, scale: 2, ordinal_position: 2 },
        { column_name: 'quantity', data_type: 'INTEGER', ordinal_position: 3 },
        {
          column_name: 'updated_at',
          data_type: 'timestamptz',
          format: "yyyy-MM-dd'T'HH:mm:ssXXX",
          ordinal_position: 4,
        },
        {
          column_name: 'legacy_code',
          data_type: 'text',
          default_value: 'n/a',
          ordinal_position: 5,
          is_active: false,
        },
        // No ordinal: served last, as DataCoolie orders them.
        { column_name: 'note', data_type: 'varchar', precision: 200, ordinal_position: null },
      ],
    },
    {
      connection_name: 'landing_csv',
      schema_name: 'stores',
      table_name: 'daily_sales',
      hints: [
        { column_name: 'sale_date', data_type: 'DATE', format: 'dd.MM.yyyy', ordinal_position: 1 },
        { column_name: 'total', data_type: 'decimal(18,2)', ordinal_position: 2 },
        { column_name: 'sold_at', data_type: 'timestamp_ntz', ordinal_position: 3 },
        { column_name: 'store_id', data_type: 'INT', default_value: '0', ordinal_position: 4 },
      ],
    },
    {
      connection_name: 'crm_mysql',
      schema_name: 'crm',
      table_name: 'customers',
      hints: [
        { column_name: 'customer_id', data_type: 'BIGINT', ordinal_position: 1 },
        { column_name: 'created', data_type: 'datetime', ordinal_position: 2 },
      ],
    },
  ];

  const document: Document = { connections, dataflows, schema_hints: schemaHints };
  const write = (name: string, content: unknown, yaml = false) => {
    const path = join(dir, name);
    writeFileSync(path, yaml ? stringify(content) : JSON.stringify(content, null, 2));
    return path;
  };
  const file = write('metadata.yaml', document, true);
  const importJson = async (path: string, code: string, ...flags: string[]) => {
    const run = await cli([
      'import',
      path,
      '--workspace',
      code,
      '--format',
      'json',
      ...systemFlags,
      ...flags,
    ]);
    expect(run.stderr).toBe('');
    return { code: run.code, plan: JSON.parse(run.stdout) as DataCoolieImportPlan };
  };
  /** The document without a function connection, its dataflow, and a hint group. */
  const pruned = (): Document => ({
    connections: document.connections.filter((c) => c['name'] !== 'enrich_fn'),
    dataflows: document.dataflows.filter((d) => d['name'] !== 'enrich_by_function'),
    schema_hints: document.schema_hints.filter((g) => g['connection_name'] !== 'crm_mysql'),
  });
  const actions = (plan: DataCoolieImportPlan) => new Set(plan.items.map((item) => item.action));

  let pgSystem = '';

  beforeAll(async () => {
    const pg = await admin.systems.create({
      code: `erp_pg_${id}`,
      name: 'ERP',
      flavor_id: await flavorId(admin, 'rdbms', 'postgres14'),
      extra: { host: pgHost, port: 5432 },
    });
    pgSystem = pg.id;
    await admin.systems.create({
      code: `crm_mysql_${id}`,
      name: 'CRM',
      flavor_id: await flavorId(admin, 'rdbms', 'mysql8'),
      extra: { host: mysqlHost, port: 3306 },
    });
    const storage = await flavorId(admin, 'storage', 'sdk_lake');
    await ensureTypes(admin, storage, ['string']);
    await admin.systems.create({
      code: `files_${id}`,
      name: 'Files',
      flavor_id: storage,
      extra: { base_path: filesRoot },
    });
    await admin.systems.create({
      code: `lake_${id}`,
      name: 'Lakehouse',
      flavor_id: await flavorId(admin, 'hive', 'spark_sql'),
      extra: { base_path: lakeRoot, catalog_uri: `thrift://metastore-${id}:9083` },
    });
    await admin.systems.create({
      code: apiSystem,
      name: 'Partner API',
      flavor_id: await flavorId(admin, 'api', 'sdk_rest'),
      extra: {},
    });
  });
  afterAll(async () => {
    await admin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports every connection type and dataflow shape; DataCoolie's routes serve the document", async () => {
    const run = await cli(['import', file, '--workspace', workspace, ...systemFlags]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^create +connection +erp_pg$/m);
    expect(run.stdout).toMatch(/^create +dataflow +orders_copy$/m);
    expect(run.stdout).toMatch(/^create +schema_hint_group +erp_pg: sales\.orders$/m);
    expect(run.stdout).toMatch(/ 0 to update, 0 unchanged, 0 to delete \(no --prune\) — applied$/m);

    // Models equal to DataCoolie's own load of the document; workspace_id is the workspace code.
    expect(await servedModels(admin, workspace)).toBe(expectedModels(document, workspace));

    // Addressed by its UUID, the workspace serves the same, its code as workspace_id.
    const [byId] = (await admin.workspaces.list({ code: workspace })).items;
    expect(await servedModels(admin, byId!.id)).toBe(expectedModels(document, workspace));

    // Served as written: the configure's keys in the document's order, the description kept.
    const erp = await admin.datacoolie.connection(workspace, ids.erp);
    expect(Object.keys(erp.configure)).toEqual(Object.keys(connections[0]!.configure));
    expect(erp).toMatchObject({ workspace_id: workspace, description: 'The ERP PostgreSQL replica' });
    const derived = await admin.datacoolie.connection(workspace, nameToUuid('landing_parquet'));
    expect(derived.name).toBe('landing_parquet');
    expect((await admin.datacoolie.dataflow(workspace, 'flow.crm.customers')).name).toBe('customers_scd2');

    // A UUID no other row has is the registry id too; other ids get registry ids of their own.
    const [ws] = (await admin.workspaces.list({ code: workspace })).items;
    const profiles = (await admin.connectionProfiles.list({ workspace_id: ws!.id, size: 100 })).items;
    expect(profiles.find((p) => p.datacoolie_id === ids.erp)?.id).toBe(ids.erp);
    expect(profiles.find((p) => p.datacoolie_id === 'conn-crm-mysql')?.id).toMatch(/^[0-9a-f-]{36}$/);

    // Hints are declarations: the source table gets no schema version from them.
    const [orders] = (await admin.datasets.list({ system_id: pgSystem, object_name: 'sales.orders' })).items;
    expect(orders).toBeDefined();
    expect(await admin.datasets.schemaVersions(orders!.id)).toEqual([]);
  });

  it('exports a document that loads as the same models and re-imports as a no-op', async () => {
    const out = join(dir, 'exported.json');
    expect(await cli(['export', '--workspace', workspace, '-o', out])).toMatchObject({ code: 0, stderr: '' });
    const exported = JSON.parse(readFileSync(out, 'utf8')) as Document;
    expect(expectedModels(exported, workspace)).toBe(expectedModels(document, workspace));
    expect(exported.connections.find((c) => c['name'] === 'erp_pg')).toMatchObject({
      description: 'The ERP PostgreSQL replica',
      configure: connections[0]!.configure,
    });

    const again = await importJson(file, workspace);
    expect(again.code).toBe(0);
    expect(actions(again.plan)).toEqual(new Set(['unchanged']));
    expect(again.plan.summary).toMatchObject({ create: 0, update: 0, delete: 0 });

    const fromExport = await importJson(out, workspace);
    expect(fromExport.code).toBe(0);
    expect(actions(fromExport.plan)).toEqual(new Set(['unchanged']));
    expect(await servedModels(admin, workspace)).toBe(expectedModels(document, workspace));
  });

  it('imports the same document into a second workspace: each serves the document ids', async () => {
    const run = await importJson(file, second);
    expect(run.code).toBe(0);
    expect(await servedModels(admin, second)).toBe(expectedModels(document, second));
    // Name-derived ids are the same in both workspaces; the registry ids behind them differ.
    const registryId = async (code: string) => {
      const [ws] = (await admin.workspaces.list({ code })).items;
      const found = await admin.connectionProfiles.list({ workspace_id: ws!.id, name: 'landing_parquet' });
      expect(found.items[0]?.datacoolie_id).toBe(nameToUuid('landing_parquet'));
      return found.items[0]!.id;
    };
    expect(await registryId(workspace)).not.toBe(await registryId(second));
  });

  it('updates exactly what a changed document changes; --dry-run gives the same plan and exit code', async () => {
    const changed = structuredClone(document);
    Object.assign(changed.dataflows[0]!, { description: 'Orders, now with their lines' });
    Object.assign(changed.dataflows[0]!['destination'] as object, { merge_keys: ['order_id', 'line_no'] });
    (changed.connections[3]!['configure'] as { read_options: object }).read_options = {
      header: 'true',
      delimiter: ',',
    };
    const orderHints = changed.schema_hints[0]!['hints'] as Record<string, unknown>[];
    orderHints[3]!['format'] = 'yyyy-MM-dd HH:mm:ss';
    orderHints.splice(5, 0, { column_name: 'line_no', data_type: 'INTEGER', ordinal_position: 6 });
    const path = write('changed.json', changed);

    const text = await cli(['import', path, '--workspace', workspace, '--dry-run', ...systemFlags]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^update +dataflow +orders_copy$/m);
    expect(text.stdout).toMatch(/^ {4}\S.*: .* → .*Orders, now with their lines.*$/m);
    expect(text.stdout).toMatch(/— dry run: nothing written$/m);

    const dry = await importJson(path, workspace, '--dry-run');
    expect(await servedModels(admin, workspace)).toBe(expectedModels(document, workspace));
    const real = await importJson(path, workspace);
    expect(real.code).toBe(dry.code);
    expect(real.code).toBe(0);
    expect(real.plan.applied).toBe(true);
    expect(comparablePlan(real.plan)).toEqual(comparablePlan(dry.plan));

    const updated = real.plan.items.filter((item) => item.action === 'update');
    expect(updated.map((item) => `${item.kind} ${item.name}`).sort()).toEqual([
      'connection landing_csv',
      'dataflow orders_copy',
      'schema_hint_group erp_pg: sales.orders',
    ]);
    for (const item of updated) expect(item.changes.length).toBeGreaterThan(0);
    expect(real.plan.items.filter((item) => !['update', 'unchanged'].includes(item.action))).toEqual([]);
    expect(await servedModels(admin, workspace)).toBe(expectedModels(changed, workspace));

    // A second run of the changed document has nothing to do.
    expect(actions((await importJson(path, workspace)).plan)).toEqual(new Set(['unchanged']));
  });

  it('writes nothing when any part fails, on a dry run as for real (exit code 3)', async () => {
    const before = await servedModels(admin, workspace);
    const broken = structuredClone(document);
    Object.assign(broken.dataflows[1]!, { description: 'would change' });
    (broken.schema_hints[1]!['hints'] as Record<string, unknown>[]).push({
      column_name: 'odd',
      data_type: 'NO_SUCH_TYPE',
      ordinal_position: 5,
    });
    broken.connections.push({
      name: 'nowhere_pg',
      connection_type: 'database',
      format: 'sql',
      configure: { database_type: 'postgresql', host: `nowhere-${id}.example.com` },
    });
    const path = write('broken.json', broken);
    const dry = await cli(['import', path, '--workspace', workspace, '--dry-run', ...systemFlags]);
    const real = await cli(['import', path, '--workspace', workspace, ...systemFlags]);
    expect(real).toMatchObject({ code: 3, stderr: '' });
    expect(dry).toEqual(real);
    expect(real.stdout).toMatch(/^problems \(\d+\):$/m);
    expect(real.stdout).toMatch(/^ {2}connection nowhere_pg: .+$/m);
    expect(real.stdout).toMatch(/^ {2}\S+ .*NO_SUCH_TYPE.*$/m);
    expect(real.stdout).toMatch(/— not applied: \d+ problem\(s\), nothing written$/m);
    expect(await servedModels(admin, workspace)).toBe(before);
  });

  it('deletes with --prune what the document no longer names, and only then', async () => {
    const path = write('pruned.json', pruned());

    const kept = await importJson(path, second);
    expect(kept.code).toBe(0);
    expect(actions(kept.plan)).toEqual(new Set(['unchanged']));
    expect(await servedModels(admin, second)).toBe(expectedModels(document, second));

    const dry = await importJson(path, second, '--prune', '--dry-run');
    const run = await importJson(path, second, '--prune');
    expect(run.code).toBe(0);
    expect(dry.code).toBe(0);
    expect(comparablePlan(run.plan)).toEqual(comparablePlan(dry.plan));
    expect(
      run.plan.items
        .filter((item) => item.action === 'delete')
        .map((item) => `${item.kind} ${item.name}`)
        .sort(),
    ).toEqual([
      'connection enrich_fn',
      'dataflow enrich_by_function',
      'schema_hint_group crm_mysql: crm.customers',
    ]);
    expect(run.plan.summary.delete).toBe(3);
    expect(await servedModels(admin, second)).toBe(expectedModels(pruned(), second));
  });

  it('leaves imported dataflows editable; the next import puts the document back', async () => {
    const [ws] = (await admin.workspaces.list({ code: second })).items;
    const [flow] = (await admin.dataflows.list({ workspace_id: ws!.id, name: 'pos_daily' })).items;
    const edited = await admin.dataflows.update(flow!.id, {
      description: 'edited in AIDE',
      row_version: flow!.row_version,
    });
    expect(edited.description).toBe('edited in AIDE');
    expect((await admin.datacoolie.dataflow(second, 'flow-pos-daily')).description).toBe('edited in AIDE');
    // An unchanged edit of the lakehouse profile its dataflows write to is accepted too.
    const [lake] = (await admin.connectionProfiles.list({ workspace_id: ws!.id, name: 'bronze_delta' }))
      .items;
    const same = await admin.connectionProfiles.update(lake!.id, {
      is_active: true,
      row_version: lake!.row_version,
    });
    expect(same.is_active).toBe(true);

    const run = await importJson(write('pruned-again.json', pruned()), second);
    expect(run.code).toBe(0);
    expect(run.plan.items.filter((item) => item.action !== 'unchanged')).toEqual([
      expect.objectContaining({
        kind: 'dataflow',
        name: 'pos_daily',
        action: 'update',
        changes: [{ field: 'description', before: 'edited in AIDE', after: null }],
      }),
    ]);
    expect(await servedModels(admin, second)).toBe(expectedModels(pruned(), second));
  });

  it('exports hints declared out of ordinal order so that they re-import as a no-op', async () => {
    // DataCoolie orders a group's hints by ordinal_position (nulls last); the document need not.
    const code = `rt3-${id}`;
    const unordered: Document = {
      connections: [document.connections[3]!],
      dataflows: [],
      schema_hints: [
        {
          connection_name: 'landing_csv',
          schema_name: 'stores',
          table_name: 'daily_sales',
          hints: [
            { column_name: 'note', data_type: 'STRING', ordinal_position: null },
            { column_name: 'total', data_type: 'decimal(18,2)', ordinal_position: 2 },
            { column_name: 'sale_date', data_type: 'DATE', ordinal_position: 1 },
          ],
        },
      ],
    };
    expect((await importJson(write('unordered.json', unordered), code)).code).toBe(0);
    const served = (await admin.datacoolie.schemaHints(code, { active_only: 'false' })).data;
    expect(served.map((h) => h.column_name)).toEqual(['sale_date', 'total', 'note']);

    const out = join(dir, 'unordered-exported.json');
    expect(await cli(['export', '--workspace', code, '-o', out])).toMatchObject({ code: 0, stderr: '' });
    const again = await importJson(out, code);
    expect(again.code).toBe(0);
    expect(again.plan.items.filter((item) => item.action !== 'unchanged')).toEqual([]);
  });
});
