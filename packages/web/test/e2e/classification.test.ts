// One classification of a schema change, three paths (issue 23 §2): the crawler's diff of two versions
// (`diffVersions` over the versions as a crawl reads them), the registry's diff route (the real backend)
// and what the UI shows (`diffRows` of the route's answer). The same version pairs go through all three
// and must give the same classes. The crawler is imported from its source: this package does not
// depend on it, and its package entry would load the database drivers.
import type { AideClient, SchemaVersion, SchemaVersionDiff } from '@aide/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffVersions } from '../../../crawler/src/diff/diff';
import { registryVersionOf } from '../../../crawler/src/registry/snapshot';
import { diffRows, tableChanges } from '../../src/components/VersionDiff';
import { adminClient, seededFlavor } from './browser';

type Column = {
  name: string;
  nullable?: boolean;
  type: { data_type: string; params?: Record<string, number> };
};
const col = (name: string, dataType: string, nullable = true, params?: Record<string, number>): Column => ({
  name,
  nullable,
  type: { data_type: dataType, ...(params ? { params } : {}) },
});

// Each version over the previous one exercises a rule the three copies once disagreed on.
const VERSIONS: Column[][] = [
  [col('id', 'integer', false), col('email', 'text'), col('amount', 'integer'), col('note', 'text')],
  // A widening (integer → bigint): compatible; the old UI called every type change breaking.
  [col('id', 'bigint', false), col('email', 'text'), col('amount', 'integer'), col('note', 'text')],
  // A NOT NULL column added without a default: breaking for writers; the old UI never classed an addition.
  [
    col('id', 'bigint', false),
    col('email', 'text'),
    col('amount', 'integer'),
    col('note', 'text'),
    col('code', 'text', false),
  ],
  // Nullability relaxed and tightened, a nullable column added.
  [
    col('id', 'bigint', false),
    col('email', 'text', false),
    col('amount', 'integer'),
    col('note', 'text'),
    col('code', 'text'),
    col('placed_at', 'timestamp'),
  ],
  // A narrowing type change and a removal.
  [
    col('id', 'bigint', false),
    col('email', 'text', false),
    col('amount', 'smallint'),
    col('code', 'text'),
    col('placed_at', 'timestamp'),
  ],
  // Columns reordered, a decimal's precision widened.
  [
    col('email', 'text', false),
    col('id', 'bigint', false),
    col('amount', 'numeric', true, { precision: 10, scale: 2 }),
    col('code', 'text'),
    col('placed_at', 'timestamp'),
  ],
  [
    col('email', 'text', false),
    col('id', 'bigint', false),
    col('amount', 'numeric', true, { precision: 12, scale: 2 }),
    col('code', 'text'),
    col('placed_at', 'timestamp'),
  ],
];

let client: AideClient;
let datasetId: string;

beforeAll(async () => {
  client = adminClient();
  const flavor = await seededFlavor(client);
  const system = await client.systems.create({
    code: 'classification_pg',
    name: 'Classification',
    flavor_id: flavor.id,
  });
  const dataset = await client.datasets.create({
    kind: 'rdbms',
    system_id: system.id,
    object_name: 'public.classified',
    schema_name: 'public',
    table_name: 'classified',
  });
  datasetId = dataset.id;
  for (const columns of VERSIONS) await client.datasets.publishSchemaVersion(datasetId, { columns });
});
afterAll(async () => {
  await client?.close();
});

const key = (c: { category: string; name: string | null; compatibility: string }) =>
  `${c.category} ${c.name ?? '-'} ${c.compatibility}`;

/** The UI's class of each column row and of each other change, as it renders them. */
function uiClasses(from: SchemaVersion, to: SchemaVersion, diff: SchemaVersionDiff) {
  return {
    rows: diffRows(from, to, diff).map(
      (r) => `${r.name} ${r.change === 'same' ? 'same' : r.breaking ? 'breaking' : 'compatible'}`,
    ),
    others: tableChanges(diff).map(key),
  };
}

describe('one classification, three paths', () => {
  const pairs: [number, number][] = [
    ...VERSIONS.slice(1).map((_, i): [number, number] => [i + 1, i + 2]),
    [1, VERSIONS.length],
  ];

  it.each(pairs)('v%i → v%i is classed alike by the crawler, the diff route and the UI', async (a, b) => {
    const [from, to, diff] = await Promise.all([
      client.datasets.schemaVersion(datasetId, a),
      client.datasets.schemaVersion(datasetId, b),
      client.datasets.diffSchemaVersions(datasetId, a, b),
    ]);
    const crawler = diffVersions(registryVersionOf(from), registryVersionOf(to));
    expect(crawler.length).toBeGreaterThan(0);
    // Crawler and server: the same changes, each of the same class, the same worst class.
    expect(diff.changes.map(key).sort()).toEqual(crawler.map(key).sort());
    const worst = crawler.some((c) => c.compatibility === 'breaking') ? 'breaking' : 'compatible';
    expect(diff.compatibility).toBe(worst);
    // The UI: a column is breaking exactly when the crawler classed one of its changes breaking.
    const columnChanges = crawler.filter((c) => !tableChanges({ changes: [c] } as SchemaVersionDiff).length);
    const expectedRows = diffRows(from, to, diff).map((r) => {
      const own = columnChanges.filter((c) => c.name === r.name);
      if (own.length === 0) return `${r.name} same`;
      return `${r.name} ${own.some((c) => c.compatibility === 'breaking') ? 'breaking' : 'compatible'}`;
    });
    const ui = uiClasses(from, to, diff);
    expect(ui.rows).toEqual(expectedRows);
    expect(ui.others.sort()).toEqual(
      crawler
        .filter((c) => !columnChanges.includes(c))
        .map(key)
        .sort(),
    );
  });

  it('classes what the old copies got wrong as the one classifier does', async () => {
    const classes = async (a: number, b: number) =>
      Object.fromEntries(
        (await client.datasets.diffSchemaVersions(datasetId, a, b)).changes.map((c) => [
          `${c.category} ${c.name}`,
          c.compatibility,
        ]),
      );
    expect(await classes(1, 2)).toEqual({ 'type_changed id': 'compatible' });
    expect((await classes(2, 3))['column_added code']).toBe('breaking');
    expect((await classes(4, 5))['column_removed note']).toBe('breaking');
  });
});
