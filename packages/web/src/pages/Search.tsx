import { ANY_PII_TAG, SEARCH_KINDS, type SearchKind } from '@aide/schemas';
import type { SearchFacetCount, SearchFacets, SearchParams, SearchResult } from '@aide/sdk';
import { type FormEvent, useEffect, useState } from 'react';
import { Highlight, Loaded, Pager } from '../components/common';
import { PageHeading } from '../components/Page';
import { resultPath } from '../components/SearchBox';
import { Link, navigate, useQueryParams } from '../router';
import { useSession } from '../session';
import { useAsync } from '../use-async';

const PAGE_SIZE = 20;

/** The filters a facet sets, by the query-string key the API and the address share. */
const FACETS: { key: keyof SearchFacets; param: string; title: string }[] = [
  { key: 'kind', param: 'kind', title: 'Kind' },
  { key: 'system', param: 'system_id', title: 'System' },
  { key: 'flavor', param: 'flavor', title: 'Flavor' },
  { key: 'pii_tag', param: 'pii', title: 'PII tag' },
  { key: 'has_lineage', param: 'has_lineage', title: 'Lineage' },
];
const PARAMS = ['q', 'page', ...FACETS.map((f) => f.param)];

const LINEAGE_TEXT: Record<string, string> = { true: 'has lineage', false: 'no lineage' };
const facetText = (key: keyof SearchFacets, c: SearchFacetCount) => {
  if (key === 'has_lineage') return LINEAGE_TEXT[c.value] ?? c.value;
  if (key === 'kind') return c.value === 'field' ? 'column' : c.value;
  return c.label ?? c.value;
};

/** The search page's address for `params` (empty values left out). */
export function searchPath(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const key of PARAMS) {
    const value = params[key];
    if (value) query.set(key, value);
  }
  return `/search?${query.toString()}`;
}

/** The API's search parameters from the address's (unknown or malformed ones left out). */
export function searchParamsOf(query: URLSearchParams): SearchParams {
  const get = (k: string) => query.get(k) || undefined;
  const kind = get('kind')
    ?.split(',')
    .filter((k): k is SearchKind => (SEARCH_KINDS as readonly string[]).includes(k));
  const pii = get('pii');
  const lineage = get('has_lineage');
  return {
    q: get('q') ?? '',
    ...(kind && kind.length > 0 ? { kind } : {}),
    ...(get('system_id') ? { system_id: get('system_id') } : {}),
    ...(get('flavor') ? { flavor: [get('flavor') as string] } : {}),
    ...(pii ? { pii: pii === ANY_PII_TAG ? ANY_PII_TAG : [pii] } : {}),
    ...(lineage === 'true' || lineage === 'false' ? { has_lineage: lineage === 'true' } : {}),
    page: Math.max(1, Number(get('page')) || 1),
    size: PAGE_SIZE,
  };
}

/**
 * Where a result leads: a column to its dataset's page with that row highlighted (`?column=`), the
 * others as the search box leads them.
 */
export function fullResultPath(r: SearchResult): string {
  return r.kind === 'field' && r.dataset_id ? `/datasets/${r.dataset_id}?column=${r.id}` : resultPath(r);
}

/** `/search?q=…`: every ranked result, paged, with facet counts that filter, and highlighted matches. */
export function SearchPage() {
  const { client } = useSession();
  const query = useQueryParams();
  const current = Object.fromEntries(PARAMS.map((k) => [k, query.get(k) ?? undefined]));
  const params = searchParamsOf(query);
  const [text, setText] = useState(params.q);
  useEffect(() => setText(params.q), [params.q]);
  const key = JSON.stringify(params);
  const hasWords = /[\p{L}\p{N}]/u.test(params.q);
  const [page] = useAsync(async () => (hasWords ? client.searchWithFacets(params) : null), [key, client]);
  const go = (changes: Record<string, string | undefined>) =>
    navigate(searchPath({ ...current, page: undefined, ...changes }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go({ q: text.trim() });
  };
  const filtered = FACETS.some((f) => current[f.param]);
  return (
    <section className="search-page">
      <PageHeading title={params.q ? `Search: ${params.q}` : 'Search'} />
      <form role="search" aria-label="Search page" className="toolbar" onSubmit={submit}>
        <label>
          Search the catalogue <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit">Search</button>
        {filtered && (
          <button
            type="button"
            className="link"
            onClick={() => go(Object.fromEntries(FACETS.map((f) => [f.param, undefined])))}
          >
            Clear filters
          </button>
        )}
      </form>
      {!hasWords ? (
        <p>Type a word, a prefix or a name to search systems, datasets and columns.</p>
      ) : (
        <Loaded value={page}>
          {(p) =>
            p && (
              <div className="search-layout">
                <aside aria-label="Filters" className="facets">
                  {FACETS.map((f) => (
                    <Facet
                      key={f.key}
                      title={f.title}
                      counts={p.facets?.[f.key] ?? []}
                      selected={current[f.param]}
                      label={(c) => facetText(f.key, c)}
                      onPick={(value) => go({ [f.param]: value })}
                    />
                  ))}
                </aside>
                <div className="search-hits">
                  <p aria-live="polite">
                    {p.total === 0
                      ? 'No result.'
                      : `${p.total} result${p.total === 1 ? '' : 's'}${p.items[0]?.match === 'similar' ? ' of similar spelling' : ''}.`}
                  </p>
                  <Results items={p.items} start={(p.page - 1) * p.size + 1} />
                  {p.pages > 1 && (
                    <Pager
                      page={p.page}
                      pages={p.pages}
                      total={p.total}
                      onPage={(n) => navigate(searchPath({ ...current, page: String(n) }))}
                    />
                  )}
                </div>
              </div>
            )
          }
        </Loaded>
      )}
    </section>
  );
}

/** A facet's values with their counts; the selected one is shown pressed and removes its filter. */
function Facet(props: {
  title: string;
  counts: readonly SearchFacetCount[];
  selected: string | undefined;
  label: (c: SearchFacetCount) => string;
  onPick: (value: string | undefined) => void;
}) {
  if (props.counts.length === 0 && !props.selected) return null;
  return (
    <section className="facet">
      <h2>{props.title}</h2>
      <ul>
        {props.counts.map((c) => {
          const on = props.selected === c.value;
          return (
            <li key={c.value}>
              <button
                type="button"
                className="link"
                aria-pressed={on}
                onClick={() => props.onPick(on ? undefined : c.value)}
              >
                {props.label(c)} <span className="count">({c.count})</span>
              </button>
            </li>
          );
        })}
        {props.selected && !props.counts.some((c) => c.value === props.selected) && (
          <li>
            <button type="button" className="link" aria-pressed onClick={() => props.onPick(undefined)}>
              {props.selected} <span className="count">(0)</span>
            </button>
          </li>
        )}
      </ul>
    </section>
  );
}

function Results({ items, start }: { items: readonly SearchResult[]; start: number }) {
  if (items.length === 0) return null;
  return (
    <ol className="search-hit-list" start={start}>
      {items.map((r) => (
        <li key={`${r.kind}:${r.id}`}>
          <span className="badge">{r.kind === 'field' ? 'column' : r.kind}</span>{' '}
          <Link to={fullResultPath(r)} className="entity-name">
            <Highlight
              segments={
                r.highlight.field === 'name' ? r.highlight.segments : [{ text: r.name, match: false }]
              }
            />
          </Link>
          <div className="muted small">
            {r.path}
            {r.pii_tags && r.pii_tags.length > 0 ? ` · PII: ${r.pii_tags.join(', ')}` : ''}
            {r.match === 'similar' ? ' · similar spelling' : ''}
          </div>
          {r.highlight.field !== 'name' && (
            <div className="small">
              {r.highlight.field === 'comment'
                ? 'Comment'
                : r.highlight.field === 'path'
                  ? 'Path'
                  : 'PII tags'}
              : <Highlight segments={r.highlight.segments} />
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
