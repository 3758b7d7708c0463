// The crawler's bulk paths against the real backend: a system's snapshot iterated page by page
// (requests counted), datasets created and versions published in chunks with per-item results
// (partial conflicts, re-runs), and the crawler-visible structure of a version round-tripping.
import type { BulkPublishItem, CreateDataset, PublishSchemaVersion } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AideBatchError, type AideClient, NotFoundError } from '../src/index.js';
import { adminClient, recordingDispatcher, unique } from './helpers/backend.js';

const recorder = recordingDispatcher();
let client: AideClient;
let systemId: string;

async function createSystem(): Promise<string> {
  const { items } = await client.systemFlavors.list({ code: 'postgres14' });
  const system = await client.systems.create({
    code: unique('crawled-db'),
    name: 'Crawled database',
    flavor_id: items[0]!.id,
  });
  return system.id;
}

beforeAll(async () => {
  client = adminClient({ dispatcher: recorder.dispatcher });
  systemId = await createSystem();
});
afterAll(async () => {
  await client.close();
  await recorder.close();
});

function table(name: string): CreateDataset {
  return { kind: 'rdbms', system_id: systemId, object_name: name, schema_name: 'shop', table_name: name };
}

/** A version as a crawler publishes it: native types, a default, keys, an index. */
const ORDERS: PublishSchemaVersion = {
  columns: [
    { name: 'id', nullable: false, type: { data_type: 'bigint' }, native_type: 'bigint', identity: 'always' },
    {
      name: 'placed_at',
      type: { data_type: 'timestamptz' },
      native_type: 'timestamp with time zone',
      default: 'now()',
      comment: 'when the order was placed',
    },
    { name: 'area', type: null, native_type: 'public.geometry' },
  ],
  table_kind: 'table',
  table_comment: 'orders',
  primary_key: { name: 'orders_pkey', columns: ['id'] },
  indexes: [{ name: 'orders_placed_idx', columns: ['placed_at'], method: 'btree' }],
};

describe('bulkCreate', () => {
  it('creates in chunks and reports each item, input positions kept across chunks', async () => {
    const names = Array.from({ length: 7 }, () => unique('t'));
    const existing = await client.datasets.create(table(names[3]!) as CreateDataset & { kind: 'rdbms' });
    const before = recorder.count('POST /api/v1/datasets/bulk');
    const result = await client.datasets.bulkCreate(names.map(table), { chunkSize: 3 });
    expect(recorder.count('POST /api/v1/datasets/bulk') - before).toBe(3);
    expect(result.summary).toEqual({ created: 6, failed: 1 });
    expect(result.items.map((i) => [i.index, i.status])).toEqual([
      [0, 'created'],
      [1, 'created'],
      [2, 'created'],
      [3, 'failed'],
      [4, 'created'],
      [5, 'created'],
      [6, 'created'],
    ]);
    expect(result.items[3]!.error).toMatchObject({
      error_code: 'DATASET_ALREADY_EXISTS',
      status: 409,
      details: { dataset_id: existing.id },
    });
    expect(result.items[6]!.dataset).toMatchObject({ kind: 'rdbms', object_name: names[6] });
  });

  it('throws AideBatchError naming the failed chunk when a whole request is refused', async () => {
    const items = [table(unique('t')), { ...table(unique('t')), system_id: 'not-a-uuid' }];
    const error = await client.datasets.bulkCreate(items, { chunkSize: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AideBatchError);
    const batch = error as AideBatchError;
    expect(batch.failedChunk).toMatchObject({ index: 1, start: 1, end: 2 });
    expect(batch.created).toHaveLength(1);
  });
});

describe('bulkPublish and snapshot', () => {
  const ids: string[] = [];

  beforeAll(async () => {
    // A system of its own: the snapshot must hold exactly these datasets.
    systemId = await createSystem();
    const created = await client.datasets.bulkCreate(Array.from({ length: 1201 }, () => table(unique('t'))));
    expect(created.summary).toEqual({ created: 1201, failed: 0 });
    ids.push(...created.items.map((i) => i.dataset!.id));
  }, 120_000);

  it('publishes each dataset on its own: the one that moved since its base is a VERSION_CONFLICT', async () => {
    await client.datasets.publishSchemaVersion(ids[1]!, {
      columns: [{ name: 'moved', type: { data_type: 'text' } }],
    });
    const items: BulkPublishItem[] = ids
      .slice(0, 3)
      .map((id) => ({ dataset_id: id, base_version_num: null, ...ORDERS }));
    const result = await client.datasets.bulkPublish(items);
    expect(result.summary).toEqual({ created: 2, unchanged: 0, failed: 1 });
    expect(
      result.items.map((i) => [i.dataset_id, i.status, i.version_num, i.error?.error_code ?? null]),
    ).toEqual([
      [ids[0], 'created', 1, null],
      [ids[1], 'failed', null, 'VERSION_CONFLICT'],
      [ids[2], 'created', 1, null],
    ]);
    // The same items again change nothing; rebased on version 1, the conflicting one applies.
    const again = await client.datasets.bulkPublish(items, { chunkSize: 2 });
    expect(again.items.map((i) => i.status)).toEqual(['unchanged', 'failed', 'unchanged']);
    const rebased = await client.datasets.bulkPublish([{ ...items[1]!, base_version_num: 1 }]);
    expect(rebased.items[0]).toMatchObject({ status: 'created', version_num: 2 });

    const version = await client.datasets.schemaVersion(ids[0]!, 1);
    expect(
      version.columns.map((c) => [c.name, c.rendered_type, c.native_type, c.default, c.identity]),
    ).toEqual([
      ['id', 'bigint', 'bigint', null, 'always'],
      ['placed_at', 'timestamp with time zone', 'timestamp with time zone', 'now()', null],
      ['area', null, 'public.geometry', null, null],
    ]);
    expect(version).toMatchObject({
      table_kind: 'table',
      primary_key: { name: 'orders_pkey', columns: ['id'] },
      indexes: [{ name: 'orders_placed_idx', columns: ['placed_at'], unique: false }],
    });
    const diff = await client.datasets.diffSchemaVersions(ids[1]!, 1, 2);
    expect(diff.primary_key_changed).toEqual({ from: null, to: { name: 'orders_pkey', columns: ['id'] } });
    expect(diff.indexes_changed.added.map((i) => i.name)).toEqual(['orders_placed_idx']);
  });

  it('reads the whole system back in pages of 500: 1,201 datasets in 3 requests', async () => {
    const before = recorder.count(`GET /api/v1/systems/${systemId}/snapshot`);
    const seen = new Map<string, number | null>();
    for await (const page of client.systems.snapshot(systemId)) {
      expect(page.system_id).toBe(systemId);
      for (const { dataset, version } of page.items) seen.set(dataset.id, version?.version_num ?? null);
    }
    expect(recorder.count(`GET /api/v1/systems/${systemId}/snapshot`) - before).toBe(3);
    expect(seen.size).toBe(1201);
    expect(ids.every((id) => seen.has(id))).toBe(true);
    expect([seen.get(ids[0]!), seen.get(ids[1]!), seen.get(ids[3]!)]).toEqual([1, 2, null]);

    const big = await client.systems.snapshotPage(systemId, { limit: 1000 });
    expect(big.items).toHaveLength(1000);
    const rest = await client.systems.snapshotPage(systemId, { limit: 1000, cursor: big.next_cursor! });
    expect(rest.items).toHaveLength(201);
    expect(rest.next_cursor).toBeNull();
  });

  it('throws NotFoundError (SYSTEM_NOT_FOUND) for an unknown system', async () => {
    const pages = client.systems.snapshot('00000000-0000-4000-8000-000000000000');
    const error = await pages.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).errorCode).toBe('SYSTEM_NOT_FOUND');
  });
});
