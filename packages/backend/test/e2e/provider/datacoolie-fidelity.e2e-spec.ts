// What the DataCoolie routes and the workspace snapshot serve is exactly what was put in (ADR 0050):
// the ids DataCoolie sees (`datacoolie_id`), the workspace's code as `workspace_id`, an `as_written`
// connection's configure in its written key order with secret names in their places and nothing
// derived, its description, the stored dataflow objects in their key order, and declared hint groups
// in their spelling and order. Compared as JSON text, so key order counts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createConnection } from '@aide/schemas/datacoolie';
import { API, type Row, seedReference } from '../../helpers/catalogue.js';
import { createCredentialRef, ok, unique } from '../../helpers/factories.js';
import {
  copyBody,
  createDataflowRequest,
  createProfile,
  type PipelineFixture,
  pipelineFixture,
} from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

const STORE_B = 'https://kv-b.vault.azure.net/';
const STORE_A = 'https://kv-a.vault.azure.net/';

/** JSON text: equal texts mean equal keys, values and order. */
const text = (value: unknown) => JSON.stringify(value);

type Hint = [
  string,
  string,
  string | null,
  number | null,
  number | null,
  string | null,
  number | null,
  boolean,
];

describe('DataCoolie fidelity: served exactly as put in', () => {
  let ctx: TestContext;
  let f: PipelineFixture;
  let base: string;
  let connPg: Row;
  let flow: Row;
  let erpFlow: Row;
  let expectedConnection: Record<string, unknown>;
  const flowConfigure = { zeta: 1, alpha: { y: 2, b: [3, { d: 4, c: 5 }] }, middle: null };
  const flowDestinationConfigure = { write_mode: 'x', compression: 'zstd', b: true };

  /** Inserts a declared hint group as the import writes it; returns its id. */
  const declareGroup = async (
    profileId: string,
    position: number,
    schema: string | null,
    table: string,
    hints: Hint[],
  ): Promise<string> => {
    const [{ id }] = await ctx.dataSource.query(
      `INSERT INTO schema_hint_groups (workspace_id, connection_profile_id, schema_name, table_name, position)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [f.workspace.id, profileId, schema, table, position],
    );
    for (const [i, h] of hints.entries()) {
      await ctx.dataSource.query(
        `INSERT INTO schema_hint_columns (group_id, position, column_name, data_type, format, precision, scale,
                                          default_value, ordinal_position, is_active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [id, i, ...h],
      );
    }
    return id as string;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    f = await pipelineFixture(ctx);
    base = `${API}/workspaces/${f.workspace.code}`;
    const ref = async (provider: string, path: string) =>
      (await createCredentialRef(ctx, { provider, path })).id;
    const name = unique('acc_pg');
    connPg = await createProfile(ctx, f.workspace.id, f.pgSystem.id, {
      name,
      datacoolie_id: 'conn-pg',
      as_written: true,
      description: 'The ERP replica',
      database: 'erp',
      configure: {
        port: 6543,
        host: 'replica.internal',
        read_options: { fetchsize: 1000, batch: 'b', auto: { z: 1, a: 2 } },
        database_type: 'postgresql',
      },
      secrets: [
        { configure_field: 'username', credential_ref_id: await ref(STORE_B, 'pg-user') },
        { configure_field: 'password', credential_ref_id: await ref(STORE_A, 'pg-password') },
        { configure_field: 'token', credential_ref_id: await ref(STORE_B, 'pg-token') },
      ],
    });
    // The document's order, secret fields in their places (the import writes it; REST appends them).
    await ctx.dataSource.query(`UPDATE connection_profiles SET configure_keys = $2 WHERE id = $1`, [
      connPg.id,
      ['port', 'username', 'host', 'password', 'read_options', 'token', 'database_type'],
    ]);
    expectedConnection = {
      connection_id: 'conn-pg',
      workspace_id: f.workspace.code,
      name,
      connection_type: 'database',
      format: 'sql',
      catalog: null,
      database: 'erp',
      configure: {
        port: 6543,
        username: 'pg-user',
        host: 'replica.internal',
        password: 'pg-password',
        read_options: { fetchsize: 1000, batch: 'b', auto: { z: 1, a: 2 } },
        token: 'pg-token',
        database_type: 'postgresql',
      },
      secrets_ref: { [STORE_B]: ['username', 'token'], [STORE_A]: ['password'] },
      is_active: true,
      description: 'The ERP replica',
    };
    flow = ok(
      await createDataflowRequest(
        ctx,
        copyBody(f, {
          datacoolie_id: 'flow-1',
          source_connection_id: connPg.id,
          configure: flowConfigure,
          destination_configure: flowDestinationConfigure,
        }),
      ),
      201,
    );
    erpFlow = ok(await createDataflowRequest(ctx, copyBody(f)), 201);
    // Two groups of conn-pg, in document order (customers first though no dataflow reads it), with
    // types in their spelling and null ordinal positions.
    await declareGroup(connPg.id, 0, null, 'Customers', [
      ['name', 'varchar', null, null, null, null, null, true],
      ['ID', 'INTEGER', null, null, null, null, 1, true],
    ]);
    await declareGroup(connPg.id, 1, 'sales', f.orders.table_name, [
      ['order_id', 'BIGINT', null, null, null, null, 2, true],
      ['Amount', 'DECIMAL', null, 18, 2, '0.00', null, true],
      ['updated_at', 'timestamp', 'yyyy-MM-dd HH:mm:ss', null, null, null, 1, true],
      ['note', 'String', null, null, null, null, null, false],
      ['channel', 'string', null, null, null, null, 2, true],
    ]);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const get = (path: string) => ctx.request('GET', `${base}${path}`, { token: ctx.userToken });
  const snapshot = async () => ok(await get('/datacoolie/snapshot'));

  it('serves an as-written connection exactly: ids, code, key order, secrets in place, description, nothing derived', async () => {
    const one = ok(await get('/connections/conn-pg'));
    expect(text(one)).toBe(text(expectedConnection));
    // The registry id still finds it, served with the id DataCoolie sees.
    expect(text(ok(await get(`/connections/${connPg.id}`)))).toBe(text(expectedConnection));
    const listed = ok(await get('/connections?page_size=200')).data;
    expect(text(listed.find((c: { name: string }) => c.name === connPg.name))).toBe(text(expectedConnection));
    const served = await snapshot();
    expect(served.excluded).toEqual([]);
    expect(text(served.connections.find((c: { name: string }) => c.name === connPg.name))).toBe(
      text(expectedConnection),
    );
    // DataCoolie's own model takes it and keeps the key order.
    expect(text(createConnection(one).configure)).toBe(text(expectedConnection['configure']));
  });

  it('serves every connection and dataflow with the workspace code as workspace_id', async () => {
    const connections = ok(await get('/connections?page_size=200')).data;
    const dataflows = ok(await get('/dataflows?page_size=200')).data;
    expect(connections.length).toBeGreaterThanOrEqual(3);
    expect(dataflows).toHaveLength(2);
    for (const item of [...connections, ...dataflows]) expect(item.workspace_id).toBe(f.workspace.code);
    for (const d of dataflows) {
      expect(d.source.connection.workspace_id).toBe(f.workspace.code);
      expect(d.destination.connection.workspace_id).toBe(f.workspace.code);
    }
    const served = await snapshot();
    expect(served.workspace_id).toBe(f.workspace.id);
    expect(served.workspace_code).toBe(f.workspace.code);
    for (const item of [...served.connections, ...served.dataflows])
      expect(item.workspace_id).toBe(f.workspace.code);
  });

  it('serves a dataflow by the id DataCoolie sees, its ends naming conn-pg, its objects in stored order', async () => {
    const one = ok(await get('/dataflows/flow-1'));
    expect(one.dataflow_id).toBe('flow-1');
    expect(text(one.source.connection)).toBe(text(expectedConnection));
    expect(one.destination.connection.connection_id).toBe(f.bronze.id);
    expect(text(one.configure)).toBe(text(flowConfigure));
    expect(text(one.destination.configure)).toBe(text(flowDestinationConfigure));
    expect(text(ok(await get(`/dataflows/${flow.id}`)))).toBe(text(one));
    const listed = ok(await get('/dataflows?page_size=200')).data;
    expect(text(listed.find((d: { dataflow_id: string }) => d.dataflow_id === 'flow-1'))).toBe(text(one));
    const served = (await snapshot()).dataflows.find(
      (d: { dataflow_id: string }) => d.dataflow_id === 'flow-1',
    );
    expect(served.source.connection_id).toBe('conn-pg');
    expect(text(served.configure)).toBe(text(flowConfigure));
    // A profile made in AIDE is served by its registry id, which is its datacoolie_id.
    expect(ok(await get(`/dataflows/${erpFlow.id}`)).source.connection.connection_id).toBe(f.erp.id);
    expectEnvelope(await get('/dataflows/flow-2'), 404, 'DATAFLOW_NOT_FOUND');
    expectEnvelope(await get('/connections/conn-other'), 404, 'CONNECTION_PROFILE_NOT_FOUND');
  });

  it('serves declared hints as written: spelling, group order, ordinal order with nulls last', async () => {
    const customers: Hint[] = [
      ['ID', 'INTEGER', null, null, null, null, 1, true],
      ['name', 'varchar', null, null, null, null, null, true],
    ];
    const orders: Hint[] = [
      ['updated_at', 'timestamp', 'yyyy-MM-dd HH:mm:ss', null, null, null, 1, true],
      ['order_id', 'BIGINT', null, null, null, null, 2, true],
      ['channel', 'string', null, null, null, null, 2, true],
      ['Amount', 'DECIMAL', null, 18, 2, '0.00', null, true],
      ['note', 'String', null, null, null, null, null, false],
    ];
    const served = await snapshot();
    const fields: string[] = served.hint_fields;
    // conn-pg is as written: only its declared groups, none derived from the orders table it reads.
    expect(
      text(served.schema_hints.filter((g: { connection_id: string }) => g.connection_id === 'conn-pg')),
    ).toBe(
      text([
        { connection_id: 'conn-pg', schema_name: null, table_name: 'Customers', hints: customers },
        { connection_id: 'conn-pg', schema_name: 'sales', table_name: f.orders.table_name, hints: orders },
      ]),
    );
    const rows = ok(await get('/schema-hints?connection_id=conn-pg&page_size=200')).data;
    const row = (schema: string | null, table: string, hint: Hint) => ({
      connection_id: 'conn-pg',
      schema_name: schema,
      table_name: table,
      ...Object.fromEntries(fields.map((field, i) => [field, hint[i]])),
    });
    expect(text(rows)).toBe(
      text([
        ...customers.map((h) => row(null, 'Customers', h)),
        ...orders.map((h) => row('sales', f.orders.table_name, h)),
      ]),
    );
    expect(
      ok(await get('/schema-hints?connection_id=conn-pg&table_name=customers&active_only=true')).data.map(
        (r: { column_name: string }) => r.column_name,
      ),
    ).toEqual(['ID', 'name']);
  });

  it('still derives configure and hints for a profile made in AIDE (as_written false), and descriptions stay absent when null', async () => {
    const erp = ok(await get(`/connections/${f.erp.id}`));
    expect(text(erp)).toBe(
      text({
        connection_id: f.erp.id,
        workspace_id: f.workspace.code,
        name: f.erp.name,
        connection_type: 'database',
        format: 'sql',
        catalog: null,
        database: 'erp',
        configure: {
          host: 'erp-db.internal.example.com',
          port: 5432,
          database_type: 'postgresql',
          schema_hint_type_system: 'postgresql',
          use_schema_hint: true,
        },
        secrets_ref: null,
        is_active: true,
      }),
    );
    const group = (await snapshot()).schema_hints.find(
      (g: { connection_id: string }) => g.connection_id === f.erp.id,
    );
    expect(group.hints.map((h: Hint) => [h[0], h[1]])).toEqual([
      ['order_id', 'bigint'],
      ['amount', 'numeric'],
      ['updated_at', 'timestamptz'],
    ]);
  });

  it('a declared group wins its key over the derived one; the ETag changes whenever hint rows change', async () => {
    const etagOf = async () => {
      const answer = await get('/datacoolie/snapshot');
      ok(answer);
      return { etag: answer.headers.get('etag')!, body: answer.body };
    };
    const notModified = async (etag: string) =>
      (
        await ctx.request('GET', `${base}/datacoolie/snapshot`, {
          token: ctx.userToken,
          headers: { 'if-none-match': etag },
        })
      ).status;
    const before = await etagOf();
    expect(await notModified(before.etag)).toBe(304);
    const groupId = await declareGroup(f.erp.id, 2, 'SALES', f.orders.table_name.toUpperCase(), [
      ['Amount', 'NUMERIC', null, 20, 4, null, null, true],
    ]);
    const declared = await etagOf();
    expect(declared.etag).not.toBe(before.etag);
    expect(await notModified(before.etag)).toBe(200);
    const erpGroups = declared.body.schema_hints.filter(
      (g: { connection_id: string }) => g.connection_id === f.erp.id,
    );
    expect(erpGroups).toEqual([
      {
        connection_id: f.erp.id,
        schema_name: 'SALES',
        table_name: f.orders.table_name.toUpperCase(),
        hints: [['Amount', 'NUMERIC', null, 20, 4, null, null, true]],
      },
    ]);
    // A changed hint column alone changes the revision.
    await ctx.dataSource.query(`UPDATE schema_hint_columns SET data_type = 'DECIMAL' WHERE group_id = $1`, [
      groupId,
    ]);
    const changed = await etagOf();
    expect(changed.etag).not.toBe(declared.etag);
    expect(
      changed.body.schema_hints.find((g: { connection_id: string }) => g.connection_id === f.erp.id)
        .hints[0][1],
    ).toBe('DECIMAL');
    // Without the declared group, the derived one is back, and so is the first revision.
    await ctx.dataSource.query(`DELETE FROM schema_hint_groups WHERE id = $1`, [groupId]);
    const back = await etagOf();
    expect(back.etag).toBe(before.etag);
  });

  it('does not serve the declared groups of a deleted profile', async () => {
    const gone = await createProfile(ctx, f.workspace.id, f.pgSystem.id, {
      name: unique('gone'),
      datacoolie_id: 'conn-gone',
      as_written: true,
    });
    await declareGroup(gone.id, 3, null, 'old_table', [['c', 'INT', null, null, null, null, 1, true]]);
    const keys = async () =>
      (await snapshot()).schema_hints.map((g: { connection_id: string }) => g.connection_id);
    expect(await keys()).toContain('conn-gone');
    ok(await ctx.request('DELETE', `${API}/connection-profiles/${gone.id}`, { token: ctx.adminToken }));
    expect(await keys()).not.toContain('conn-gone');
    expect(ok(await get('/schema-hints?connection_id=conn-gone')).data).toEqual([]);
    expectEnvelope(await get('/connections/conn-gone'), 404, 'CONNECTION_PROFILE_NOT_FOUND');
  });

  it('keeps watermarks through the id DataCoolie sees, keyed by the registry dataflow', async () => {
    const put = (id: string, value: string) =>
      ctx.request('PUT', `${base}/watermarks/${id}`, {
        token: ctx.userToken,
        body: { current_value: value },
      });
    expect(ok(await get('/watermarks/flow-1'))).toMatchObject({ dataflow_id: flow.id, revision: 0 });
    expect(ok(await put('flow-1', '{"updated_at": "2026-01-01"}'))).toEqual({ status: 'ok', revision: 1 });
    expect(ok(await get('/watermarks/flow-1')).current_value).toBe('{"updated_at": "2026-01-01"}');
    // The registry id names the same watermark, on DataCoolie's route and the registry's.
    ok(await put(flow.id, '{"updated_at": "2026-01-02"}'));
    expect(ok(await get('/watermarks/flow-1'))).toMatchObject({
      current_value: '{"updated_at": "2026-01-02"}',
      previous_value: '{"updated_at": "2026-01-01"}',
      revision: 2,
    });
    expect(
      ok(await ctx.request('GET', `${API}/dataflows/${flow.id}/watermark`, { token: ctx.userToken }))
        .current_value,
    ).toBe('{"updated_at": "2026-01-02"}');
    expectEnvelope(await get('/watermarks/flow-2'), 404, 'DATAFLOW_NOT_FOUND');
    expectEnvelope(await put('flow-2', 'x'), 404, 'DATAFLOW_NOT_FOUND');
  });

  it('serves the same document ids in a second workspace, each workspace its own objects and watermarks', async () => {
    const g = await pipelineFixture(ctx);
    const other = await createProfile(ctx, g.workspace.id, g.pgSystem.id, {
      name: connPg.name,
      datacoolie_id: 'conn-pg',
      as_written: true,
      database: 'erp',
      configure: { host: 'other.internal' },
    });
    ok(
      await createDataflowRequest(
        ctx,
        copyBody(g, { datacoolie_id: 'flow-1', source_connection_id: other.id }),
      ),
      201,
    );
    const otherBase = `${API}/workspaces/${g.workspace.code}`;
    const read = (path: string) => ctx.request('GET', `${otherBase}${path}`, { token: ctx.userToken });
    expect(ok(await read('/connections/conn-pg'))).toMatchObject({
      workspace_id: g.workspace.code,
      configure: { host: 'other.internal' },
    });
    expect(ok(await read('/watermarks/flow-1')).revision).toBe(0);
    ok(
      await ctx.request('PUT', `${otherBase}/watermarks/flow-1`, {
        token: ctx.userToken,
        body: { current_value: 'other' },
      }),
    );
    expect(ok(await get('/watermarks/flow-1')).current_value).toBe('{"updated_at": "2026-01-02"}');
    // Neither workspace's registry ids reach into the other.
    expectEnvelope(await read(`/connections/${connPg.id}`), 404, 'CONNECTION_PROFILE_NOT_FOUND');
    expectEnvelope(await read(`/watermarks/${flow.id}`), 404, 'DATAFLOW_NOT_FOUND');
  });
});
