// The workspace snapshot (reference §8.6 item 2): the complete DataCoolie scope read in one
// transaction — connections exported from profiles and systems, dataflows with addressed ends, schema
// hints from the source datasets' current versions — every item valid for DataCoolie's models, and a
// revision that changes exactly when the metadata does.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createConnection, createDataflow, createSchemaHint } from '@aide/schemas/datacoolie';
import {
  type DataCoolieSnapshot,
  type DataCoolieSnapshotPage,
  DataCoolieSnapshotPageSchema,
} from '@aide/schemas';
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
import { withClient } from '../../../src/database/pg-client.js';
import type { SnapshotPageAnswer } from '../../../src/modules/datacoolie/workspace-snapshot.service.js';
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
    group.hints.forEach((tuple) =>
      createSchemaHint(Object.fromEntries(snapshot.hint_fields.map((field, i) => [field, tuple[i]]))),
    );
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
    // workspace_id is the workspace's code, the id DataCoolie users configure (ADR 0050).
    expect(connection).toEqual({
      connection_id: secured.id,
      workspace_id: f.workspace.code,
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
      workspace_id: f.workspace.code,
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
    // JSON objects are as stored; DataCoolie's models fill their defaults.
    expect(dataflow!.transform).toEqual({});
    const group = snapshot.schema_hints.find((g) => g.connection_id === f.erp.id);
    expect(group).toEqual({
      connection_id: f.erp.id,
      schema_name: 'sales',
      table_name: dataflow!.source.table,
      hints: [
        ['order_id', 'bigint', null, null, null, null, 1, true],
        ['amount', 'numeric', null, 18, 2, null, 2, true],
        ['updated_at', 'timestamptz', null, null, null, null, 3, true],
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
    expect(group?.hints.map((h) => [h[0], h[1]])).toEqual([
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
    expect(amount).toEqual(['amount', 'numeric', null, 20, 4, null, 2, true]);
  });

  it('answers WORKSPACE_NOT_FOUND for an unknown workspace', async () => {
    await expect(snapshots.build('no-such-workspace')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });

  describe('kept snapshots', () => {
    const kept = async (): Promise<number> =>
      Number((await ctx.dataSource.query('SELECT count(*) AS n FROM provider_snapshots'))[0].n);
    const body = (answer: SnapshotPageAnswer): DataCoolieSnapshotPage => {
      if (answer.notModified) throw new Error('expected a page');
      return DataCoolieSnapshotPageSchema.parse(JSON.parse(gunzipSync(answer.gzip).toString('utf8')));
    };
    const first = async (pageSize?: number) =>
      body(await snapshots.page(f.workspace.id, pageSize ? { page_size: pageSize } : {}));

    it('serves the kept snapshot while nothing changed, and answers "not modified" for its revision', async () => {
      const a = await first();
      const count = await kept();
      const b = await first();
      expect(b.revision).toBe(a.revision);
      expect(b.generated_at).toBe(a.generated_at);
      expect(await kept()).toBe(count);
      expect(await snapshots.page(f.workspace.code, {}, [a.revision])).toEqual({
        notModified: true,
        revision: a.revision,
      });
      expect(a).toMatchObject({ page: 1, pages: 1, next_cursor: null, workspace_id: f.workspace.id });
    });

    it('builds again after a committed change; an unchanged content keeps its revision', async () => {
      const a = await first();
      ok(
        await ctx.request('PATCH', `${API}/dataflows/${flow.id}`, {
          token: ctx.userToken,
          body: {
            description: 'changed',
            row_version: (await ctx.request('GET', `${API}/dataflows/${flow.id}`, { token: ctx.userToken }))
              .body.row_version,
          },
        }),
      );
      const b = await first();
      expect(b.revision).not.toBe(a.revision);
      expect(b.dataflows.find((d) => d.dataflow_id === flow.id)?.description).toBe('changed');
      // A write to an input table that changes nothing exported: rebuilt, same revision (a 304).
      await ctx.dataSource.query(`UPDATE systems SET note = 'x' WHERE id = $1`, [f.lakeSystem.id]);
      const c = await first();
      expect(c.generated_at).not.toBe(b.generated_at);
      expect(await snapshots.page(f.workspace.id, {}, [b.revision])).toMatchObject({ notModified: true });
    });

    it('never keeps serving a snapshot read while a change was in progress, once the change commits', async () => {
      await withClient((ctx.dataSource.options as { url: string }).url, async (client) => {
        await first();
        await ctx.dataSource.query('DELETE FROM provider_snapshots');
        await client.query('BEGIN');
        await client.query(`UPDATE dataflows SET description = 'in flight' WHERE id = $1`, [flow.id]);
        // A later transaction commits first: the in-flight one is now inside the snapshot's range.
        await ctx.dataSource.query(`UPDATE systems SET note = 'later' WHERE id = $1`, [f.lakeSystem.id]);
        // Built and kept while the change is uncommitted: it cannot contain it.
        const during = await first();
        expect(during.dataflows.find((d) => d.dataflow_id === flow.id)?.description).not.toBe('in flight');
        await client.query('COMMIT');
        const after = await first();
        expect(after.revision).not.toBe(during.revision);
        expect(after.dataflows.find((d) => d.dataflow_id === flow.id)?.description).toBe('in flight');
      });
    });

    it('pages by cursor, every page from the first page’s revision, and expires unknown cursors', async () => {
      await ctx.dataSource.query(
        `INSERT INTO dataflows (workspace_id, name, datacoolie_id, source_kind, source_connection_id,
                                source_query, destination_connection_id, destination_dataset_id, load_type)
         SELECT workspace_id, name || '_copy_' || i, name || '_copy_' || i, 'query', source_connection_id, 'select 1',
                destination_connection_id, destination_dataset_id, 'append'
         FROM dataflows, generate_series(1, 150) i WHERE id = $1`,
        [flow.id],
      );
      const page1 = await first(100);
      expect(page1.pages).toBeGreaterThanOrEqual(2);
      expect(page1.connections.length + page1.dataflows.length + page1.schema_hints.length).toBe(100);
      await ctx.dataSource.query(`UPDATE dataflows SET description = 'after page 1' WHERE id = $1`, [
        flow.id,
      ]);
      const items: string[] = page1.dataflows.map((d) => d.dataflow_id);
      let cursor = page1.next_cursor;
      while (cursor) {
        const page = body(await snapshots.page(f.workspace.id, { cursor }));
        expect(page.revision).toBe(page1.revision);
        items.push(...page.dataflows.map((d) => d.dataflow_id));
        cursor = page.next_cursor;
      }
      const whole = (await snapshots.build(f.workspace.id)).dataflows.map((d) => d.dataflow_id);
      expect(items).toEqual(whole);
      expect((await first(100)).revision).not.toBe(page1.revision);
      for (const cursor of [
        `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}.1`,
        `${page1.next_cursor!.split('.')[0]}.99`,
      ]) {
        await expect(snapshots.page(f.workspace.id, { cursor })).rejects.toMatchObject({
          code: 'PROVIDER_SNAPSHOT_EXPIRED',
        });
      }
    });
  });
});
