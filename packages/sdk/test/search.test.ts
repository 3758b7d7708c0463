// client.search against the real backend: one page, for await over every page, filters, errors.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AideClient, type SearchResult, ValidationError } from '../src/index.js';
import { adminClient, unique } from './helpers/backend.js';

let client: AideClient;
// A word no other test writes, so the totals are this file's own.
const word = `zq${randomBytes(5).toString('hex')}`;
let systemId: string;
let datasetId: string;
const fieldIds: string[] = [];

beforeAll(async () => {
  client = adminClient();
  // rdbms datasets need a system whose kind is rdbms (the dataset kind rule).
  const kind =
    (await client.systemKinds.list({ code: 'rdbms' })).items[0] ??
    (await client.systemKinds.create({ code: 'rdbms', name: 'Relational databases' }));
  const flavor = await client.systemFlavors.create({
    code: unique('flavor'),
    name: 'Flavor',
    kind_id: kind.id,
  });
  const system = await client.systems.create({
    code: unique('sys'),
    name: 'Search system',
    flavor_id: flavor.id,
  });
  systemId = system.id;
  const dataset = await client.datasets.create({
    kind: 'rdbms',
    system_id: system.id,
    object_name: `public.${word}_table`,
    schema_name: 'public',
    table_name: `${word}_table`,
  });
  datasetId = dataset.id;
  const fields = await client.fields.createMany(
    Array.from({ length: 5 }, (_, i) => ({ dataset_id: dataset.id, name: `${word}_col_${i}` })),
  );
  fieldIds.push(...fields.map((f) => f.id));
  await client.fieldClassifications.create({ field_id: fieldIds[0]!, pii_tags: ['email'] });
});
afterAll(async () => {
  await client.close();
});

describe('client.search', () => {
  it('answers one page when awaited, typed from @aide/schemas', async () => {
    const page = await client.search({ q: word, size: 2 });
    expect(page).toMatchObject({ total: 6, page: 1, size: 2, pages: 3 });
    const first: SearchResult = page.items[0]!;
    expect(first).toMatchObject({ kind: 'dataset', id: datasetId, system_id: systemId, match: 'prefix' });
    expect(first.highlight.segments[0]).toEqual({ text: 'public.', match: false });
  });

  it('iterates every page with for await', async () => {
    const seen: SearchResult[] = [];
    for await (const hit of client.search({ q: word, size: 2 })) seen.push(hit);
    expect(seen).toHaveLength(6);
    expect(new Set(seen.map((h) => h.id))).toEqual(new Set([datasetId, ...fieldIds]));
    const pages: number[] = [];
    for await (const page of client.search({ q: word, size: 4 }).pages()) pages.push(page.items.length);
    expect(pages).toEqual([4, 2]);
  });

  it('sends kind, system and PII filters', async () => {
    const fields = await client.search({ q: word, kind: ['field'], system_id: systemId, size: 100 });
    expect(fields.items.map((h) => h.kind)).toEqual(Array(5).fill('field'));
    const pii = await client.search({ q: word, pii: '*' });
    expect(pii.items.map((h) => [h.id, h.pii_tags])).toEqual([[fieldIds[0], ['email']]]);
    const tagged = await client.search({ q: word, pii: ['phone', 'email'] });
    expect(tagged.items.map((h) => h.id)).toEqual([fieldIds[0]]);
  });

  it('throws ValidationError for an invalid query', async () => {
    const error = await client.search({ q: '   ' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errorCode).toBe('VALIDATION_ERROR');
  });
});
