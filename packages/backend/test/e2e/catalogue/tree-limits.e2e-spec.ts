// Type-instance trees and field trees are bounded when written (depth, and size for type trees), so a
// read returns the whole tree: never cut short, never too deep to serialise. Trees stored before the
// limits existed are answered with an error naming the limit, not truncated and not a 500.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  createDataset,
  createField,
  createPgSystem,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { createFlavor, ok, unique } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';
import { MAX_FIELD_DEPTH } from '../../../src/modules/fields/field-limits.js';
import {
  MAX_TYPE_TREE_DEPTH,
  MAX_TYPE_TREE_NODES,
} from '../../../src/modules/type-instances/type-tree-rules.js';

let ctx: TestContext;
let leafTypeId: string;
let structTypeId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  const flavor = await createFlavor(ctx);
  const dataType = async (render_template: string) =>
    ok(
      await ctx.request('POST', `${API}/data-types`, {
        token: ctx.adminToken,
        body: { system_flavor_id: flavor.id, code: unique('dt'), params_schema: {}, render_template },
      }),
      201,
    ).id as string;
  leafTypeId = await dataType('int');
  structTypeId = await dataType('s<{% for f in fields %}{{ f.type }}{% endfor %}>');
});
afterAll(async () => {
  await ctx.close();
});

const instances = `${API}/type-instances`;
const createInstance = (body: Record<string, unknown>) =>
  ctx.request('POST', instances, { token: ctx.userToken, body });

/** Levels of a nested `children` tree (1 for a leaf), walked iteratively. */
function levels(root: { children: unknown[] }): number {
  let max = 0;
  const stack: [{ children: unknown[] }, number][] = [[root, 1]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, level] = entry;
    max = Math.max(max, level);
    for (const child of node.children) stack.push([child as { children: unknown[] }, level + 1]);
  }
  return max;
}

/** Inserts a chain of `length` rows below `parentId` straight into the database, as data written before the limits. */
async function insertChain(
  table: 'fields' | 'type_instances',
  length: number,
  parentId: string,
  columns: Record<string, unknown>,
): Promise<void> {
  const ids = Array.from({ length }, () => randomUUID());
  const names = Object.keys(columns);
  await ctx.dataSource.query(
    `INSERT INTO ${table} (id, parent_id, ${names.join(', ')})
     SELECT id, parent_id, ${names.map((_, i) => `$${i + 3}`).join(', ')}
     FROM unnest($1::uuid[], $2::uuid[]) AS chain(id, parent_id)`,
    [ids, [parentId, ...ids.slice(0, -1)], ...Object.values(columns)],
  );
}

describe('type-instance trees', () => {
  it(`refuses a node below level ${MAX_TYPE_TREE_DEPTH} (422) and reads the whole deepest tree`, async () => {
    const root = ok(await createInstance({ data_type_id: structTypeId }), 201) as Row;
    let parent = root;
    for (let level = 2; level <= MAX_TYPE_TREE_DEPTH; level++) {
      parent = ok(
        await createInstance({ data_type_id: structTypeId, parent_id: parent.id, slot: 'field:x' }),
        201,
      );
    }
    const refused = await createInstance({ data_type_id: leafTypeId, parent_id: parent.id, slot: 'field:x' });
    expect(expectEnvelope(refused, 422, 'TYPE_INSTANCE_TREE_TOO_LARGE').detail).toMatch(
      new RegExp(`at most ${MAX_TYPE_TREE_DEPTH} levels`),
    );
    const tree = ok(await ctx.request('GET', `${instances}/${root.id}/tree`, { token: ctx.userToken }));
    expect(levels(tree)).toBe(MAX_TYPE_TREE_DEPTH);
  });

  it(`refuses a tree of more than ${MAX_TYPE_TREE_NODES} nodes, also from concurrent batches`, async () => {
    const root = ok(await createInstance({ data_type_id: structTypeId }), 201) as Row;
    const members = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        data_type_id: leafTypeId,
        parent_id: root.id,
        slot: `field:m${from + i}`,
      }));
    const batch = (items: unknown[]) =>
      ctx.request('POST', `${instances}/batch`, { token: ctx.userToken, body: { items } });
    // Up to 500 nodes below the limit, then two batches that each fit alone but not together.
    for (let from = 0; from < MAX_TYPE_TREE_NODES - 501; from += 500) {
      ok(await batch(members(from, Math.min(500, MAX_TYPE_TREE_NODES - 501 - from))), 201);
    }
    const [a, b] = await Promise.all([batch(members(100_000, 400)), batch(members(200_000, 400))]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    expectEnvelope(
      [a, b].find((r) => r.status === 422)!,
      422,
      'TYPE_INSTANCE_TREE_TOO_LARGE',
    );
    const tree = ok(await ctx.request('GET', `${instances}/${root.id}/tree`, { token: ctx.userToken }));
    expect(tree.children).toHaveLength(MAX_TYPE_TREE_NODES - 501 + 400);
  });

  it('answers a tree stored deeper than the limit with 422, never a silently cut 200', async () => {
    const root = ok(await createInstance({ data_type_id: leafTypeId }), 201) as Row;
    await insertChain('type_instances', 3_000, root.id, { data_type_id: leafTypeId, slot: 'item' });
    for (const path of [`${instances}/${root.id}/tree`, `${instances}/${root.id}/render`]) {
      expectEnvelope(
        await ctx.request('GET', path, { token: ctx.userToken }),
        422,
        'TYPE_INSTANCE_TREE_TOO_LARGE',
      );
    }
  });
});

describe('field trees', () => {
  let datasetId: string;
  beforeAll(async () => {
    datasetId = (await createDataset(ctx, (await createPgSystem(ctx)).id)).id;
  });
  const fieldTree = () => ctx.request('GET', `${API}/fields/tree/${datasetId}`, { token: ctx.userToken });

  it(`refuses a field below level ${MAX_FIELD_DEPTH} on create, batch and move, and reads the whole tree`, async () => {
    const chain: Row[] = [await createField(ctx, datasetId)];
    while (chain.length < MAX_FIELD_DEPTH) {
      chain.push(await createField(ctx, datasetId, { parent_id: chain[chain.length - 1].id }));
    }
    const deepest = chain[chain.length - 1];
    const tooDeep = await ctx.request('POST', `${API}/fields`, {
      token: ctx.userToken,
      body: { dataset_id: datasetId, name: 'x', parent_id: deepest.id },
    });
    expect(expectEnvelope(tooDeep, 422, 'FIELD_TREE_TOO_DEEP').detail).toMatch(
      new RegExp(`at most ${MAX_FIELD_DEPTH} levels`),
    );
    expectEnvelope(
      await ctx.request('POST', `${API}/fields/batch`, {
        token: ctx.userToken,
        body: { items: [{ dataset_id: datasetId, name: 'y', parent_id: deepest.id }] },
      }),
      422,
      'FIELD_TREE_TOO_DEEP',
    );
    // A two-level subtree fits under the second-deepest field's parent, not under the deepest's parent.
    const top = await createField(ctx, datasetId);
    await createField(ctx, datasetId, { parent_id: top.id });
    const move = (parent: Row) =>
      ctx.request('PATCH', `${API}/fields/${top.id}`, {
        token: ctx.userToken,
        body: { parent_id: parent.id, row_version: top.row_version },
      });
    expectEnvelope(await move(chain[MAX_FIELD_DEPTH - 2]), 422, 'FIELD_TREE_TOO_DEEP');
    ok(await move(chain[MAX_FIELD_DEPTH - 3]));

    const roots = ok(await fieldTree()) as { id: string; children: unknown[] }[];
    expect(levels(roots.find((r) => r.id === chain[0].id)!)).toBe(MAX_FIELD_DEPTH);
  });

  it('answers a field tree stored deeper than the limit with 422, not a 500', async () => {
    const root = await createField(ctx, datasetId);
    await insertChain('fields', 3_000, root.id, { dataset_id: datasetId, name: 'deep' });
    expectEnvelope(await fieldTree(), 422, 'FIELD_TREE_TOO_DEEP');
  });
});
