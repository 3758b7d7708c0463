// `POST /workspaces/{workspace}/datacoolie/import` (ADR 0050): a DataCoolie document as one plan applied
// in one transaction — created, updated with exactly what changed, unchanged without a write, pruned;
// a failing document writes nothing; a dry run answers what the real run would.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { nameToUuid } from '@aide/schemas/datacoolie';
import { randomUUID } from 'node:crypto';
import { API, flavorByCode, flavorFor, type Row, seedReference } from '../../helpers/catalogue.js';
import { createSystem, ok, unique } from '../../helpers/factories.js';
import { createWorkspace } from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('DataCoolie document import', () => {
  let ctx: TestContext;
  let pg: Row;
  let lake: Row;
  let host: string;
  let lakeRoot: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    host = `${unique('erp')}.example.com`;
    pg = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, { extra: { host, port: 5432 } });
    lakeRoot = `s3://${unique('lake')}`;
    lake = await createSystem(ctx, (await flavorFor(ctx, 'storage')).id, { extra: { base_path: lakeRoot } });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const hint = (column_name: string, data_type: string, extra: Doc = {}) => ({
    column_name,
    data_type,
    format: null,
    precision: null,
    scale: null,
    default_value: null,
    ordinal_position: null,
    is_active: true,
    ...extra,
  });

  /** A document: an ERP database (password in a vault), a lakehouse, one copy dataflow, hints on both. */
  function document(ids: { erp: string; lake: string; flow: string }, secret = unique('erp-password')): Doc {
    return {
      connections: [
        {
          connection_id: ids.erp,
          workspace_id: null,
          name: 'acc_erp',
          connection_type: 'database',
          format: 'sql',
          catalog: null,
          database: 'erp',
          configure: { host, port: 5432, database_type: 'postgresql', username: 'loader', password: secret },
          secrets_ref: { vault: ['password'] },
          is_active: true,
          description: 'The ERP database',
        },
        {
          connection_id: ids.lake,
          workspace_id: null,
          name: 'acc_lakehouse',
          connection_type: 'lakehouse',
          format: 'delta',
          catalog: null,
          database: null,
          configure: { base_path: `${lakeRoot}/bronze`, use_schema_hint: false },
          secrets_ref: null,
          is_active: true,
        },
      ],
      dataflows: [
        {
          dataflow_id: ids.flow,
          workspace_id: null,
          name: 'acc_orders_source2bronze',
          description: 'Orders into bronze',
          stage: 'source2bronze',
          group_number: 1,
          execution_order: 1,
          processing_mode: 'batch',
          is_active: true,
          source: {
            connection_id: ids.erp,
            schema_name: 'sales',
            table: 'orders',
            query: null,
            python_function: null,
            watermark_columns: ['modified_at'],
            filter_expression: null,
            configure: {},
          },
          destination: {
            connection_id: ids.lake,
            schema_name: 'erp',
            table: 'orders',
            load_type: 'merge_upsert',
            merge_keys: ['order_id'],
            partition_columns: [],
            configure: { optimize: true },
          },
          transform: {},
          configure: {},
        },
      ],
      schema_hints: [
        {
          connection_id: ids.erp,
          schema_name: 'sales',
          table_name: 'orders',
          hints: [
            hint('amount', 'DECIMAL', { precision: 18, scale: 2, ordinal_position: 2 }),
            hint('order_id', 'INTEGER', { ordinal_position: 1 }),
          ],
        },
        {
          connection_id: ids.lake,
          schema_name: 'erp',
          table_name: 'orders',
          hints: [hint('created_on', 'date', { format: 'yyyy-MM-dd' })],
        },
      ],
    };
  }

  const freshIds = () => ({ erp: randomUUID(), lake: unique('lake-conn'), flow: randomUUID() });

  const post = (workspace: string, body: Doc, token = ctx.adminToken) =>
    ctx.request('POST', `${API}/workspaces/${workspace}/datacoolie/import`, { token, body });

  const counts = async () => {
    const [row] = await ctx.dataSource.query(
      `SELECT (SELECT count(*) FROM connection_profiles)::int AS profiles,
              (SELECT count(*) FROM dataflows)::int AS dataflows,
              (SELECT count(*) FROM datasets)::int AS datasets,
              (SELECT count(*) FROM credential_refs)::int AS refs,
              (SELECT count(*) FROM schema_hint_groups)::int AS groups,
              (SELECT count(*) FROM workspaces)::int AS workspaces`,
    );
    return row;
  };

  const etag = async (workspace: string) =>
    (
      await ctx.request('GET', `${API}/workspaces/${workspace}/datacoolie/snapshot`, {
        token: ctx.adminToken,
      })
    ).headers.get('etag');

  const actions = (plan: Doc) =>
    plan.items
      .map((i: Doc) => `${i.kind} ${i.name} ${i.action}`)
      .sort((a: string, b: string) => a.localeCompare(b));

  it('creates every object of a document, as written, in a workspace its code creates', async () => {
    const code = unique('imp').replace(/_/g, '-');
    const ids = freshIds();
    const secret = unique('erp-password');
    const plan = ok(await post(code, document(ids, secret)));
    expect(plan.workspace).toMatchObject({ code, action: 'create' });
    expect(plan.applied).toBe(true);
    expect(plan.problems).toEqual([]);
    expect(actions(plan)).toEqual(
      [
        'connection acc_erp create',
        'connection acc_lakehouse create',
        `credential_ref vault ${secret} create`,
        'dataflow acc_orders_source2bronze create',
        'dataset acc_erp: sales.orders create',
        'dataset acc_lakehouse: erp.orders create',
        'schema_hint_group acc_erp: sales.orders create',
        'schema_hint_group acc_lakehouse: erp.orders create',
      ].sort(),
    );
    expect(plan.summary).toEqual({ create: 8, update: 0, unchanged: 0, delete: 0 });
    for (const item of plan.items) expect(item.id).toEqual(expect.any(String));

    const workspace = ok(
      await ctx.request('GET', `${API}/workspaces?code=${code}`, { token: ctx.adminToken }),
    ).items[0];
    expect(workspace.id).toBe(plan.workspace.id);
    const profiles = ok(
      await ctx.request('GET', `${API}/connection-profiles?workspace_id=${workspace.id}&sort=name`, {
        token: ctx.adminToken,
      }),
    ).items;
    expect(profiles).toHaveLength(2);
    const [erp, lakehouse] = profiles;
    // A UUID no row has is kept as the registry id; any other id is kept as datacoolie_id only.
    expect(erp).toMatchObject({
      id: ids.erp,
      datacoolie_id: ids.erp,
      system_id: pg.id,
      as_written: true,
      description: 'The ERP database',
      configure: { host, port: 5432, database_type: 'postgresql', username: 'loader' },
      use_schema_hint: true,
    });
    expect(Object.keys(erp.configure)).toEqual(['host', 'port', 'database_type', 'username']);
    expect(erp.secrets).toHaveLength(1);
    expect(erp.secrets[0].configure_field).toBe('password');
    expect(lakehouse).toMatchObject({ datacoolie_id: ids.lake, system_id: lake.id, use_schema_hint: false });
    expect(lakehouse.id).not.toBe(ids.lake);
    const [keys] = await ctx.dataSource.query(
      `SELECT configure_keys FROM connection_profiles WHERE id = $1`,
      [erp.id],
    );
    expect(keys.configure_keys).toEqual(['host', 'port', 'database_type', 'username', 'password']);

    const flow = ok(
      await ctx.request('GET', `${API}/dataflows?workspace_id=${workspace.id}`, { token: ctx.adminToken }),
    ).items[0];
    expect(flow).toMatchObject({
      id: ids.flow,
      datacoolie_id: ids.flow,
      name: 'acc_orders_source2bronze',
      source_connection_id: erp.id,
      destination_connection_id: lakehouse.id,
      source_watermark_columns: ['modified_at'],
      load_type: 'merge_upsert',
      merge_keys: ['order_id'],
      destination_configure: { optimize: true },
    });
    // Hints keep their spelling and order, mapped to the registry type of their flavor; no version.
    const hints = await ctx.dataSource.query(
      `SELECT g.table_name, c.column_name, c.data_type, c.precision, c.type_params, t.code AS registry_code
       FROM schema_hint_groups g JOIN schema_hint_columns c ON c.group_id = g.id
       LEFT JOIN data_types t ON t.id = c.data_type_id
       WHERE g.workspace_id = $1 ORDER BY g.position, c.position`,
      [workspace.id],
    );
    expect(hints).toEqual([
      expect.objectContaining({
        column_name: 'amount',
        data_type: 'DECIMAL',
        registry_code: 'decimal',
        type_params: { precision: 18, scale: 2 },
      }),
      expect.objectContaining({ column_name: 'order_id', data_type: 'INTEGER', registry_code: 'integer' }),
      expect.objectContaining({ column_name: 'created_on', data_type: 'date', registry_code: 'date' }),
    ]);
    // Served on DataCoolie's routes: the connections by name, the dataflow with its ends.
    const served = (path: string) =>
      ctx.request('GET', `${API}/workspaces/${code}${path}`, { token: ctx.adminToken });
    const connections = ok(await served('/connections?active_only=false')).data;
    expect(connections.map((c: Doc) => c.name).sort()).toEqual(['acc_erp', 'acc_lakehouse']);
    expect(connections.find((c: Doc) => c.name === 'acc_erp')).toMatchObject({
      connection_type: 'database',
      format: 'sql',
      database: 'erp',
      configure: { host, username: 'loader', password: secret },
      secrets_ref: { vault: ['password'] },
    });
    const servedFlows = ok(await served('/dataflows?active_only=false')).data;
    expect(servedFlows).toHaveLength(1);
    expect(servedFlows[0]).toMatchObject({
      name: 'acc_orders_source2bronze',
      source: { schema_name: 'sales', table: 'orders', watermark_columns: ['modified_at'] },
      destination: {
        schema_name: 'erp',
        table: 'orders',
        merge_keys: ['order_id'],
        load_type: 'merge_upsert',
      },
    });
    const [versions] = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM dataset_schemas s JOIN datasets d ON d.id = s.dataset_id
       WHERE d.system_id = ANY($1::uuid[])`,
      [[pg.id, lake.id]],
    );
    expect(versions.n).toBe(0);
  });

  it('re-imports an unchanged document as a no-op, and a changed one as exactly its changes', async () => {
    const workspace = await createWorkspace(ctx);
    const ids = freshIds();
    const doc = document(ids);
    ok(await post(workspace.code, doc));
    const before = await etag(workspace.code);
    const [last] = await ctx.dataSource.query(`SELECT max(xid)::text AS xid FROM provider_changes`);
    const same = ok(await post(workspace.code, doc));
    expect(same.items.every((i: Doc) => i.action === 'unchanged')).toBe(true);
    expect(same.summary).toMatchObject({ create: 0, update: 0, delete: 0 });
    expect(await etag(workspace.code)).toBe(before);
    // No write at all: no transaction touched a table the snapshot reads.
    const [writes] = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM provider_changes WHERE xid > $1::xid8`,
      [last.xid],
    );
    expect(writes.n).toBe(0);

    const changed = structuredClone(doc);
    changed.connections[0].description = 'ERP, read replica';
    changed.connections[0].configure.username = 'reader';
    changed.dataflows[0].destination.merge_keys = ['order_id', 'line_no'];
    changed.dataflows[0].description = 'Orders and lines';
    changed.schema_hints[0].hints.push(hint('note', 'varchar(20)'));
    changed.schema_hints[1].hints[0].format = 'dd/MM/yyyy';
    const plan = ok(await post(workspace.code, changed));
    const updates = Object.fromEntries(
      plan.items
        .filter((i: Doc) => i.action === 'update')
        .map((i: Doc) => [`${i.kind} ${i.name}`, i.changes]),
    );
    expect(updates).toEqual({
      'connection acc_erp': [
        { field: 'description', before: 'The ERP database', after: 'ERP, read replica' },
        { field: 'configure.username', before: 'loader', after: 'reader' },
      ],
      'dataflow acc_orders_source2bronze': [
        { field: 'description', before: 'Orders into bronze', after: 'Orders and lines' },
        { field: 'destination.merge_keys', before: ['order_id'], after: ['order_id', 'line_no'] },
      ],
      'schema_hint_group acc_erp: sales.orders': [
        { field: 'hints.note', before: null, after: expect.objectContaining({ data_type: 'varchar(20)' }) },
      ],
      'schema_hint_group acc_lakehouse: erp.orders': [
        { field: 'hints.created_on.format', before: 'yyyy-MM-dd', after: 'dd/MM/yyyy' },
      ],
    });
    expect(plan.summary).toMatchObject({ create: 0, update: 4, delete: 0 });
    expect(await etag(workspace.code)).not.toBe(before);
    const profile = ok(
      await ctx.request('GET', `${API}/connection-profiles/${ids.erp}`, { token: ctx.adminToken }),
    );
    expect(profile).toMatchObject({ description: 'ERP, read replica', configure: { username: 'reader' } });
    const [note] = await ctx.dataSource.query(
      `SELECT c.type_params, t.code FROM schema_hint_columns c JOIN data_types t ON t.id = c.data_type_id
       WHERE c.column_name = 'note' AND c.group_id IN (SELECT id FROM schema_hint_groups WHERE workspace_id = $1)`,
      [workspace.id],
    );
    expect(note).toEqual({ code: 'varchar', type_params: { length: 20 } });
    // Applied: the same changed document is now unchanged.
    const again = ok(await post(workspace.code, changed));
    expect(again.items.every((i: Doc) => i.action === 'unchanged')).toBe(true);
  });

  it('moves a lakehouse with its tables: dataflows are checked against the profile once they moved too', async () => {
    const workspace = await createWorkspace(ctx);
    const doc = document(freshIds());
    ok(await post(workspace.code, doc));
    const moved = structuredClone(doc);
    moved.connections[1].configure.base_path = `${lakeRoot}/bronze_v2`;
    const plan = ok(await post(workspace.code, moved));
    const changed = plan.items
      .filter((i: Doc) => i.action !== 'unchanged')
      .map((i: Doc) => [i.kind, i.name, i.action, i.changes.map((c: Doc) => c.field)]);
    expect(changed).toEqual([
      ['dataset', 'acc_lakehouse: erp.orders', 'create', []],
      ['connection', 'acc_lakehouse', 'update', ['configure.base_path']],
      ['dataflow', 'acc_orders_source2bronze', 'update', ['destination.dataset']],
      ['schema_hint_group', 'acc_lakehouse: erp.orders', 'update', ['dataset']],
    ]);
    const flow = ok(
      await ctx.request('GET', `${API}/dataflows?workspace_id=${workspace.id}`, { token: ctx.adminToken }),
    ).items[0];
    const dataset = plan.items.find((i: Doc) => i.kind === 'dataset' && i.action === 'create');
    expect(flow.destination_dataset_id).toBe(dataset.id);
  });

  it('prune deletes what the document no longer names (dataflows and hint groups before profiles)', async () => {
    const workspace = await createWorkspace(ctx);
    const ids = freshIds();
    const doc = document(ids);
    ok(await post(workspace.code, doc));
    const smaller = structuredClone(doc);
    smaller.connections = [smaller.connections[0]];
    smaller.dataflows = [];
    smaller.schema_hints = [smaller.schema_hints[0]];
    // Without prune nothing is deleted.
    const kept = ok(await post(workspace.code, smaller));
    expect(kept.summary.delete).toBe(0);
    const plan = ok(await post(workspace.code, { ...smaller, prune: true }));
    const deletions = plan.items
      .filter((i: Doc) => i.action === 'delete')
      .map((i: Doc) => `${i.kind} ${i.name}`);
    expect(deletions).toEqual([
      'dataflow acc_orders_source2bronze',
      'schema_hint_group acc_lakehouse: erp.orders',
      'connection acc_lakehouse',
    ]);
    const profiles = ok(
      await ctx.request('GET', `${API}/connection-profiles?workspace_id=${workspace.id}`, {
        token: ctx.adminToken,
      }),
    ).items;
    expect(profiles.map((p: Row) => p.name)).toEqual(['acc_erp']);
    const flows = ok(
      await ctx.request('GET', `${API}/dataflows?workspace_id=${workspace.id}`, { token: ctx.adminToken }),
    ).items;
    expect(flows).toEqual([]);
    const [groups] = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM schema_hint_groups WHERE workspace_id = $1`,
      [workspace.id],
    );
    expect(groups.n).toBe(1);
  });

  it('a failing document writes nothing, and its dry run answers the same', async () => {
    const workspace = await createWorkspace(ctx);
    const failing: Doc[] = [];
    const unmatched = document(freshIds());
    unmatched.connections[0].configure.host = 'nowhere.example.com';
    failing.push(unmatched);
    const unknownType = document(freshIds());
    unknownType.schema_hints[0].hints.push(hint('weird', 'HYPERLOGLOG'));
    failing.push(unknownType);
    const csvLake = document(freshIds());
    csvLake.connections[1].format = 'csv';
    failing.push(csvLake);
    const expected = [
      {
        kind: 'connection',
        name: 'acc_erp',
        reason: expect.stringContaining('no system matches the connection'),
        code: null,
      },
      {
        kind: 'schema_hint',
        name: 'acc_erp: sales.orders.weird',
        reason: "data type 'HYPERLOGLOG' is not a data type of the type system's flavor",
        code: null,
      },
      {
        kind: 'connection',
        name: 'acc_lakehouse',
        reason: "Format 'csv' is not valid for connection_type 'lakehouse'. Allowed: delta, iceberg",
        code: null,
      },
    ];
    for (const [index, doc] of failing.entries()) {
      const before = await counts();
      const real = expectEnvelope(await post(workspace.code, doc), 422, 'DATACOOLIE_IMPORT_INVALID');
      expect(real.details.plan.problems).toEqual([expected[index]]);
      expect(real.details.plan.applied).toBe(false);
      expect(await counts()).toEqual(before);
      const dry = expectEnvelope(
        await post(workspace.code, { ...doc, dry_run: true }),
        422,
        'DATACOOLIE_IMPORT_INVALID',
      );
      expect(dry.details.plan.problems).toEqual(real.details.plan.problems);
      expect(actions(dry.details.plan)).toEqual(actions(real.details.plan));
      expect(await counts()).toEqual(before);
    }
    // A code naming no workspace is not created by a failing import either.
    const code = unique('never').replace(/_/g, '-');
    expectEnvelope(await post(code, unmatched), 422, 'DATACOOLIE_IMPORT_INVALID');
    expectEnvelope(
      await ctx.request('GET', `${API}/workspaces/${code}/datacoolie/snapshot`, { token: ctx.adminToken }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
  });

  it('a dry run plans and checks what the real run does, refusals of the apply step included', async () => {
    const ids = freshIds();
    const doc = document(ids);
    const workspace = await createWorkspace(ctx);
    const before = await counts();
    const dry = ok(await post(workspace.code, { ...doc, dry_run: true }));
    expect(dry).toMatchObject({ dry_run: true, applied: false, problems: [] });
    expect(dry.items.filter((i: Doc) => i.action === 'create').every((i: Doc) => i.id === null)).toBe(true);
    expect(await counts()).toEqual(before);
    const real = ok(await post(workspace.code, doc));
    expect(actions(real)).toEqual(actions(dry));
    expect(real.summary).toEqual(dry.summary);

    // Only the profile's own rules see that a lakehouse cannot be made over a PostgreSQL system.
    const mismatch = document(freshIds());
    mismatch.systems = { acc_lakehouse: pg.code, acc_erp: lake.code };
    mismatch.dataflows = [];
    const other = await createWorkspace(ctx);
    const counted = await counts();
    const refused = expectEnvelope(
      await post(other.code, { ...mismatch, dry_run: true }),
      422,
      'DATACOOLIE_IMPORT_INVALID',
    );
    const realRefused = expectEnvelope(await post(other.code, mismatch), 422, 'DATACOOLIE_IMPORT_INVALID');
    // Nothing was written: the answers are equal, ids of planned creations included (null).
    expect(realRefused.details.plan).toEqual({ ...refused.details.plan, dry_run: false });
    // Every refusal is reported, each with its code (one savepoint per item).
    expect(refused.details.plan.problems).toEqual([
      expect.objectContaining({
        kind: 'dataset',
        name: 'acc_erp: sales.orders',
        code: 'DATASET_SYSTEM_KIND_MISMATCH',
      }),
      expect.objectContaining({
        kind: 'connection',
        name: 'acc_erp',
        code: 'CONNECTION_PROFILE_SYSTEM_MISMATCH',
      }),
      expect.objectContaining({
        kind: 'connection',
        name: 'acc_lakehouse',
        code: 'CONNECTION_PROFILE_SYSTEM_MISMATCH',
      }),
    ]);
    expect(actions(realRefused.details.plan)).toEqual(actions(refused.details.plan));
    expect(await counts()).toEqual(counted);
  });

  it('reports a refusal a database constraint makes (a name taken), dry run and real run alike', async () => {
    const workspace = await createWorkspace(ctx);
    // The workspace already has a profile named acc_lakehouse under another datacoolie_id.
    ok(
      await ctx.request('POST', `${API}/connection-profiles`, {
        token: ctx.adminToken,
        body: {
          workspace_id: workspace.id,
          system_id: lake.id,
          name: 'acc_lakehouse',
          connection_type: 'lakehouse',
          format: 'delta',
          configure: { base_path: `${lakeRoot}/other` },
        },
      }),
      201,
    );
    const doc = document(freshIds());
    const before = await counts();
    const dry = expectEnvelope(
      await post(workspace.code, { ...doc, dry_run: true }),
      422,
      'DATACOOLIE_IMPORT_INVALID',
    );
    const real = expectEnvelope(await post(workspace.code, doc), 422, 'DATACOOLIE_IMPORT_INVALID');
    expect(real.details.plan.problems).toEqual([
      expect.objectContaining({
        kind: 'connection',
        name: 'acc_lakehouse',
        code: 'CONNECTION_PROFILE_ALREADY_EXISTS',
      }),
    ]);
    expect(dry.details.plan.problems).toEqual(real.details.plan.problems);
    expect(actions(dry.details.plan)).toEqual(actions(real.details.plan));
    expect(await counts()).toEqual(before);
  });

  it('a dry run into a code naming no workspace plans its creation and creates nothing', async () => {
    const code = unique('dry').replace(/_/g, '-');
    const before = await counts();
    const plan = ok(await post(code, { ...document(freshIds()), dry_run: true }));
    expect(plan.workspace).toEqual({ id: null, code, action: 'create' });
    // Datasets are shared across workspaces: earlier tests may have made these two.
    expect(plan.summary.create + plan.summary.unchanged).toBe(8);
    expect(plan.items.filter((i: Doc) => i.kind !== 'dataset').every((i: Doc) => i.action === 'create')).toBe(
      true,
    );
    expect(await counts()).toEqual(before);
  });

  it('keeps hints of a type system with no seeded flavor unchecked (mssql)', async () => {
    const workspace = await createWorkspace(ctx);
    const doc = document(freshIds());
    doc.connections[0].configure.schema_hint_type_system = 'mssql';
    doc.schema_hints[0].hints.push(hint('remarks', 'NVARCHAR(MAX)'));
    ok(await post(workspace.code, doc));
    const rows = await ctx.dataSource.query(
      `SELECT c.column_name, c.data_type, c.data_type_id FROM schema_hint_columns c
       JOIN schema_hint_groups g ON g.id = c.group_id
       WHERE g.workspace_id = $1 AND g.table_name = 'orders' AND g.schema_name = 'sales' ORDER BY c.position`,
      [workspace.id],
    );
    expect(rows).toEqual([
      { column_name: 'amount', data_type: 'DECIMAL', data_type_id: null },
      { column_name: 'order_id', data_type: 'INTEGER', data_type_id: null },
      { column_name: 'remarks', data_type: 'NVARCHAR(MAX)', data_type_id: null },
    ]);
  });

  it('creating credential references stays a superuser right', async () => {
    const workspace = await createWorkspace(ctx);
    const refused = expectEnvelope(
      await post(workspace.code, document(freshIds()), ctx.userToken),
      422,
      'DATACOOLIE_IMPORT_INVALID',
    );
    expect(refused.details.plan.problems).toEqual([
      expect.objectContaining({ kind: 'credential_ref', code: 'FORBIDDEN' }),
    ]);
  });

  it('imports one document with name-derived ids into two workspaces, each serving its ids', async () => {
    const ids = {
      erp: nameToUuid('acc_erp'),
      lake: nameToUuid('acc_lakehouse'),
      flow: nameToUuid('acc_orders_source2bronze'),
    };
    const doc = document(ids);
    const first = await createWorkspace(ctx);
    const second = await createWorkspace(ctx);
    ok(await post(first.code, doc));
    ok(await post(second.id, doc));
    const rows = await ctx.dataSource.query(
      `SELECT workspace_id, id, datacoolie_id FROM connection_profiles
       WHERE workspace_id = ANY($1::uuid[]) AND name = 'acc_erp' ORDER BY created_at`,
      [[first.id, second.id]],
    );
    expect(rows.map((r: Row) => r.datacoolie_id)).toEqual([ids.erp, ids.erp]);
    expect(rows[0].id).not.toBe(rows[1].id);
    const flows = await ctx.dataSource.query(
      `SELECT id, datacoolie_id FROM dataflows WHERE workspace_id = ANY($1::uuid[]) ORDER BY created_at`,
      [[first.id, second.id]],
    );
    expect(flows.map((r: Row) => r.datacoolie_id)).toEqual([ids.flow, ids.flow]);
    expect(flows[0].id).not.toBe(flows[1].id);
  });

  it('answers 404 for a workspace UUID naming none, 403 for a key scoped elsewhere', async () => {
    expectEnvelope(await post(randomUUID(), document(freshIds())), 404, 'WORKSPACE_NOT_FOUND');
    const mine = await createWorkspace(ctx);
    const other = await createWorkspace(ctx);
    const key = ok(
      await ctx.request('POST', `${API}/api-keys`, {
        token: ctx.userToken,
        body: { name: unique('pipelines'), workspace_ids: [mine.id] },
      }),
      201,
    ).key;
    const asKey = (workspace: string) =>
      ctx.request('POST', `${API}/workspaces/${workspace}/datacoolie/import`, {
        token: null,
        headers: { 'x-api-key': key },
        body: { dry_run: true },
      });
    expectEnvelope(await asKey(other.code), 403, 'FORBIDDEN');
    expect(ok(await asKey(mine.code))).toMatchObject({ applied: false, items: [], problems: [] });
    // A key writes the catalogue (datasets) only with catalogue:write, as on the REST routes.
    const noSecrets = document(freshIds());
    noSecrets.connections[0].secrets_ref = null;
    delete noSecrets.connections[0].configure.password;
    noSecrets.dataflows[0].destination.table = unique('orders');
    const refused = expectEnvelope(
      await ctx.request('POST', `${API}/workspaces/${mine.code}/datacoolie/import`, {
        token: null,
        headers: { 'x-api-key': key },
        body: noSecrets,
      }),
      422,
      'DATACOOLIE_IMPORT_INVALID',
    );
    expect(refused.details.plan.problems).toEqual([
      expect.objectContaining({ kind: 'dataset', code: 'FORBIDDEN' }),
    ]);
  });
});
