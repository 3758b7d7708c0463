// Watermark limits (issue 22, item 6): a write's text is bounded in UTF-8 bytes on every write path (the
// registry's route and DataCoolie's), answered 422 WATERMARK_TOO_LARGE with the limit; each dataflow's
// history keeps the last AIDE_WATERMARK_HISTORY_KEPT writes, pruned by the write itself.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, seedReference } from '../../helpers/catalogue.js';
import { ok } from '../../helpers/factories.js';
import {
  copyBody,
  createDataflowRequest,
  type PipelineFixture,
  pipelineFixture,
} from '../../helpers/provider.js';
import {
  createTestContext,
  expectEnvelope,
  type TestContext,
  type TestResponse,
} from '../../helpers/test-app.js';

const MAX_BYTES = 1024;
const KEPT = 3;

describe('watermark limits (AIDE_WATERMARK_MAX_BYTES=1024, AIDE_WATERMARK_HISTORY_KEPT=3)', () => {
  let ctx: TestContext;
  let f: PipelineFixture;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext({
      AIDE_WATERMARK_MAX_BYTES: String(MAX_BYTES),
      AIDE_WATERMARK_HISTORY_KEPT: String(KEPT),
    });
    await seedReference(ctx);
    f = await pipelineFixture(ctx);
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

  const newDataflow = async (): Promise<string> => ok(await createDataflowRequest(ctx, copyBody(f)), 201).id;

  /** The two write paths: the registry's route (bearer token) and DataCoolie's (X-API-Key). */
  const paths: [string, (id: string, value: string) => Promise<TestResponse>][] = [
    [
      'PUT /dataflows/{id}/watermark',
      (id, value) =>
        ctx.request('PUT', `${API}/dataflows/${id}/watermark`, {
          token: ctx.userToken,
          body: { current_value: value },
        }),
    ],
    [
      'PUT /workspaces/{id}/watermarks/{dataflow_id}',
      (id, value) =>
        ctx.request('PUT', `${API}/workspaces/${f.workspace.code}/watermarks/${id}`, {
          token: null,
          headers: { 'x-api-key': key },
          body: { current_value: value },
        }),
    ],
  ];
  const read = async (id: string) =>
    ok(await ctx.request('GET', `${API}/dataflows/${id}/watermark`, { token: ctx.userToken }));

  it.each(paths)(
    '%s: up to the limit in UTF-8 bytes round-trips exactly; one byte more is 422 with the limit',
    async (_, put) => {
      const id = await newDataflow();
      // Exactly the limit, in ASCII and in two-byte characters: stored and returned byte for byte.
      const ascii = `{"v": "${'x'.repeat(MAX_BYTES - 9)}"}`;
      const accented = 'é'.repeat(MAX_BYTES / 2);
      expect(Buffer.byteLength(ascii)).toBe(MAX_BYTES);
      expect(Buffer.byteLength(accented)).toBe(MAX_BYTES);
      expect(ok(await put(id, ascii)).revision).toBe(1);
      expect((await read(id)).current_value).toBe(ascii);
      expect(ok(await put(id, accented)).revision).toBe(2);
      expect((await read(id)).current_value).toBe(accented);

      // Bytes, not characters: 513 'é' are 513 characters but 1,026 bytes.
      for (const [value, bytes] of [
        [`${ascii} `, MAX_BYTES + 1],
        ['é'.repeat(MAX_BYTES / 2 + 1), MAX_BYTES + 2],
        ['x'.repeat(1_000_000), 1_000_000],
      ] as const) {
        const refused = expectEnvelope(await put(id, value), 422, 'WATERMARK_TOO_LARGE');
        expect(refused.details).toEqual({ max_bytes: MAX_BYTES, value_bytes: bytes });
        expect(refused.detail).toContain(String(MAX_BYTES));
      }
      // A refused write stores nothing.
      expect(await read(id)).toMatchObject({ current_value: accented, previous_value: ascii, revision: 2 });
    },
  );

  it('keeps the last 3 writes of each dataflow in its history, pruned in the write; the others are untouched', async () => {
    const [id, other] = [await newDataflow(), await newDataflow()];
    const [, put] = paths[1];
    for (let i = 1; i <= 10; i++) ok(await put(id, `{"offset": ${i}}`));
    ok(await put(other, '{"offset": 1}'));
    ok(await put(other, '{"offset": 2}'));

    const history = ok(
      await ctx.request('GET', `${API}/dataflows/${id}/watermark/history?size=100`, { token: ctx.userToken }),
    );
    expect(history.total).toBe(KEPT);
    expect(history.items.map((h: { revision: number; value: string }) => [h.revision, h.value])).toEqual([
      [10, '{"offset": 10}'],
      [9, '{"offset": 9}'],
      [8, '{"offset": 8}'],
    ]);
    expect(await read(id)).toMatchObject({
      current_value: '{"offset": 10}',
      previous_value: '{"offset": 9}',
      revision: 10,
    });

    // What the database holds: KEPT rows for the dataflow written ten times, both of the other's.
    const rows = await ctx.dataSource.query<{ dataflow_id: string; n: number }[]>(
      `SELECT dataflow_id, count(*)::int AS n FROM watermark_history
       WHERE dataflow_id = ANY($1::uuid[]) GROUP BY dataflow_id`,
      [[id, other]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.dataflow_id, r.n]))).toEqual({ [id]: KEPT, [other]: 2 });
  });

  it('stays bounded under 30 concurrent writers: revisions 1..30, the last 3 kept', async () => {
    const id = await newDataflow();
    const [, put] = paths[0];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => put(id, `{"offset": ${i}}`)));
    expect(answers.map((a) => ok(a).revision).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    const rows = await ctx.dataSource.query<{ revision: number }[]>(
      'SELECT revision FROM watermark_history WHERE dataflow_id = $1 ORDER BY revision DESC',
      [id],
    );
    expect(rows.map((r) => r.revision)).toEqual([30, 29, 28]);
  });
});
