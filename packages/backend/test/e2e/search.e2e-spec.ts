// GET /api/v1/search on the real database: ranking, trigram misspellings, PII, kind and system
// filters, soft-deleted rows, highlighting, paging, validation, auth, and index use (EXPLAIN).
import { SearchQuerySchema, type SearchResult } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SEARCH_SETTINGS, SearchRepository } from '../../src/modules/search/search.repository.js';
import { API, datasetBody, flavorFor, type Row } from '../helpers/catalogue.js';
import { createFlavor, createSystem, ok } from '../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../helpers/test-app.js';

let ctx: TestContext;
let sales: Row;
let hr: Row;
const field: Record<string, Row> = {};
const dataset: Record<string, Row> = {};

async function createDataset(system: Row, objectName: string, note?: string): Promise<Row> {
  const body = datasetBody('rdbms', system.id, { object_name: objectName, table_name: objectName, note });
  return ok(await ctx.request('POST', `${API}/datasets`, { token: ctx.userToken, body }), 201);
}

async function createField(ds: Row, name: string, note?: string): Promise<Row> {
  const body = { dataset_id: ds.id, name, note };
  return ok(await ctx.request('POST', `${API}/fields`, { token: ctx.userToken, body }), 201);
}

async function classify(f: Row, pii_tags: string[]): Promise<void> {
  const body = { field_id: f.id, pii_tags };
  ok(await ctx.request('POST', `${API}/field-classifications`, { token: ctx.userToken, body }), 201);
}

async function search(
  query: string,
  token = ctx.userToken,
): Promise<{ items: SearchResult[]; total: number; pages: number; facets?: unknown }> {
  return ok(await ctx.request('GET', `${API}/search?${query}`, { token }));
}

const names = (items: SearchResult[]) => items.map((i) => `${i.kind}:${i.name}`);

beforeAll(async () => {
  ctx = await createTestContext();
  // Datasets of kind rdbms need a system whose kind is rdbms (docs/dataset-kinds.md).
  const flavor = await flavorFor(ctx, 'rdbms');
  sales = await createSystem(ctx, flavor.id, { code: 'sales_db', name: 'Sales warehouse' });
  hr = await createSystem(ctx, flavor.id, { code: 'hr_db', name: 'Human resources' });
  dataset['customers'] = await createDataset(sales, 'public.customers', 'Everyone who bought something');
  dataset['orders'] = await createDataset(sales, 'public.customer_orders');
  dataset['employees'] = await createDataset(hr, 'public.employees');
  field['customer'] = await createField(dataset['customers'], 'customer');
  field['customer_id'] = await createField(dataset['customers'], 'customer_id');
  field['email'] = await createField(dataset['customers'], 'email', 'Primary contact address of the buyer');
  field['phone'] = await createField(dataset['customers'], 'phone');
  field['orders.customer_id'] = await createField(dataset['orders'], 'customer_id');
  field['contact'] = await createField(dataset['orders'], 'contact');
  field['hr.email'] = await createField(dataset['employees'], 'email');
  field['script'] = await createField(dataset['employees'], '<b>bold</b> & "quoted"');
  await classify(field['email'], ['email']);
  await classify(field['phone'], ['phone']);
  await classify(field['contact'], ['email']);
  await classify(field['hr.email'], ['email']);
  await classify(field['hr.email'], []); // reviewed since: no PII any more
  // Soft-deleted: a system, and a dataset whose field must disappear with it.
  const legacy = await createSystem(ctx, flavor.id, { code: 'customer_legacy' });
  const archive = await createDataset(sales, 'public.customer_archive');
  await createField(archive, 'zebra_stripes');
  ok(await ctx.request('DELETE', `${API}/systems/${legacy.id}`, { token: ctx.adminToken }));
  ok(await ctx.request('DELETE', `${API}/datasets/${archive.id}`, { token: ctx.adminToken }));
});
afterAll(async () => {
  await ctx.close();
});

describe('search', () => {
  it('ranks exact names first, then prefixes, then words, with display paths', async () => {
    const { items, total } = await search('q=customer');
    expect(items[0]).toMatchObject({
      kind: 'field',
      id: field['customer'].id,
      name: 'customer',
      path: 'sales_db / public.customers / customer',
      system_id: sales.id,
      dataset_id: dataset['customers'].id,
      match: 'exact',
      pii_tags: null,
    });
    expect(names(items)[0]).toBe('field:customer');
    // The last part of a qualified dataset name ranks as a name (prefix), before mere words.
    expect(names(items.slice(1)).sort()).toEqual([
      'dataset:public.customer_orders',
      'dataset:public.customers',
      'field:customer_id',
      'field:customer_id',
    ]);
    expect(items.map((i) => i.match)).toEqual(['exact', 'prefix', 'prefix', 'prefix', 'prefix']);
    const scores = items.slice(1).map((i) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(total).toBe(5);
    const ds = items.find((i) => i.kind === 'dataset' && i.name === 'public.customers')!;
    expect(ds).toMatchObject({ path: 'sales_db / public.customers', dataset_id: dataset['customers'].id });
    const sys = (await search('q=sales_db')).items[0];
    expect(sys).toMatchObject({
      kind: 'system',
      id: sales.id,
      path: 'sales_db',
      dataset_id: null,
      match: 'exact',
    });
  });

  it('never returns soft-deleted systems, datasets, or the fields of a deleted dataset', async () => {
    const { items } = await search('q=customer&size=100');
    expect(names(items)).not.toContain('system:customer_legacy');
    expect(names(items)).not.toContain('dataset:public.customer_archive');
    expect((await search('q=zebra')).total).toBe(0);
    expect((await search('q=archive')).total).toBe(0);
    expect((await search('q=legacy')).total).toBe(0);
  });

  it('finds misspelt names by trigram similarity, ranked after real matches', async () => {
    const { items } = await search('q=custmer');
    expect(names(items)).toEqual(expect.arrayContaining(['field:customer', 'dataset:public.customers']));
    expect(items.every((i) => i.match === 'similar')).toBe(true);
    expect(names((await search('q=employes')).items)).toContain('dataset:public.employees');
    // Two characters are too short for similarity: only word prefixes match.
    const short = names((await search('q=cu&size=100')).items);
    expect(short).toContain('field:customer');
    expect(short.every((n) => /:.*cu/.test(n))).toBe(true);
  });

  it('finds a renamed field by a misspelling of its new name (the name vocabulary follows updates)', async () => {
    const f = await createField(dataset['orders'], 'scratch_column');
    const renamed = await ctx.request('PATCH', `${API}/fields/${f.id}`, {
      token: ctx.userToken,
      body: { name: 'settlement_amount' },
      headers: { 'if-match': `"${f.row_version}"` },
    });
    ok(renamed);
    const { items } = await search('q=setlement_amount&kind=field');
    expect(items.map((i) => i.id)).toEqual([f.id]);
    expect(items[0]?.match).toBe('similar');
    ok(await ctx.request('DELETE', `${API}/fields/${f.id}`, { token: ctx.adminToken }));
  });

  it('finds fields by the words of their name, path and note, alone or together', async () => {
    // Name words only (no note, no path of its own): through the name vocabulary.
    const byNameWord = await search('q=id&kind=field');
    expect(byNameWord.items.map((i) => i.id).sort()).toEqual(
      [field['customer_id'].id, field['orders.customer_id'].id].sort(),
    );
    expect(byNameWord.items.every((i) => i.match === 'text')).toBe(true);
    // A nested path's words with a name prefix, and a name word with a note word: the noted index.
    const nested: Row = ok(
      await ctx.request('POST', `${API}/fields`, {
        token: ctx.userToken,
        body: { dataset_id: dataset['orders'].id, name: 'zipcode', path: 'shipping_address.zipcode' },
      }),
      201,
    );
    expect((await search('q=shipping%20zip&kind=field')).items.map((i) => i.id)).toEqual([nested.id]);
    const nameAndNote = (await search('q=email%20buyer')).items.filter((i) => i.match === 'text');
    expect(names(nameAndNote)).toEqual(['field:email']);
    // A note removed: the field is found by its name's words again, no longer by the note's.
    const noted = await createField(dataset['orders'], 'ledger_total', 'Closing balance');
    expect((await search('q=total%20balance')).items.map((i) => i.id)).toEqual([noted.id]);
    ok(
      await ctx.request('PATCH', `${API}/fields/${noted.id}`, {
        token: ctx.userToken,
        body: { note: null },
        headers: { 'if-match': `"${noted.row_version}"` },
      }),
    );
    expect((await search('q=total%20balance')).total).toBe(0);
    expect((await search('q=ledger%20total&kind=field')).items.map((i) => i.id)).toEqual([noted.id]);
    for (const f of [nested, noted]) {
      ok(await ctx.request('DELETE', `${API}/fields/${f.id}`, { token: ctx.adminToken }));
    }
  });

  it('matches comments and PII tags, and filters by PII tag', async () => {
    const byComment = await search('q=buyer');
    expect(names(byComment.items)).toEqual(['field:email']);
    expect(byComment.items[0].match).toBe('text');

    // `contact` is found by its current tag; hr_db's email by its name only (its tags are now empty).
    const byTag = await search('q=email');
    expect(byTag.items.find((i) => i.name === 'contact')).toMatchObject({
      match: 'pii_tag',
      pii_tags: ['email'],
    });
    expect(byTag.items.filter((i) => i.name === 'email').map((i) => i.pii_tags)).toEqual(
      expect.arrayContaining([['email'], []]),
    );

    const tagged = await search('q=email&pii=email');
    expect(tagged.items.map((i) => i.id).sort()).toEqual([field['email'].id, field['contact'].id].sort());
    const anyTag = await search('q=phone&pii=*');
    expect(anyTag.items.map((i) => i.id)).toEqual([field['phone'].id]);
    expect((await search('q=email&pii=phone')).total).toBe(0);
    expect((await search('q=customer&pii=*')).total).toBe(0);
  });

  it('answers a filtered search the same whether the filter or the indexes drive it', async () => {
    const repository = new SearchRepository();
    const queries = [
      { q: 'email', pii: 'email' },
      { q: 'contact', pii: 'email,phone' },
      { q: 'customer', pii: 'email' },
      { q: 'email', system_id: hr.id },
      { q: 'customer', system_id: sales.id },
      { q: 'buyer', system_id: sales.id },
      { q: 'custmer', system_id: sales.id },
    ];
    for (const raw of queries) {
      const query = SearchQuerySchema.parse(raw);
      expect(await repository.filterDriven(query, ctx.dataSource.manager)).toBe(true);
      for (const similar of [false, true]) {
        const rows = async (driven: boolean) => {
          const { sql, params } = repository.statement(query, similar, driven);
          const found = await ctx.dataSource.query<{ kind: string; id: string; match_rank: number }[]>(
            sql,
            params,
          );
          return found.map((r) => `${r.kind}:${r.id}:${r.match_rank}`).sort();
        };
        const byIndexes = await rows(false);
        expect({ raw, similar, rows: await rows(true) }).toEqual({ raw, similar, rows: byIndexes });
      }
    }
    // The check is not vacuous: some of these searches find fields.
    const found = await search(`q=customer&system_id=${sales.id}&kind=field`);
    expect(found.total).toBeGreaterThan(0);
  });

  it('filters by kind and by system', async () => {
    const datasets = await search('q=customer&kind=dataset');
    expect(datasets.items.map((i) => i.kind)).toEqual(['dataset', 'dataset']);
    const systemsAndFields = await search('q=customer&kind=system,field');
    expect(new Set(systemsAndFields.items.map((i) => i.kind))).toEqual(new Set(['field']));
    const inHr = await search(`q=email&system_id=${hr.id}`);
    expect(inHr.items.map((i) => i.id)).toEqual([field['hr.email'].id]);
    const hrSystem = await search(`q=db&kind=system&system_id=${hr.id}`);
    expect(hrSystem.items.map((i) => i.id)).toEqual([hr.id]);
  });

  it('highlights the matched words as plain-text segments', async () => {
    const prefix = (await search('q=cust&kind=field')).items.find((i) => i.name === 'customer_id')!;
    expect(prefix.highlight).toEqual({
      field: 'name',
      segments: [
        { text: 'cust', match: true },
        { text: 'omer_id', match: false },
      ],
    });
    const comment = (await search('q=contact%20addr')).items[0];
    expect(comment.highlight.field).toBe('comment');
    expect(comment.highlight.segments.filter((s) => s.match).map((s) => s.text)).toEqual(['contact', 'addr']);
    expect(comment.highlight.segments.map((s) => s.text).join('')).toBe(
      'Primary contact address of the buyer',
    );
    // Markup in a name comes back as text in the segments, never interpreted or escaped twice.
    const markup = (await search('q=bold')).items[0];
    expect(markup.highlight.segments.map((s) => s.text).join('')).toBe('<b>bold</b> & "quoted"');
    expect(markup.highlight.segments.find((s) => s.match)).toEqual({ text: 'bold', match: true });
    const similar = (await search('q=custmer&kind=field')).items.find((i) => i.name === 'customer')!;
    expect(similar.highlight).toEqual({ field: 'name', segments: [{ text: 'customer', match: false }] });
  });

  it('pages the ranked results', async () => {
    const all = await search('q=customer&size=100');
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = await search(`q=customer&size=2&page=${page}`);
      expect(body).toMatchObject({ total: 5, page, size: 2, pages: 3 });
      seen.push(...body.items.map((i) => i.id));
    }
    expect(seen).toEqual(all.items.map((i) => i.id));
    const past = await search('q=customer&size=2&page=9');
    expect(past).toMatchObject({ items: [], total: 5, pages: 3 });
    expect(await search('q=nothingmatcheshere')).toMatchObject({ items: [], total: 0, pages: 0 });
  });

  it('counts the ranked results by facet, and filters by flavor and lineage (facets=true)', async () => {
    // customers → customer_orders is a lineage hop (no versions: an OpenLineage link, ADR 0054).
    await ctx.dataSource.query(
      `INSERT INTO dataset_links (source_dataset_id, target_dataset_id) VALUES ($1, $2)`,
      [dataset['customers'].id, dataset['orders'].id],
    );
    // A dataset of sales_db with a flavor of its own, and fields named by a word nothing else has.
    const own = await createFlavor(ctx, (await flavorFor(ctx, 'rdbms')).kind_id);
    const gadgets = await createDataset(sales, 'public.gadgets');
    ok(
      await ctx.request('PATCH', `${API}/datasets/${gadgets.id}`, {
        token: ctx.userToken,
        body: { kind: 'rdbms', flavor_id: own.id, row_version: gadgets.row_version },
      }),
    );
    await createField(gadgets, 'gadget_code');
    await classify(await createField(dataset['customers'], 'gadget_id'), ['device']);
    const systemFlavor: string = ok(
      await ctx.request('GET', `${API}/system-flavors/${sales.flavor_id}`, { token: ctx.userToken }),
    ).code;

    const gadget = await ok(
      await ctx.request('GET', `${API}/search?q=gadget&facets=true`, { token: ctx.userToken }),
    );
    expect(gadget.total).toBe(3);
    expect(gadget.facets).toEqual({
      kind: [
        { value: 'field', label: null, count: 2 },
        { value: 'dataset', label: null, count: 1 },
      ],
      system: [{ value: sales.id, label: 'Sales warehouse (sales_db)', count: 3 }],
      flavor: [
        { value: own.code, label: null, count: 2 },
        { value: systemFlavor, label: null, count: 1 },
      ].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)),
      pii_tag: [{ value: 'device', label: null, count: 1 }],
      has_lineage: [
        { value: 'false', label: null, count: 2 },
        { value: 'true', label: null, count: 1 },
      ],
    });
    // Without facets=true the page has none (the search box's instant results do not pay for them).
    expect((await search('q=gadget')).facets).toBeUndefined();

    // A dataset's own flavor counts, else its system's; a field takes its dataset's.
    const byFlavor = await search(`q=gadget&flavor=${own.code}`);
    expect(byFlavor.items.map((i) => i.id).sort()).toEqual(
      [gadgets.id, byFlavor.items.find((i) => i.name === 'gadget_code')!.id].sort(),
    );
    expect(names((await search(`q=gadget&flavor=${systemFlavor}`)).items)).toEqual(['field:gadget_id']);
    expect((await search(`q=db&kind=system&flavor=${own.code}`)).total).toBe(0);
    expect((await search(`q=db&kind=system&flavor=${systemFlavor},${own.code}`)).total).toBe(2);

    // Lineage: the datasets of the hop and their fields; systems are left out of a lineage filter.
    const linked = await search('q=customer&has_lineage=true&size=100');
    expect(linked.total).toBe(5);
    const email = await search('q=email&has_lineage=false');
    expect(email.items.map((i) => i.id)).toEqual([field['hr.email'].id]);
    expect((await search('q=email&has_lineage=true')).items.map((i) => i.id).sort()).toEqual(
      [field['email'].id, field['contact'].id].sort(),
    );
    expect((await search('q=db&has_lineage=true')).total).toBe(0);
    // The same filters when a system or a PII tag drives the field branch (ADR 0025).
    expect((await search(`q=email&has_lineage=false&system_id=${hr.id}`)).total).toBe(1);
    expect((await search(`q=email&has_lineage=false&system_id=${sales.id}`)).total).toBe(0);
    expect(names((await search(`q=gadget&pii=device&flavor=${systemFlavor}`)).items)).toEqual([
      'field:gadget_id',
    ]);
    expect((await search(`q=gadget&pii=device&flavor=${own.code}`)).total).toBe(0);

    // Facets under a filter count the filtered results; a page past the last keeps them.
    const past = await ok(
      await ctx.request('GET', `${API}/search?q=gadget&facets=true&size=1&page=9&has_lineage=false`, {
        token: ctx.userToken,
      }),
    );
    expect(past).toMatchObject({ items: [], total: 2 });
    expect(past.facets.has_lineage).toEqual([{ value: 'false', label: null, count: 2 }]);
    expect(past.facets.kind).toEqual([
      { value: 'dataset', label: null, count: 1 },
      { value: 'field', label: null, count: 1 },
    ]);
    const none = await ok(
      await ctx.request('GET', `${API}/search?q=nothingmatcheshere&facets=true`, { token: ctx.userToken }),
    );
    expect(none.facets).toEqual({ kind: [], system: [], flavor: [], pii_tag: [], has_lineage: [] });
  });

  it('requires a token', async () => {
    expectEnvelope(await ctx.request('GET', `${API}/search?q=customer`), 401, 'UNAUTHORIZED');
  });

  it.each([
    ['missing q', ''],
    ['empty q', 'q=%20%20'],
    ['q without letters or digits', 'q=***'],
    ['q too long', `q=${'a'.repeat(201)}`],
    ['unknown kind', 'q=a&kind=table'],
    ['repeated kind', 'q=a&kind=field,field'],
    ['bad system_id', 'q=a&system_id=nope'],
    ['pii without fields', 'q=a&pii=email&kind=dataset'],
    ['pii * with tags', 'q=a&pii=*,email'],
    ['has_lineage of systems only', 'q=a&has_lineage=true&kind=system'],
    ['has_lineage not a boolean', 'q=a&has_lineage=yes'],
    ['empty flavor', 'q=a&flavor='],
    ['facets not a boolean', 'q=a&facets=1'],
    ['size over 100', 'q=a&size=101'],
    ['unknown parameter', 'q=a&sort=name'],
  ])('answers 422 VALIDATION_ERROR for %s', async (_case, query) => {
    expectEnvelope(
      await ctx.request('GET', `${API}/search?${query}`, { token: ctx.userToken }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('selects every kind through the search indexes (EXPLAIN on 20,000 fields)', async () => {
    const repository = new SearchRepository();
    const runner = ctx.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      // Enough rows for the planner to prefer the indexes, rolled back afterwards.
      await runner.query(
        `INSERT INTO systems (code, name, flavor_id)
         SELECT 'bulk_' || i, 'Bulk ' || i, $1 FROM generate_series(1, 2000) i`,
        [sales.flavor_id],
      );
      await runner.query(
        `INSERT INTO datasets (system_id, object_name, kind)
         SELECT $1, 'bulk.table_' || i, 'rdbms' FROM generate_series(1, 5000) i`,
        [sales.id],
      );
      await runner.query(
        `INSERT INTO fields (dataset_id, name)
         SELECT $1, 'column_' || i FROM generate_series(1, 20000) i`,
        [dataset['orders'].id],
      );
      await runner.query(
        `INSERT INTO field_classifications (field_id, pii_tags)
         SELECT id, ARRAY['tag_' || (row_number() OVER ())] FROM fields WHERE name LIKE 'column_%'`,
      );
      await runner.query('ANALYZE systems, datasets, fields, field_classifications, field_names');
      // As the API runs it (SearchRepository.search).
      for (const setting of SEARCH_SETTINGS) await runner.query(setting);
      const explain = async (statement: { sql: string; params: unknown[] }) =>
        ((await runner.query(`EXPLAIN ${statement.sql}`, statement.params)) as { 'QUERY PLAN': string }[])
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      for (const q of ['customer', 'custmer']) {
        // Words: the full-text indexes (the similar pass runs only when they match nothing).
        const words = await explain(repository.statement(SearchQuerySchema.parse({ q }), false));
        for (const table of ['systems', 'datasets']) expect(words).toContain(`ix_${table}_search`);
        // Fields: by name through the vocabulary, the others (a note, a path) by their partial index.
        for (const index of ['ix_field_names_search', 'ix_fields_name_lower', 'ix_fields_search_noted'])
          expect(words).toContain(index);
        expect(words).toContain('ix_field_classifications_pii_tags');
        // Similar spellings of field names: trigrams of the distinct names (ADR 0025), then the fields by
        // name, never a trigram probe of every field. (Systems and datasets: their trigram index or, on
        // tables this small, a read of them all, as the planner prices it; `pnpm bench search` shows
        // the index at 100,000 datasets.)
        const similar = await explain(repository.statement(SearchQuerySchema.parse({ q }), true));
        for (const index of ['ix_field_names_trgm', 'ix_fields_name_lower']) expect(similar).toContain(index);
        expect(similar).not.toContain('ix_fields_name_trgm');
      }
      // A filter leaving few fields drives the field branch: the tag's fields by primary key.
      const tagged = SearchQuerySchema.parse({ q: 'column', pii: 'tag_7' });
      expect(await repository.filterDriven(tagged, runner.manager)).toBe(true);
      const driven = await explain(repository.statement(tagged, false, true));
      expect(driven).toContain('field_pool');
      expect(driven).toContain('fields_pkey');
      // A system with more fields than FILTER_POOL_CAP is searched through the indexes.
      const big = SearchQuerySchema.parse({ q: 'column', system_id: sales.id });
      expect(await repository.filterDriven(big, runner.manager)).toBe(false);
      expect(
        await repository.filterDriven(
          SearchQuerySchema.parse({ q: 'column', system_id: hr.id }),
          runner.manager,
        ),
      ).toBe(true);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
