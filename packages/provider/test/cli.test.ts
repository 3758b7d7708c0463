// `aide-provider import` / `export` on the real backend (test/global-setup.mjs): a DataCoolie YAML
// document goes into a new workspace (connections over matching systems, secrets as credential
// references, datasets, dataflows with their ids, hints as schema versions, their format /
// default_value / is_active as schema-hint overrides, inline hints in the transform) and comes back as
// the same metadata; a dry run writes nothing, a second import creates nothing, what cannot be mapped is
// reported with exit code 3.
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import { main, type Io } from '../src/cli/program.js';
import {
  AideMetadataProvider,
  InMemoryMetadataProvider,
  loadMetadataDocument,
  type LoadedMetadata,
} from '../src/index.js';
import { adminClient, backend } from './helpers/backend.js';
import { ensureTypes, flavorId, suffix } from './registry-fixture.js';

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));

const USER_CREDENTIALS = { AIDE_METASTORE_USER: backend.username, AIDE_METASTORE_PASSWORD: backend.password };

async function cli(
  args: string[],
  credentials: Record<string, string> = USER_CREDENTIALS,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { AIDE_METASTORE_URL: backend.baseUrl, ...credentials },
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** Models of a document with what the registry adds or orders differently made comparable. */
function comparable({ connections, dataflows, schemaHints }: LoadedMetadata): unknown {
  const connection = (c: LoadedMetadata['connections'][number]) => ({
    ...c,
    workspace_id: null,
    secrets_ref:
      c.secrets_ref &&
      Object.fromEntries(Object.entries(c.secrets_ref).map(([store, fields]) => [store, [...fields].sort()])),
  });
  return {
    connections: connections.map(connection).sort((a, b) => a.name.localeCompare(b.name)),
    dataflows: dataflows
      .map((d) => ({
        ...d,
        workspace_id: null,
        source: { ...d.source, connection: connection(d.source.connection) },
        destination: { ...d.destination, connection: connection(d.destination.connection) },
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    schemaHints,
  };
}

describe('aide-provider import and export', () => {
  const admin = adminClient();
  const id = suffix();
  const dir = mkdtempSync(join(tmpdir(), 'aide-provider-cli-'));
  const host = `erp-${id}.internal.example.com`;
  const lakeRoot = `s3://lake-${id}/bronze`;
  const store = `https://kv-${id}.vault.azure.net/`;
  const ids = { erp: randomUUID(), bronze: randomUUID(), copy: randomUUID(), replay: randomUUID() };
  const document = {
    connections: [
      {
        connection_id: ids.erp,
        name: `erp_${id}`,
        connection_type: 'database',
        format: 'sql',
        database: 'erp',
        configure: {
          database_type: 'postgresql',
          schema_hint_type_system: 'postgresql',
          host,
          port: 5432,
          username: `erp-reader-user-${id}`,
          password: `erp-reader-password-${id}`,
          use_schema_hint: true,
          read_options: { fetchsize: 10000 },
        },
        secrets_ref: { [store]: ['username', 'password'] },
      },
      {
        connection_id: ids.bronze,
        name: `bronze_${id}`,
        connection_type: 'lakehouse',
        format: 'delta',
        configure: { base_path: lakeRoot, use_schema_hint: true },
      },
    ],
    dataflows: [
      {
        dataflow_id: ids.copy,
        name: `orders_${id}`,
        description: 'Incremental copy of ERP orders into the bronze lakehouse',
        stage: 'source2bronze',
        group_number: 1,
        execution_order: 10,
        source: {
          connection_name: `erp_${id}`,
          schema_name: 'sales',
          table: 'orders',
          watermark_columns: ['updated_at'],
          filter_expression: "status <> 'DRAFT'",
          configure: { backward_days: 2 },
        },
        destination: {
          connection_name: `bronze_${id}`,
          schema_name: 'erp',
          table: 'orders',
          load_type: 'merge_upsert',
          merge_keys: ['order_id'],
          partition_columns: [{ column: 'order_date', expression: null }],
          configure: { write_options: { mergeSchema: 'true' } },
        },
        transform: {
          deduplicate_columns: ['order_id'],
          additional_columns: [{ column: 'order_year', expression: 'year(order_date)' }],
          rename_columns: { cust_id: 'customer_id' },
        },
      },
      {
        dataflow_id: ids.replay,
        name: `replay_${id}`,
        stage: 'bronze2silver',
        is_active: false,
        source: { connection_name: `erp_${id}`, query: 'select * from sales.orders' },
        destination: { connection_name: `bronze_${id}`, schema_name: 'erp', table: 'orders' },
        transform: {
          schema_hints: [
            {
              column_name: 'order_date',
              data_type: 'date',
              format: 'yyyy-MM-dd',
              default_value: '1970-01-01',
              ordinal_position: 1,
              is_active: false,
            },
            {
              column_name: 'amount',
              data_type: 'decimal(18,2)',
              precision: 18,
              scale: 2,
              ordinal_position: 2,
            },
          ],
        },
      },
    ],
    schema_hints: [
      {
        connection_name: `erp_${id}`,
        schema_name: 'sales',
        table_name: 'orders',
        hints: [
          { column_name: 'order_id', data_type: 'bigint', ordinal_position: 1 },
          {
            column_name: 'amount',
            data_type: 'numeric',
            precision: 18,
            scale: 2,
            default_value: '0.00',
            ordinal_position: 2,
          },
          {
            column_name: 'updated_at',
            data_type: 'timestamptz',
            format: "yyyy-MM-dd'T'HH:mm:ssXXX",
            ordinal_position: 3,
          },
          {
            column_name: 'legacy_code',
            data_type: 'text',
            format: 'upper',
            default_value: 'n/a',
            ordinal_position: 4,
            is_active: false,
          },
        ],
      },
    ],
  };
  const file = join(dir, 'metadata.yaml');
  const workspace = `ws-cli-${id}`;

  beforeAll(async () => {
    writeFileSync(file, stringify(document));
    await admin.systems.create({
      code: `erp_pg_${id}`,
      name: 'ERP',
      flavor_id: await flavorId(admin, 'rdbms', 'postgres14'),
      extra: { host, port: 5432 },
    });
    const lakeFlavor = await flavorId(admin, 'storage', 'sdk_lake');
    await ensureTypes(admin, lakeFlavor, ['long', 'decimal', 'timestamp']);
    await admin.systems.create({
      code: `lake_${id}`,
      name: 'Lake',
      flavor_id: lakeFlavor,
      extra: { base_path: `s3://lake-${id}` },
    });
  });
  afterAll(async () => {
    await admin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plans without writing on --dry-run', async () => {
    const run = await cli(['import', file, '--workspace', workspace, '--dry-run', '--format', 'json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const report = JSON.parse(run.stdout) as {
      items: { kind: string; action: string }[];
      skipped: unknown[];
    };
    expect(report.skipped).toEqual([]);
    expect(new Set(report.items.map((i) => i.action))).toEqual(new Set(['would create']));
    expect(report.items.filter((i) => i.kind === 'dataflow')).toHaveLength(2);
    expect((await admin.workspaces.list({ code: workspace })).items).toEqual([]);
  });

  it('imports the document, then exports the same metadata; a second import creates nothing', async () => {
    const first = await cli(['import', file, '--workspace', workspace]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`created      dataflow       orders_${id} (${ids.copy})`);
    const [ws] = (await admin.workspaces.list({ code: workspace })).items;
    const profiles = await admin.connectionProfiles.list({ workspace_id: ws!.id });
    expect(profiles.items.map((p) => p.id).sort()).toEqual([ids.erp, ids.bronze].sort());
    const erp = profiles.items.find((p) => p.id === ids.erp)!;
    // Secret names only, as credential references; the system's endpoint is not copied.
    expect(erp.configure).toEqual({ read_options: { fetchsize: 10000 } });
    expect(erp.secrets.map((s) => s.configure_field).sort()).toEqual(['password', 'username']);

    const again = await cli(['import', file, '--workspace', workspace, '--format', 'json']);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as { items: { action: string }[] };
    expect(new Set(report.items.map((i) => i.action))).toEqual(new Set(['existing']));

    const out = join(dir, 'exported.json');
    expect(await cli(['export', '--workspace', workspace, '-o', out])).toMatchObject({ code: 0, stderr: '' });
    const exported = JSON.parse(readFileSync(out, 'utf8')) as unknown;
    expect(comparable(loadMetadataDocument(exported))).toEqual(comparable(loadMetadataDocument(document)));

    // The document DataCoolie would load gives what the registry-backed provider serves.
    const fromFile = new InMemoryMetadataProvider({ document: exported });
    const fromRegistry = new AideMetadataProvider({ client: admin, workspace });
    try {
      expect(await fromFile.getDataflows({ activeOnly: false })).toEqual(
        await fromRegistry.getDataflows({ activeOnly: false }),
      );
    } finally {
      await fromFile.close();
      await fromRegistry.close();
    }
  });

  it('reports what it cannot map (exit code 3) and imports the rest', async () => {
    const other = {
      connections: [
        {
          connection_id: randomUUID(),
          name: `nowhere_${id}`,
          connection_type: 'database',
          format: 'sql',
          configure: { host: 'unknown.example.com' },
        },
        { ...document.connections[0], connection_id: randomUUID(), name: `erp2_${id}` },
      ],
      schema_hints: [
        {
          connection_name: `erp2_${id}`,
          schema_name: 'sales',
          table_name: 'customers',
          hints: [{ column_name: 'id', data_type: 'no_such_type' }],
        },
      ],
    };
    const path = join(dir, 'other.json');
    writeFileSync(path, JSON.stringify(other));
    const run = await cli(['import', path, '--workspace', `ws-cli2-${id}`, '--format', 'json']);
    expect(run.code).toBe(3);
    const report = JSON.parse(run.stdout) as { skipped: { kind: string; name: string; reason: string }[] };
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'connection',
          name: `nowhere_${id}`,
          reason: expect.stringContaining('no system matches'),
        }),
        expect.objectContaining({
          kind: 'schema_hint',
          name: 'sales.customers',
          reason: expect.stringContaining("'no_such_type'"),
        }),
      ]),
    );
    // --system names the system where matching cannot tell.
    const named = await cli([
      'import',
      path,
      '--workspace',
      `ws-cli2-${id}`,
      '--dry-run',
      '--format',
      'json',
      '--system',
      `nowhere_${id}=erp_pg_${id}`,
    ]);
    const planned = JSON.parse(named.stdout) as { items: { kind: string; name: string; action: string }[] };
    expect(planned.items).toContainEqual(
      expect.objectContaining({ kind: 'connection', name: `nowhere_${id}`, action: 'would create' }),
    );
  });

  it('runs with an API key: export within its workspace, import with the catalogue scopes', async () => {
    // The same document with ids of its own (ids are kept, so they must be new in this workspace).
    let text = JSON.stringify(document);
    for (const kept of Object.values(ids)) text = text.replaceAll(kept, randomUUID());
    const keyed = JSON.parse(text) as typeof document;
    const path = join(dir, 'keyed.json');
    writeFileSync(path, text);
    const code = `ws-cli-key-${id}`;
    const ws = await admin.workspaces.create({ code, name: code });
    const keyFor = async (scopes: ('catalogue:read' | 'catalogue:write')[]) => ({
      AIDE_METASTORE_API_KEY: (
        await admin.apiKeys.create({ name: `cli-${code}`, workspace_ids: [ws.id], scopes })
      ).key,
    });
    // The import reads and writes the shared catalogue (systems, datasets, schema versions): a key
    // needs the scopes for it (ADR 0020); without them it is refused before anything is written.
    const bare = await keyFor([]);
    const refused = await cli(['import', path, '--workspace', code], bare);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('403');
    expect((await admin.connectionProfiles.list({ workspace_id: ws.id })).items).toEqual([]);

    const imported = await cli(
      ['import', path, '--workspace', code],
      await keyFor(['catalogue:read', 'catalogue:write']),
    );
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    // Export is one snapshot of the workspace: a key of the workspace needs no scope.
    const out = join(dir, 'keyed-exported.json');
    expect(await cli(['export', '--workspace', code, '-o', out], bare)).toMatchObject({
      code: 0,
      stderr: '',
    });
    const exported = JSON.parse(readFileSync(out, 'utf8')) as unknown;
    expect(comparable(loadMetadataDocument(exported))).toEqual(comparable(loadMetadataDocument(keyed)));
    // Another workspace is out of the key's reach.
    const other = await cli(['export', '--workspace', workspace, '-o', join(dir, 'other.json')], bare);
    expect(other.code).toBe(1);
  });

  it('refuses a document DataCoolie would refuse, and a call without credentials', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(
      path,
      JSON.stringify({ dataflows: [{ name: 'x', source: { connection_name: 'missing' } }] }),
    );
    const bad = await cli(['import', path, '--workspace', workspace]);
    expect(bad).toMatchObject({ code: 1, stderr: 'error: Connection not found: missing\n' });
    let stderr = '';
    const code = await main(['export', '--workspace', workspace], {
      stdout: () => undefined,
      stderr: (t) => (stderr += t),
      env: {},
    });
    expect(code).toBe(2);
    expect(stderr).toContain('no credentials');
  });

  it('is the package bin', () => {
    const help = execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    expect(help).toContain('Usage: aide-provider');
    expect(help).toMatch(/export\b/);
    expect(help).toMatch(/import\b/);
  });
});
