// DataCoolie's own REST contract served by the registry (reference §6.3–§6.4, §8.6): what the
// unmodified Python APIProvider sends (X-API-Key, page_size=200, active_only strings) and reads
// ({data, pagination}, expanded dataflow connections, flattened hints, raw watermark text), plus the
// snapshot route (ETag / If-None-Match, gzip, cursor pages).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, seedReference } from '../../helpers/catalogue.js';
import { createCredentialRef, ok, unique } from '../../helpers/factories.js';
import {
  copyBody,
  createDataflowRequest,
  createProfile,
  createWorkspace,
  type PipelineFixture,
  pipelineFixture,
} from '../../helpers/provider.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

const CONNECTION_KEYS = [
  'catalog',
  'configure',
  'connection_id',
  'connection_type',
  'database',
  'format',
  'is_active',
  'name',
  'secrets_ref',
  'workspace_id',
];

describe('DataCoolie-compatible endpoints', () => {
  let ctx: TestContext;
  let f: PipelineFixture;
  let key: string;
  let flows: { id: string; name: string; stage: string }[];
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    f = await pipelineFixture(ctx);
    base = `${API}/workspaces/${f.workspace.code}`;
    flows = [
      ok(
        await createDataflowRequest(
          ctx,
          copyBody(f, { stage: 'source2bronze', partition_columns: [{ column: 'order_id' }] }),
        ),
        201,
      ),
      ok(await createDataflowRequest(ctx, copyBody(f, { stage: 'bronze2silver' })), 201),
      ok(await createDataflowRequest(ctx, copyBody(f, { stage: 'bronze2silver', is_active: false })), 201),
    ];
    key = ok(
      await ctx.request('POST', `${API}/api-keys`, {
        token: ctx.userToken,
        body: { name: 'pipelines', workspace_ids: [f.workspace.id] },
      }),
      201,
    ).key;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const get = (path: string, headers: Record<string, string> = { 'x-api-key': key }) =>
    ctx.request('GET', `${base}${path}`, { token: null, headers });

  it('authenticates by X-API-Key within the key’s workspaces: 401 without, 403 elsewhere', async () => {
    expectEnvelope(await get('/connections', {}), 401, 'UNAUTHORIZED');
    expectEnvelope(await get('/connections', { 'x-api-key': 'aidek_not-a-key' }), 401, 'UNAUTHORIZED');
    const other = await createWorkspace(ctx);
    expectEnvelope(
      await ctx.request('GET', `${API}/workspaces/${other.code}/connections`, {
        token: null,
        headers: { 'x-api-key': key },
      }),
      403,
      'FORBIDDEN',
    );
    expectEnvelope(
      await ctx.request('GET', `${API}/workspaces/no-such-workspace/connections`, { token: ctx.userToken }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    // A bearer token works too, by workspace id or code.
    ok(await ctx.request('GET', `${API}/workspaces/${f.workspace.id}/connections`, { token: ctx.userToken }));
  });

  it('lists connections in the {data, pagination} envelope with name and active_only filters', async () => {
    const inactive = await createProfile(ctx, f.workspace.id, f.pgSystem.id, {
      name: unique('off'),
      is_active: false,
    });
    const all = ok(await get('/connections?active_only=false&page_size=200'));
    expect(all.pagination).toEqual({ page: 1, page_size: 200, total: 3, total_pages: 1 });
    for (const connection of all.data) expect(Object.keys(connection).sort()).toEqual(CONNECTION_KEYS);
    expect(all.data.map((c: { connection_id: string }) => c.connection_id)).toContain(inactive.id);
    const active = ok(await get('/connections?active_only=true'));
    expect(active.data.map((c: { connection_id: string }) => c.connection_id)).not.toContain(inactive.id);
    expect(active.pagination.page_size).toBe(50);
    const named = ok(await get(`/connections?name=${f.erp.name}`));
    expect(named.data).toHaveLength(1);
    expect(named.data[0]).toMatchObject({
      connection_id: f.erp.id,
      connection_type: 'database',
      format: 'sql',
      database: 'erp',
      configure: { database_type: 'postgresql', host: 'erp-db.internal.example.com', port: 5432 },
    });
    // Pages: page_size 1, page 2; a page past the end is clamped to the last (reference server).
    const second = ok(await get('/connections?page_size=1&page=2&active_only=false'));
    expect(second.pagination).toEqual({ page: 2, page_size: 1, total: 3, total_pages: 3 });
    expect(ok(await get('/connections?page_size=1&page=9&active_only=false')).pagination.page).toBe(3);
    expect(ok(await get(`/connections/${f.bronze.id}`))).toMatchObject({
      connection_id: f.bronze.id,
      format: 'delta',
    });
    expectEnvelope(await get('/connections/nope'), 404, 'CONNECTION_PROFILE_NOT_FOUND');
    expectEnvelope(await get('/connections?unknown=1'), 422, 'VALIDATION_ERROR');
  });

  it('serves the reference §1.10 connection example as DataCoolie would read it', async () => {
    const store = 'https://aide-kv.vault.azure.net/';
    const secret = async (path: string) => (await createCredentialRef(ctx, { provider: store, path })).id;
    const name = unique('erp_postgres');
    const profile = await createProfile(ctx, f.workspace.id, f.pgSystem.id, {
      name,
      database: 'erp',
      configure: { read_options: { fetchsize: 10000 } },
      secrets: [
        { configure_field: 'username', credential_ref_id: await secret('aide-erp-reader-user') },
        { configure_field: 'password', credential_ref_id: await secret('aide-erp-reader-password') },
      ],
    });
    // §1.10, with the registry's ids: secret *names* in configure, their store in secrets_ref.
    expect(ok(await get(`/connections/${profile.id}`))).toEqual({
      connection_id: profile.id,
      workspace_id: f.workspace.code,
      name,
      connection_type: 'database',
      format: 'sql',
      catalog: null,
      database: 'erp',
      configure: {
        database_type: 'postgresql',
        host: 'erp-db.internal.example.com',
        port: 5432,
        username: 'aide-erp-reader-user',
        password: 'aide-erp-reader-password',
        use_schema_hint: true,
        schema_hint_type_system: 'postgresql',
        read_options: { fetchsize: 10000 },
      },
      secrets_ref: { [store]: ['username', 'password'] },
      is_active: true,
    });
  });

  it('lists dataflows with their connections expanded, filtered by stage list and activity', async () => {
    const active = ok(await get('/dataflows?page_size=200&active_only=true'));
    expect(active.data.map((d: { dataflow_id: string }) => d.dataflow_id).sort()).toEqual(
      [flows[0].id, flows[1].id].sort(),
    );
    // No active_only: everything (the Python client omits it when it does not filter).
    expect(ok(await get('/dataflows')).pagination.total).toBe(3);
    const everything = ok(await get('/dataflows?active_only=false&stage=bronze2silver, source2bronze'));
    expect(everything.pagination.total).toBe(3);
    const silver = ok(await get('/dataflows?active_only=false&stage=bronze2silver'));
    expect(silver.data.map((d: { dataflow_id: string }) => d.dataflow_id).sort()).toEqual(
      [flows[1].id, flows[2].id].sort(),
    );
    const one = ok(await get(`/dataflows/${flows[0].id}`));
    expect(one).toMatchObject({
      dataflow_id: flows[0].id,
      name: flows[0].name,
      stage: 'source2bronze',
      is_active: true,
      processing_mode: 'batch',
      source: {
        connection: { connection_id: f.erp.id, name: f.erp.name, connection_type: 'database' },
        schema_name: 'sales',
        table: f.orders.table_name,
        watermark_columns: ['updated_at'],
      },
      destination: {
        connection: { connection_id: f.bronze.id, format: 'delta' },
        schema_name: 'erp',
        load_type: 'merge_upsert',
        merge_keys: ['order_id'],
        partition_columns: [{ column: 'order_id', expression: null }],
      },
    });
    expect(Object.keys(one.source.connection).sort()).toEqual(CONNECTION_KEYS);
    expect(ok(await get(`/dataflows/${flows[2].id}`)).is_active).toBe(false);
    expectEnvelope(await get('/dataflows/nope'), 404, 'DATAFLOW_NOT_FOUND');
  });

  it('lists schema hints flattened with their table key, filtered case-insensitively', async () => {
    const rows = ok(
      await get(
        `/schema-hints?connection_id=${f.erp.id}&table_name=${f.orders.table_name.toUpperCase()}&schema_name=SALES`,
      ),
    );
    expect(rows.data).toEqual([
      expect.objectContaining({
        connection_id: f.erp.id,
        schema_name: 'sales',
        table_name: f.orders.table_name,
        column_name: 'order_id',
        data_type: 'bigint',
        ordinal_position: 1,
        is_active: true,
      }),
      expect.objectContaining({
        column_name: 'amount',
        data_type: 'numeric',
        precision: 18,
        scale: 2,
        ordinal_position: 2,
      }),
      expect.objectContaining({ column_name: 'updated_at', data_type: 'timestamptz', ordinal_position: 3 }),
    ]);
    expect(Object.keys(rows.data[0]).sort()).toEqual([
      'column_name',
      'connection_id',
      'data_type',
      'default_value',
      'format',
      'is_active',
      'ordinal_position',
      'precision',
      'scale',
      'schema_name',
      'table_name',
    ]);
    expect(ok(await get(`/schema-hints?table_name=${f.orders.table_name}&schema_name=archive`)).data).toEqual(
      [],
    );
    expect(ok(await get('/schema-hints?active_only=false&page_size=200')).pagination.total).toBe(3);
  });

  it('keeps watermarks as raw text: GET as written, PUT verbatim with provenance, 404 for unknown or foreign dataflows', async () => {
    const id = flows[0].id;
    expect(ok(await get(`/watermarks/${id}`))).toMatchObject({
      dataflow_id: id,
      current_value: null,
      revision: 0,
    });
    const put = (value: unknown, extra: Record<string, unknown> = {}) =>
      ctx.request('PUT', `${base}/watermarks/${id}`, {
        token: null,
        headers: { 'x-api-key': key },
        body: { current_value: value, ...extra },
      });
    expect(ok(await put('{"col": "2024-01-01"}', { job_id: 'j-1', dataflow_run_id: 'r-1' }))).toEqual({
      status: 'ok',
      revision: 1,
    });
    expect(ok(await get(`/watermarks/${id}`))).toMatchObject({
      current_value: '{"col": "2024-01-01"}',
      previous_value: null,
      job_id: 'j-1',
      dataflow_run_id: 'r-1',
      revision: 1,
    });
    ok(await put('null'));
    expect(ok(await get(`/watermarks/${id}`))).toMatchObject({
      current_value: 'null',
      previous_value: '{"col": "2024-01-01"}',
    });
    expectEnvelope(await put(5), 422, 'VALIDATION_ERROR');
    expectEnvelope(await get('/watermarks/00000000-0000-4000-8000-000000000001'), 404, 'DATAFLOW_NOT_FOUND');
    expectEnvelope(await get('/watermarks/df-1'), 404, 'DATAFLOW_NOT_FOUND');
    // A dataflow of another workspace is not found through this one.
    const other = await createWorkspace(ctx);
    expectEnvelope(
      await ctx.request('GET', `${API}/workspaces/${other.code}/watermarks/${id}`, { token: ctx.userToken }),
      404,
      'DATAFLOW_NOT_FOUND',
    );
    // The registry's own route reads the same row.
    expect(
      ok(await ctx.request('GET', `${API}/dataflows/${id}/watermark`, { token: ctx.userToken }))
        .current_value,
    ).toBe('null');
  });

  it('takes 50 concurrent PUTs on one dataflow without losing one; history and revision agree', async () => {
    const id = flows[1].id;
    const values = Array.from({ length: 50 }, (_, i) => `{"offset": ${i}}`);
    const answers = await Promise.all(
      values.map((value) =>
        ctx.request('PUT', `${base}/watermarks/${id}`, {
          token: null,
          headers: { 'x-api-key': key },
          body: { current_value: value },
        }),
      ),
    );
    expect(answers.map((a) => ok(a).revision).sort((a, b) => a - b)).toEqual(values.map((_, i) => i + 1));
    const history = ok(
      await ctx.request('GET', `${API}/dataflows/${id}/watermark/history?size=100`, { token: ctx.userToken }),
    );
    expect(history.total).toBe(50);
    expect(history.items.map((h: { value: string }) => h.value).sort()).toEqual([...values].sort());
    const last = ok(await get(`/watermarks/${id}`));
    expect(last).toMatchObject({
      revision: 50,
      current_value: history.items[0].value,
      previous_value: history.items[1].value,
    });
  });

  describe('the snapshot route', () => {
    const snapshot = (headers: Record<string, string> = {}, query = '') =>
      ctx.request('GET', `${base}/datacoolie/snapshot${query}`, {
        token: null,
        headers: { 'x-api-key': key, ...headers },
      });

    it('answers the whole scope with ETag = revision, and 304 to If-None-Match', async () => {
      const first = await snapshot();
      const page = ok(first);
      expect(first.headers.get('etag')).toBe(`"${page.revision}"`);
      expect(page).toMatchObject({
        workspace_id: f.workspace.id,
        page: 1,
        pages: 1,
        next_cursor: null,
        excluded: [],
      });
      expect(page.dataflows).toHaveLength(3);
      const again = await snapshot({ 'if-none-match': `"${page.revision}"` });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.get('etag')).toBe(`"${page.revision}"`);
      expect((await snapshot({ 'if-none-match': '"stale", W/"other"' })).status).toBe(200);
    });

    it('is gzip when accepted, plain JSON otherwise', async () => {
      const gzip = await snapshot({ 'accept-encoding': 'gzip' });
      expect(gzip.headers.get('content-encoding')).toBe('gzip');
      const plain = await snapshot({ 'accept-encoding': 'identity' });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('content-type')).toContain('application/json');
      expect(plain.body).toEqual(gzip.body);
    });

    it('pages by cursor and refuses a cursor no longer kept (410)', async () => {
      const body = expectEnvelope(
        await snapshot({}, `?cursor=00000000-0000-4000-8000-000000000000.2`),
        410,
        'PROVIDER_SNAPSHOT_EXPIRED',
      );
      expect(body.detail).toContain('first page');
      expectEnvelope(await snapshot({}, '?page_size=5'), 422, 'VALIDATION_ERROR');
      const first = ok(await snapshot({}, '?page_size=100'));
      expect(first.next_cursor).toBeNull();
    });
  });
});
