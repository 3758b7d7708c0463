// `for await` over a collection deeper than the offset limit (MAX_PAGE_OFFSET rows skipped), against
// the real backend: the SDK walks a collection list by keyset cursor, so every row comes exactly once,
// in the list's order, however deep; an awaited page is the one request it always was.
import { MAX_BATCH_SIZE, MAX_PAGE_OFFSET } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AideClient } from '../src/index.js';
import { adminClient, recordingDispatcher, unique } from './helpers/backend.js';

const recorder = recordingDispatcher();
let client: AideClient;
let flavorId: string;
/** The systems of the fixture flavor, in the list's default order (`code`). */
let codes: string[];
const COUNT = MAX_PAGE_OFFSET + 2 * MAX_BATCH_SIZE + 7;

beforeAll(async () => {
  client = adminClient({ dispatcher: recorder.dispatcher });
  const kind = await client.systemKinds.create({ code: unique('deep-kind'), name: 'Deep paging' });
  const flavor = await client.systemFlavors.create({
    code: unique('deep-flavor'),
    name: 'Deep paging',
    kind_id: kind.id,
  });
  flavorId = flavor.id;
  const prefix = unique('deep');
  const items = Array.from({ length: COUNT }, (_, i) => ({
    code: `${prefix}-${String(i).padStart(5, '0')}`,
    name: `Deep ${i}`,
    flavor_id: flavorId,
  }));
  // Batches of 500, one transaction each: many rows share a created_at, so the id breaks the ties.
  await client.systems.createMany(items);
  codes = items.map((s) => s.code);
}, 120_000);

afterAll(async () => {
  await client.close();
  await recorder.close();
});

/** The query strings of the list requests made by `run`. */
async function listRequests(run: () => Promise<void>): Promise<URLSearchParams[]> {
  const before = recorder.requests.length;
  await run();
  return recorder.requests
    .slice(before)
    .filter((r) => r.startsWith('GET /api/v1/systems?'))
    .map((r) => new URL(`http://x${r.slice(4)}`).searchParams);
}

describe('for await past the offset limit', () => {
  it(`iterates ${COUNT} systems, every one exactly once, in order, by cursor`, async () => {
    const seen: string[] = [];
    const requests = await listRequests(async () => {
      for await (const system of client.systems.list({ flavor_id: flavorId, size: 100 }))
        seen.push(system.code);
    });
    expect(seen).toHaveLength(COUNT);
    expect(seen).toEqual(codes);
    expect(requests).toHaveLength(Math.ceil(COUNT / 100));
    // The first request names `total` (so that its page carries next_cursor); the others follow it.
    expect(requests[0]?.get('page')).toBe('1');
    expect(requests[0]?.get('total')).toBe('exact');
    expect(requests.slice(1).every((q) => q.get('cursor') && !q.has('page'))).toBe(true);
  }, 120_000);

  it('walks a sort whose values tie (created_at), numbering the pages on', async () => {
    const seen = new Set<string>();
    const numbers: number[] = [];
    for await (const page of client.systems
      .list({ flavor_id: flavorId, size: 100, sort: '-created_at', total: 'none' })
      .pages()) {
      numbers.push(page.page);
      for (const system of page.items) seen.add(system.code);
    }
    expect(seen.size).toBe(COUNT);
    expect(numbers).toEqual(Array.from({ length: Math.ceil(COUNT / 100) }, (_, i) => i + 1));
  }, 120_000);

  it('starts iterating at `page`, and awaits one page exactly as before', async () => {
    const tail: string[] = [];
    for await (const system of client.systems.iterate({ flavor_id: flavorId, size: 100, page: 101 }))
      tail.push(system.code);
    expect(tail).toEqual(codes.slice(10_000));

    const requests = await listRequests(async () => {
      const page = await client.systems.list({ flavor_id: flavorId, size: 100, page: 3 });
      expect(Object.keys(page).sort()).toEqual(['items', 'page', 'pages', 'size', 'total']);
      expect(page).toMatchObject({ total: COUNT, page: 3, pages: Math.ceil(COUNT / 100) });
    });
    expect(requests.map((q) => q.toString())).toEqual([`flavor_id=${flavorId}&size=100&page=3`]);
  });
});
