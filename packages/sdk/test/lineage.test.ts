// Lineage against the real backend: engines (polymorphic, soft delete and restore).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AideClient, ConflictError, ValidationError } from '../src/index.js';
import { adminClient, unique } from './helpers/backend.js';

let client: AideClient;

beforeAll(() => {
  client = adminClient();
});
afterAll(async () => {
  await client.close();
});

describe('engines', () => {
  it('creates, updates, lists, deletes and restores an engine with its kind attributes', async () => {
    const code = unique('spark');
    const engine = await client.engines.create({ kind: 'spark', code, name: 'Spark', version: '3.x' });
    expect(engine).toMatchObject({ kind: 'spark', role: 'compute', runtime_opts: null, row_version: 1 });
    const updated = await client.engines.update(engine.id, {
      kind: 'spark',
      runtime_opts: { executors: 2 },
      row_version: engine.row_version,
    });
    expect(updated).toMatchObject({ runtime_opts: { executors: 2 }, row_version: 2 });
    expect((await client.engines.list({ code })).items.map((e) => e.id)).toEqual([engine.id]);
    await client.engines.delete(engine.id);
    const restored = await client.engines.restore(engine.id);
    expect(restored).toMatchObject({ id: engine.id, runtime_opts: { executors: 2 }, deleted_at: null });
  });

  it('surfaces the catalogue codes as typed errors', async () => {
    const code = unique('deb');
    const body = {
      kind: 'debezium',
      code,
      name: 'CDC',
      version: '2.x',
      envelope_template: { after_path: 'a' },
    } as const;
    await client.engines.create(body);
    await expect(client.engines.create(body)).rejects.toBeInstanceOf(ConflictError);
    await expect(
      client.engines.create({ ...body, code: unique('deb'), version: '9.x' }),
    ).rejects.toMatchObject({
      errorCode: 'ENGINE_VERSION_INVALID',
    });
    await expect(
      client.engines.create({ ...body, code: unique('deb'), version: '9.x' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});
