// `aide-provider import` / `export` on the real backend (test/global-setup.mjs): a DataCoolie YAML
// document goes into a new workspace as one plan applied in one transaction (ADR 0050) and comes back
// as the same models; a dry run shows the plan and writes nothing, a second import changes nothing, a
// plan with problems writes nothing and exits 3, a document DataCoolie refuses keeps DataCoolie's reason.
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import { AideMetadataProvider, InMemoryMetadataProvider, loadMetadataDocument } from '../src/index.js';
import { main } from '../src/cli/program.js';
import { adminClient } from './helpers/backend.js';
import { cli, modelsAsServed } from './helpers/cli-and-models.js';
import { ensureTypes, flavorId, suffix } from './registry-fixture.js';

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));

interface Plan {
  workspace: { id: string | null; code: string; action: string };
  applied: boolean;
  items: { kind: string; name: string; action: string; changes: unknown[] }[];
  problems: { kind: string; name: string; reason: string; code: string | null }[];
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
    const plan = JSON.parse(run.stdout) as Plan;
    expect(plan.problems).toEqual([]);
    expect(plan.applied).toBe(false);
    expect(plan.workspace).toMatchObject({ id: null, code: workspace, action: 'create' });
    expect(new Set(plan.items.map((i) => i.action))).toEqual(new Set(['create']));
    expect(plan.items.filter((i) => i.kind === 'dataflow').map((i) => i.name)).toEqual([
      `orders_${id}`,
      `replay_${id}`,
    ]);
    expect((await admin.workspaces.list({ code: workspace })).items).toEqual([]);
  });

  it('imports the document, then exports the same models; a second import changes nothing', async () => {
    const first = await cli(['import', file, '--workspace', workspace]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(new RegExp(`^create +connection +erp_${id}$`, 'm'));
    expect(first.stdout).toMatch(new RegExp(`^create +dataflow +orders_${id}$`, 'm'));
    expect(first.stdout).toMatch(/ 0 to update, 0 unchanged, 0 to delete \(no --prune\) — applied$/m);
    const [ws] = (await admin.workspaces.list({ code: workspace })).items;
    const profiles = await admin.connectionProfiles.list({ workspace_id: ws!.id });
    // UUID ids no other row has become the registry ids too.
    expect(profiles.items.map((p) => p.id).sort()).toEqual([ids.erp, ids.bronze].sort());
    const erp = profiles.items.find((p) => p.id === ids.erp)!;
    expect(erp.secrets.map((s) => s.configure_field).sort()).toEqual(['password', 'username']);

    const again = await cli(['import', file, '--workspace', workspace]);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).not.toMatch(/^(create|update|delete) /m);
    expect(again.stdout).toMatch(
      /^0 to create, 0 to update, \d+ unchanged, 0 to delete .* — nothing to do$/m,
    );

    const out = join(dir, 'exported.json');
    expect(await cli(['export', '--workspace', workspace, '-o', out])).toMatchObject({ code: 0, stderr: '' });
    const exported = JSON.parse(readFileSync(out, 'utf8')) as unknown;
    expect(modelsAsServed(loadMetadataDocument(exported), workspace)).toBe(
      modelsAsServed(loadMetadataDocument(document), workspace),
    );

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

  it('writes nothing when the plan has problems (exit code 3), on a dry run as for real', async () => {
    const other = {
      connections: [
        {
          connection_id: randomUUID(),
          name: `nowhere_${id}`,
          connection_type: 'database',
          format: 'sql',
          configure: { database_type: 'postgresql', host: 'unknown.example.com' },
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
    const code = `ws-cli2-${id}`;
    const dry = await cli(['import', path, '--workspace', code, '--dry-run']);
    const run = await cli(['import', path, '--workspace', code]);
    expect(run.code).toBe(3);
    expect(dry.code).toBe(3);
    expect(run.stdout).toMatch(new RegExp(`^ {2}connection nowhere_${id}: .+$`, 'm'));
    expect(run.stdout).toMatch(/^ {2}schema_hint\S* .*: .*'?no_such_type'?.*$/m);
    expect(run.stdout).toMatch(/— not applied: \d+ problem\(s\), nothing written$/m);
    expect(dry.stdout).toBe(run.stdout);
    // The workspace the import would have created is not there either.
    expect((await admin.workspaces.list({ code })).items).toEqual([]);

    // --system names the system where matching cannot tell: that problem is gone.
    const named = await cli([
      'import',
      path,
      '--workspace',
      code,
      '--dry-run',
      '--format',
      'json',
      '--system',
      `nowhere_${id}=erp_pg_${id}`,
    ]);
    expect(named.code).toBe(3);
    const plan = JSON.parse(named.stdout) as Plan;
    expect(plan.problems.filter((p) => p.kind === 'connection')).toEqual([]);
    expect(plan.items).toContainEqual(
      expect.objectContaining({ kind: 'connection', name: `nowhere_${id}`, action: 'create' }),
    );
  });

  it('runs with an API key: the same document into a second workspace, then its export', async () => {
    // Ids are per workspace (ADR 0050): the document's ids import again, unchanged.
    const code = `ws-cli-key-${id}`;
    const ws = await admin.workspaces.create({ code, name: code });
    const keyFor = async (scopes: ('catalogue:read' | 'catalogue:write')[]) => ({
      AIDE_METASTORE_API_KEY: (
        await admin.apiKeys.create({ name: `cli-${code}`, workspace_ids: [ws.id], scopes })
      ).key,
    });
    // A table the catalogue does not have yet is a dataset to create: a key needs the catalogue:write
    // scope for it (ADR 0020); without it the plan has that problem and nothing is written.
    const keyed = structuredClone(document);
    keyed.dataflows[0]!.destination.table = `orders_keyed_${id}`;
    const path = join(dir, 'keyed.json');
    writeFileSync(path, JSON.stringify(keyed));
    const bare = await keyFor([]);
    const refused = await cli(['import', path, '--workspace', code], bare);
    expect(refused).toMatchObject({ code: 3, stderr: '' });
    expect(refused.stdout).toMatch(/^ {2}dataset .*catalogue:write.*$/m);
    expect((await admin.connectionProfiles.list({ workspace_id: ws.id })).items).toEqual([]);

    const imported = await cli(
      ['import', path, '--workspace', code],
      await keyFor(['catalogue:read', 'catalogue:write']),
    );
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    // Once the datasets exist, a key without scopes re-imports (nothing of the catalogue is written).
    expect(await cli(['import', path, '--workspace', code], bare)).toMatchObject({ code: 0, stderr: '' });
    // Export is one snapshot of the workspace: a key of the workspace needs no scope.
    const out = join(dir, 'keyed-exported.json');
    expect(await cli(['export', '--workspace', code, '-o', out], bare)).toMatchObject({
      code: 0,
      stderr: '',
    });
    const exported = JSON.parse(readFileSync(out, 'utf8')) as unknown;
    expect(modelsAsServed(loadMetadataDocument(exported), code)).toBe(
      modelsAsServed(loadMetadataDocument(keyed), code),
    );
    // Another workspace is out of the key's reach.
    const other = await cli(['export', '--workspace', workspace, '-o', join(dir, 'other.json')], bare);
    expect(other.code).toBe(1);
  });

  it("refuses a document DataCoolie would refuse, with DataCoolie's reason, and a call without credentials", async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(
      path,
      JSON.stringify({ dataflows: [{ name: 'x', source: { connection_name: 'missing' } }] }),
    );
    const bad = await cli(['import', path, '--workspace', workspace]);
    expect(bad).toMatchObject({ code: 1, stderr: 'error: Connection not found: missing\n' });
    const lakehouse = join(dir, 'lakehouse-csv.yaml');
    writeFileSync(
      lakehouse,
      stringify({
        connections: [{ name: 'acc_lakehouse', connection_type: 'lakehouse', format: 'csv', configure: {} }],
      }),
    );
    const csv = await cli(['import', lakehouse, '--workspace', workspace]);
    expect(csv).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `error: Invalid connection definition: acc_lakehouse (source: ${lakehouse}): Format 'csv' is not valid for connection_type 'lakehouse'. Allowed: delta, iceberg\n`,
    });
    // The whole scope is one request: past the registry's body limit, the CLI says which limit.
    const huge = join(dir, 'huge.json');
    writeFileSync(
      huge,
      JSON.stringify({
        connections: [
          { ...document.connections[1], configure: { base_path: lakeRoot, pad: 'x'.repeat(1_100_000) } },
        ],
      }),
    );
    const tooLarge = await cli(['import', huge, '--workspace', workspace]);
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.stderr).toMatch(
      /^error: the documents make an import request of \d+ bytes, more than the registry accepts \(413 PAYLOAD_TOO_LARGE\): raise its AIDE_BODY_LIMIT_BYTES\n$/,
    );
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
