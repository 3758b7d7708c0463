// Watermark storage (reference §5, §8.5): the text exactly as written, the previous value rotated,
// provenance kept, a revision per write and an append-only history — atomic under concurrent writers.
// Written through WatermarksService on the real database (the HTTP routes come with the route contract).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, seedReference } from '../../helpers/catalogue.js';
import { ok } from '../../helpers/factories.js';
import {
  copyBody,
  createDataflowRequest,
  createWorkspace,
  type PipelineFixture,
  pipelineFixture,
} from '../../helpers/provider.js';
import { createTestContext, type TestContext, USER } from '../../helpers/test-app.js';
import { WatermarksService } from '../../../src/modules/watermarks/watermarks.service.js';

describe('watermark storage', () => {
  let ctx: TestContext;
  let f: PipelineFixture;
  let service: WatermarksService;
  beforeAll(async () => {
    ctx = await createTestContext();
    await seedReference(ctx);
    f = await pipelineFixture(ctx);
    service = ctx.app.get(WatermarksService);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const writer = { id: USER.id, is_superuser: false, user_type: 'regular' as const };
  const newDataflow = async (): Promise<string> => ok(await createDataflowRequest(ctx, copyBody(f)), 201).id;
  const codeOf = async (work: Promise<unknown>) =>
    work.then(
      () => 'ok',
      (e: { code?: string }) => e.code,
    );

  it('answers revision 0 and nulls for a dataflow never written', async () => {
    const id = await newDataflow();
    expect(await service.get(id)).toEqual({
      dataflow_id: id,
      current_value: null,
      previous_value: null,
      job_id: null,
      dataflow_run_id: null,
      updated_at: null,
      revision: 0,
    });
  });

  it('returns the text byte for byte: JSON or not, "null", empty, whitespace, non-ASCII', async () => {
    const id = await newDataflow();
    const texts = [
      '{"b": 1, "a": {"__datetime__": "2025-06-15T10:30:00+00:00"}}',
      'null',
      'not-json{',
      '',
      '  \n\t',
      '{"c": "\\u00e9", "d": "é😀"}',
      '{"n": 1.0}',
    ];
    for (const text of texts) {
      await service.put(id, { current_value: text }, writer);
      expect((await service.get(id)).current_value).toBe(text);
    }
  });

  it('takes a text up to AIDE_WATERMARK_MAX_BYTES (64 KiB by default) and refuses a longer one, storing nothing', async () => {
    const id = await newDataflow();
    const limit = 64 * 1024;
    expect(await codeOf(service.put(id, { current_value: 'x'.repeat(limit) }, writer))).toBe('ok');
    expect(await codeOf(service.put(id, { current_value: 'x'.repeat(limit + 1) }, writer))).toBe(
      'WATERMARK_TOO_LARGE',
    );
    expect(await codeOf(service.put(id, { current_value: 'x'.repeat(1_000_000) }, writer))).toBe(
      'WATERMARK_TOO_LARGE',
    );
    expect(await service.get(id)).toMatchObject({ current_value: 'x'.repeat(limit), revision: 1 });
  });

  it('rotates the previous value and records provenance, which never changes the text', async () => {
    const id = await newDataflow();
    expect(
      await service.put(id, { current_value: '{"v": 1}', job_id: 'job-1', dataflow_run_id: 'run-1' }, writer),
    ).toEqual({
      status: 'ok',
      revision: 1,
    });
    await service.put(id, { current_value: '{"v": 2}', job_id: 'job-2' }, null);
    const watermark = await service.get(id);
    expect(watermark).toMatchObject({
      current_value: '{"v": 2}',
      previous_value: '{"v": 1}',
      job_id: 'job-2',
      dataflow_run_id: null,
      revision: 2,
    });
    expect(Date.parse(watermark.updated_at!)).not.toBeNaN();
    const history = await service.history(id, 1, 10);
    expect(
      history.items.map((h) => [h.revision, h.value, h.job_id, h.dataflow_run_id, h.written_by]),
    ).toEqual([
      [2, '{"v": 2}', 'job-2', null, null],
      [1, '{"v": 1}', 'job-1', 'run-1', USER.id],
    ]);
  });

  it('treats a repeated write (same text and provenance) as a retry: nothing rotates', async () => {
    const id = await newDataflow();
    await service.put(id, { current_value: 'a' }, null);
    await service.put(id, { current_value: 'b', job_id: 'j' }, null);
    expect(await service.put(id, { current_value: 'b', job_id: 'j' }, null)).toEqual({
      status: 'ok',
      revision: 2,
    });
    expect(await service.get(id)).toMatchObject({ current_value: 'b', previous_value: 'a', revision: 2 });
    expect((await service.history(id, 1, 10)).total).toBe(2);
    // Same text, other provenance: a write of its own.
    expect((await service.put(id, { current_value: 'b', job_id: 'k' }, null)).revision).toBe(3);
  });

  it('loses nothing under 50 concurrent writers: revisions 1..50, history complete, the last write wins', async () => {
    const id = await newDataflow();
    const values = Array.from({ length: 50 }, (_, i) => `{"offset": ${i}}`);
    const results = await Promise.all(
      values.map((value, i) => service.put(id, { current_value: value, dataflow_run_id: `run-${i}` }, null)),
    );
    expect(results.map((r) => r.revision).sort((a, b) => a - b)).toEqual(values.map((_, i) => i + 1));
    const history = (await service.history(id, 1, 100)).items;
    expect(history.map((h) => h.revision)).toEqual(values.map((_, i) => 50 - i));
    expect(history.map((h) => h.value).sort()).toEqual([...values].sort());
    const watermark = await service.get(id);
    // The last write by revision is the stored value; the one before it is the previous value.
    expect(watermark).toMatchObject({
      revision: 50,
      current_value: history[0].value,
      previous_value: history[1].value,
    });
    // Each write's revision is the one its history entry carries.
    const runOf = new Map(history.map((h) => [h.dataflow_run_id, h.revision]));
    results.forEach((r, i) => expect(runOf.get(`run-${i}`)).toBe(r.revision));
  });

  it('refuses unknown, deleted and (with a workspace) foreign dataflows: DATAFLOW_NOT_FOUND', async () => {
    const id = await newDataflow();
    const other = await createWorkspace(ctx);
    expect(await codeOf(service.put(id, { current_value: 'x' }, null, other.id))).toBe('DATAFLOW_NOT_FOUND');
    expect(await codeOf(service.get(id, other.id))).toBe('DATAFLOW_NOT_FOUND');
    expect(await codeOf(service.put(id, { current_value: 'x' }, null, f.workspace.id))).toBe('ok');
    expect(await codeOf(service.get('00000000-0000-4000-8000-0000000000ff'))).toBe('DATAFLOW_NOT_FOUND');
    ok(await ctx.request('DELETE', `${API}/dataflows/${id}`, { token: ctx.adminToken }));
    expect(await codeOf(service.get(id))).toBe('DATAFLOW_NOT_FOUND');
    expect(await codeOf(service.put(id, { current_value: 'y' }, null))).toBe('DATAFLOW_NOT_FOUND');
  });
});
