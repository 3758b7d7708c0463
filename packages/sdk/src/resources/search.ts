import { contract, type SearchPage, type SearchParams, type SearchResult } from '@aide/schemas';
import { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from '../internal/api.js';

/**
 * `GET /api/v1/search`: systems, datasets and fields ranked by how they match `q` (exact name, name
 * prefix, word, PII tag, similar spelling). Await it for one page, or iterate it with `for await` for
 * every result of this page and the following ones.
 *
 * ```ts
 * const page = await client.search({ q: 'custmer', kind: ['field'], size: 20 });
 * for await (const hit of client.search({ q: 'email', pii: '*' })) console.log(hit.path);
 * ```
 */
export function search(
  api: ApiClient,
  params: SearchParams,
  options?: RequestOptions,
): PagePromise<SearchResult> {
  const { page, ...query } = params;
  return new PagePromise(
    (n) => api.invoke(contract.search.search, { query: { ...query, page: n }, options }),
    page ?? 1,
  );
}

/**
 * One page of `GET /api/v1/search` with its facet counts (`facets=true`): the ranked results counted by
 * kind, system, flavor, PII tag and lineage, under the same filters, for a search page's facets.
 */
export function searchWithFacets(
  api: ApiClient,
  params: SearchParams,
  options?: RequestOptions,
): Promise<SearchPage> {
  return api.invoke(contract.search.search, { query: { ...params, facets: true }, options });
}
