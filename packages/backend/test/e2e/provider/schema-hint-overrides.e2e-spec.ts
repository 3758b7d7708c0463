// Schema hints beyond a column's type (ADR 0030): format, default_value and is_active kept per
// workspace, dataset and column and applied to the derived hints in the snapshot and /schema-hints;
// and a dataflow's pinned hint schema version (reference §8.5), validated at write time and exported
// inline in its transform.
import { SNAPSHOT_HINT_FIELDS } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, seedReference } from '../../helpers/catalogue.js';
import { ok } from '../../helpers/factories.js';
import { publishVersion } from '../../helpers/lineage.js';
import {
  copyBody,
  createDataflowRequest,
  createWorkspace,
  type PipelineFixture,
  pipelineFixture,
} from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

describe('schema-hint overrides and pinned hint versions', () => {
  let ctx: TestContext;
  let f: PipelineFixture;
  let base: string;
  let flow: { id: string };
  const get = (path: string, headers: Record<string, string> = {}) =>
    ctx.request('GET', `${base}${path}`, { token: ctx.userToken, headers });
  const put = (datasetId: string, overrides: unknown[]) =>
    ctx.request('PUT', `${base}/schema-hint-overrides/${datasetId}`, {
      token: ctx.userToken,
      body: { overrides },
    });
  const snapshot = async () => {
    const res = await get('/datacoolie/snapshot');
    return { body: ok(res), etag: res.headers.get('etag') };
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    f = await pipelineFixture(ctx);
    base = `${API}/workspaces/${f.workspace.code}`;
    flow = ok(await createDataflowRequest(ctx, copyBody(f)), 201);
  });
  afterAll(() => ctx.close());

  it('stores overrides per dataset column and applies them to the snapshot and /schema-hints', async () => {
    const before = await snapshot();
    const stored = ok(
      await put(f.orders.id, [
        { column_name: 'UPDATED_AT', format: "yyyy-MM-dd'T'HH:mm:ss" },
        { column_name: 'amount', default_value: '0.00' },
        { column_name: 'order_id', is_active: false },
      ]),
    );
    expect(stored).toEqual({
      workspace_id: f.workspace.id,
      dataset_id: f.orders.id,
      overrides: [
        { column_name: 'UPDATED_AT', format: "yyyy-MM-dd'T'HH:mm:ss", default_value: null, is_active: true },
        { column_name: 'amount', format: null, default_value: '0.00', is_active: true },
        { column_name: 'order_id', format: null, default_value: null, is_active: false },
      ],
    });
    expect(ok(await get(`/schema-hint-overrides/${f.orders.id}`))).toEqual(stored);

    const after = await snapshot();
    expect(after.etag).not.toBe(before.etag);
    const group = after.body.schema_hints.find(
      (g: { table_name: string }) => g.table_name === f.orders.table_name,
    );
    expect(after.body.hint_fields).toEqual([...SNAPSHOT_HINT_FIELDS]);
    expect(group.hints).toEqual([
      ['order_id', 'bigint', null, null, null, null, 1, false],
      ['amount', 'numeric', null, 18, 2, '0.00', 2, true],
      ['updated_at', 'timestamptz', "yyyy-MM-dd'T'HH:mm:ss", null, null, null, 3, true],
    ]);

    const rows = ok(await get(`/schema-hints?connection_id=${f.erp.id}&table_name=${f.orders.table_name}`));
    expect(
      rows.data.map((r: Record<string, unknown>) => [r.column_name, r.format, r.default_value, r.is_active]),
    ).toEqual([
      ['order_id', null, null, false],
      ['amount', null, '0.00', true],
      ['updated_at', "yyyy-MM-dd'T'HH:mm:ss", null, true],
    ]);
    const active = ok(
      await get(`/schema-hints?table_name=${f.orders.table_name}&schema_name=SALES&active_only=true`),
    );
    expect(active.data.map((r: { column_name: string }) => r.column_name)).toEqual(['amount', 'updated_at']);
  });

  it('writes nothing for an unchanged set (the snapshot revision stays), replaces the set otherwise', async () => {
    const current = ok(await get(`/schema-hint-overrides/${f.orders.id}`)).overrides;
    const before = await snapshot();
    ok(await put(f.orders.id, [...current].reverse()));
    expect((await snapshot()).etag).toBe(before.etag);
    expect(
      ok(await put(f.orders.id, [{ column_name: 'amount', default_value: '1' }])).overrides,
    ).toHaveLength(1);
    const hints = (await snapshot()).body.schema_hints.find(
      (g: { table_name: string }) => g.table_name === f.orders.table_name,
    ).hints;
    expect(hints.map((h: unknown[]) => [h[0], h[2], h[5], h[7]])).toEqual([
      ['order_id', null, null, true],
      ['amount', null, '1', true],
      ['updated_at', null, null, true],
    ]);
  });

  it('refuses bad input with the error envelope', async () => {
    expectEnvelope(
      await put(f.orders.id, [{ column_name: 'a' }, { column_name: 'A' }]),
      422,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await put(f.orders.id, [{ column_name: '' }]), 422, 'VALIDATION_ERROR');
    expectEnvelope(await put(f.orders.id, [{ column_name: 'a', extra: 1 }]), 422, 'VALIDATION_ERROR');
    expectEnvelope(
      await put('00000000-0000-4000-8000-000000000001', [{ column_name: 'a' }]),
      404,
      'DATASET_NOT_FOUND',
    );
    const other = await createWorkspace(ctx);
    const key = ok(
      await ctx.request('POST', `${API}/api-keys`, {
        token: ctx.userToken,
        body: { name: 'other', workspace_ids: [other.id] },
      }),
      201,
    ).key;
    expectEnvelope(
      await ctx.request('GET', `${base}/schema-hint-overrides/${f.orders.id}`, {
        headers: { 'x-api-key': key },
      }),
      403,
      'FORBIDDEN',
    );
  });

  it('pins a dataflow to a schema version of its source: inline hints from that version, checked at write time', async () => {
    const history = ok(
      await ctx.request('GET', `${API}/datasets/${f.orders.id}/schema-versions`, { token: ctx.userToken }),
    );
    const first = history.at(-1).dataset_schema_id as string;
    await publishVersion(ctx, f.orders.id, [
      ['order_id', 'bigint', undefined, true],
      ['amount', 'numeric', { precision: 18, scale: 2 }],
      ['updated_at', 'timestamptz'],
      ['channel', 'text'],
    ]);
    const pinned = ok(
      await createDataflowRequest(ctx, copyBody(f, { pinned_hint_schema_version_id: first })),
      201,
    );
    expect(pinned.pinned_hint_schema_version_id).toBe(first);

    const { body } = await snapshot();
    const exported = body.dataflows.find((d: { dataflow_id: string }) => d.dataflow_id === pinned.id);
    expect(exported.transform.schema_hints).toEqual([
      expect.objectContaining({ column_name: 'order_id', data_type: 'bigint', ordinal_position: 1 }),
      expect.objectContaining({ column_name: 'amount', default_value: '1', precision: 18, scale: 2 }),
      expect.objectContaining({ column_name: 'updated_at', data_type: 'timestamptz', is_active: true }),
    ]);
    const unpinned = body.dataflows.find((d: { dataflow_id: string }) => d.dataflow_id === flow.id);
    expect(unpinned.transform.schema_hints).toBeUndefined();
    // The table's group follows the current version (four columns); DataCoolie's /dataflows shows the pin.
    const group = body.schema_hints.find((g: { table_name: string }) => g.table_name === f.orders.table_name);
    expect(group.hints.map((h: unknown[]) => h[0])).toEqual(['order_id', 'amount', 'updated_at', 'channel']);
    expect(ok(await get(`/dataflows/${pinned.id}`)).transform.schema_hints).toHaveLength(3);

    // Unpinning (null) drops the inline hints; a pin can be set again by update.
    const row = ok(await ctx.request('GET', `${API}/dataflows/${pinned.id}`, { token: ctx.userToken }));
    const unpinnedRow = ok(
      await ctx.request('PATCH', `${API}/dataflows/${pinned.id}`, {
        token: ctx.userToken,
        body: { pinned_hint_schema_version_id: null, row_version: row.row_version },
      }),
    );
    expect(unpinnedRow.pinned_hint_schema_version_id).toBeNull();
    const again = (await snapshot()).body.dataflows.find(
      (d: { dataflow_id: string }) => d.dataflow_id === pinned.id,
    );
    expect(again.transform.schema_hints).toBeUndefined();
  });

  it('refuses a pin that is not a version of the source dataset, on a query source, or beside inline hints', async () => {
    const foreign = ok(
      await ctx.request('GET', `${API}/datasets/${f.bronzeOrders.id}/schema-versions`, {
        token: ctx.userToken,
      }),
    )[0].dataset_schema_id as string;
    const invalid = async (body: Record<string, unknown>, message: RegExp) => {
      const res = await createDataflowRequest(ctx, copyBody(f, body));
      expectEnvelope(res, 422, 'DATAFLOW_INVALID');
      expect(res.body.detail).toMatch(message);
    };
    await invalid({ pinned_hint_schema_version_id: foreign }, /not a version of the source dataset/);
    await invalid(
      { pinned_hint_schema_version_id: '00000000-0000-4000-8000-000000000002' },
      /does not exist/,
    );
    const own = ok(
      await ctx.request('GET', `${API}/datasets/${f.orders.id}/schema-versions`, { token: ctx.userToken }),
    )[0].dataset_schema_id as string;
    await invalid(
      {
        pinned_hint_schema_version_id: own,
        source_dataset_id: null,
        source_query: 'SELECT 1 AS order_id',
        source_watermark_columns: [],
      },
      /Only a dataflow reading a dataset/,
    );
    await invalid(
      {
        pinned_hint_schema_version_id: own,
        transform: { schema_hints: [{ column_name: 'order_id', data_type: 'bigint' }] },
      },
      /cannot also carry transform.schema_hints/,
    );
    expectEnvelope(
      await createDataflowRequest(ctx, copyBody(f, { pinned_hint_schema_version_id: 'nope' })),
      422,
      'VALIDATION_ERROR',
    );
  });
});
