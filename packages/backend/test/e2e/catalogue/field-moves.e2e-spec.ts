// Moving fields (PATCH parent_id) can never close a loop: not by two concurrent moves that each look
// fine alone, and not through a chain deeper than any fixed walk limit.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  API,
  createDataset,
  createField,
  createPgSystem,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { ok } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext, USER } from '../../helpers/test-app.js';

let ctx: TestContext;
let system: Row;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createPgSystem(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const fields = `${API}/fields`;

const move = (field: Row, parentId: string) =>
  ctx.request('PATCH', `${fields}/${field.id}`, {
    token: ctx.userToken,
    body: { parent_id: parentId, row_version: field.row_version },
  });

/** Every field id in the dataset's tree, walked from its roots. */
async function idsInTree(datasetId: string): Promise<string[]> {
  const roots: Row[] = ok(await ctx.request('GET', `${fields}/tree/${datasetId}`, { token: ctx.userToken }));
  const ids: string[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop() as Row;
    ids.push(node.id);
    stack.push(...(node.children as Row[]));
  }
  return ids;
}

/** Whether following parent_id from any field of the dataset comes back to it (read from the table). */
async function hasLoop(datasetId: string): Promise<boolean> {
  const rows: { id: string; parent_id: string | null }[] = await ctx.dataSource.query(
    'SELECT id, parent_id FROM fields WHERE dataset_id = $1',
    [datasetId],
  );
  const parent = new Map(rows.map((r) => [r.id, r.parent_id]));
  for (const start of parent.keys()) {
    let at = parent.get(start) ?? null;
    for (let steps = 0; at !== null && steps <= rows.length; steps++) {
      if (at === start) return true;
      at = parent.get(at) ?? null;
    }
  }
  return false;
}

describe('field moves', () => {
  it('two concurrent moves that together would close a loop: exactly one is refused, every round', async () => {
    const dataset = await createDataset(ctx, system.id);
    const rounds = 15;
    for (let round = 0; round < rounds; round++) {
      // a → b (b a child of a), c a root: a under c plus c under b would make a → c → b → a.
      const a = await createField(ctx, dataset.id);
      const b = await createField(ctx, dataset.id, { parent_id: a.id });
      const c = await createField(ctx, dataset.id);
      const [first, second] = await Promise.all([move(a, c.id), move(c, b.id)]);
      const statuses = [first.status, second.status].sort();
      expect(statuses).toEqual([200, 409]);
      expectEnvelope(first.status === 409 ? first : second, 409, 'FIELD_CIRCULAR_REFERENCE');
    }
    expect(await hasLoop(dataset.id)).toBe(false);
    // Every field is still reachable from a root of the tree.
    expect((await idsInTree(dataset.id)).length).toBe(rounds * 3);
  });

  it('refuses moving the root of a 1,002-deep chain under its deepest field', async () => {
    const dataset = await createDataset(ctx, system.id);
    // The chain is inserted directly (1,002 API calls would only slow the test down); the move goes
    // through the API.
    const ids = Array.from({ length: 1002 }, () => randomUUID());
    await ctx.dataSource.query(
      `INSERT INTO fields (id, dataset_id, parent_id, name, created_by, updated_by)
       SELECT id, $1, parent, 'f' || ord, $4, $4
       FROM unnest($2::uuid[], $3::uuid[]) WITH ORDINALITY AS t(id, parent, ord)`,
      [dataset.id, ids, [null, ...ids.slice(0, -1)], USER.id],
    );
    const root = ok(await ctx.request('GET', `${fields}/${ids[0]}`, { token: ctx.userToken }));
    expectEnvelope(await move(root, ids[ids.length - 1]), 409, 'FIELD_CIRCULAR_REFERENCE');
    expectEnvelope(await move(root, ids[1000]), 409, 'FIELD_CIRCULAR_REFERENCE');
    expect(await hasLoop(dataset.id)).toBe(false);
    expect(ok(await ctx.request('GET', `${fields}/${ids[0]}`, { token: ctx.userToken }))).toEqual(root);
    // A legal move in the same chain still works: the deepest field becomes a root.
    const deepest = ok(await ctx.request('GET', `${fields}/${ids[1001]}`, { token: ctx.userToken }));
    const other = await createField(ctx, dataset.id);
    expect(ok(await move(deepest, other.id)).parent_id).toBe(other.id);
  });
});
