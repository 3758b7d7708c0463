import { z } from 'zod';
import { checkPageDepth, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageOf, pageParam } from '../common/list-query.js';

export const SEARCH_KINDS = ['system', 'dataset', 'field'] as const;
export const SearchKindSchema = z.enum(SEARCH_KINDS);
export type SearchKind = z.infer<typeof SearchKindSchema>;

/** Longest search text, in characters (after trimming). */
export const MAX_SEARCH_LENGTH = 200;
/** Words of the search text used for full-text matching; the rest only count for similarity. */
export const MAX_SEARCH_WORDS = 10;
/** `pii=*`: fields with any current PII tag. */
export const ANY_PII_TAG = '*';

/**
 * The words of a search text as the index sees them: runs of letters and digits, lower-cased, each once
 * (a repeated word would only probe the index again for the same rows).
 */
export function searchWords(q: string): string[] {
  return [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

const NUL = /\u0000/;

const commaList = <T extends z.ZodType<string, string>>(item: T, max: number) =>
  z
    .string()
    .max(4000)
    .transform((v) => v.split(','))
    .pipe(z.array(item).min(1).max(max))
    .refine((items) => new Set(items).size === items.length, { message: 'must not repeat a value' });

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/**
 * `GET /search` query string. `q` is 1..200 characters with at least one letter or digit; `kind` a
 * comma list (default: every kind); `pii` restricts the results to fields whose current PII tags
 * include one of the given tags (`*`: any tag); `flavor` to the systems, datasets and fields of those
 * flavors (a dataset's own flavor, else its system's); `has_lineage` to the datasets (and their fields)
 * that are, or are not, the source or target of a dataset link; `facets=true` adds the facet counts.
 */
export const SearchQuerySchema = z
  .strictObject({
    q: z
      .string()
      .trim()
      .min(1, { message: 'must not be empty' })
      .max(MAX_SEARCH_LENGTH)
      .refine((v) => !NUL.test(v), { message: 'must not contain NUL characters' })
      .refine((v) => searchWords(v).length > 0, { message: 'must contain a letter or a digit' })
      .describe('Search text: words, prefixes, misspelt names'),
    kind: commaList(SearchKindSchema, SEARCH_KINDS.length)
      .optional()
      .describe(`Comma list of ${SEARCH_KINDS.join(', ')} (default: all)`),
    system_id: z.uuid().optional(),
    pii: commaList(z.string().min(1).max(100), 50)
      .optional()
      .describe('Comma list of PII tags (any of them), or `*` for any tag: fields only'),
    flavor: commaList(z.string().min(1).max(100), 20)
      .optional()
      .describe("Comma list of flavor codes (any of them): a dataset's own flavor, else its system's"),
    has_lineage: flag
      .optional()
      .describe('Only datasets and fields whose dataset is (true) or is not (false) in a dataset link'),
    facets: flag
      .default(false)
      .describe('Add `facets`: the counts of the ranked results by kind, system, flavor, PII tag, lineage'),
    page: pageParam(),
    size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  })
  .superRefine((v, ctx) => {
    // A search ranks at most a few thousand candidates (ADR 0016): deeper pages are empty anyway.
    checkPageDepth(v, ctx, 'narrow the search');
    if (v.pii && v.kind && !v.kind.includes('field')) {
      ctx.addIssue({ code: 'custom', path: ['pii'], message: 'pii filters fields: kind must include field' });
    }
    if (v.has_lineage !== undefined && v.kind && !v.kind.some((k) => k !== 'system')) {
      const message = 'has_lineage filters datasets and fields: kind must include one of them';
      ctx.addIssue({ code: 'custom', path: ['has_lineage'], message });
    }
    if (v.pii && v.pii.includes(ANY_PII_TAG) && v.pii.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['pii'], message: `${ANY_PII_TAG} stands alone` });
    }
  })
  .transform((v) => ({
    q: v.q,
    kinds: v.pii
      ? (['field'] as SearchKind[])
      : (v.kind ?? [...SEARCH_KINDS]).filter((k) => v.has_lineage === undefined || k !== 'system'),
    system_id: v.system_id,
    pii: v.pii === undefined ? undefined : v.pii[0] === ANY_PII_TAG ? ('any' as const) : v.pii,
    flavors: v.flavor,
    has_lineage: v.has_lineage,
    facets: v.facets,
    page: v.page,
    size: v.size,
  }))
  .meta({ id: 'SearchQuery' });
export type SearchQuery = z.output<typeof SearchQuerySchema>;

/** What the SDK sends: arrays are joined with commas. */
export interface SearchParams {
  q: string;
  kind?: SearchKind | readonly SearchKind[] | undefined;
  system_id?: string | undefined;
  /** PII tags (any of them), or `'*'` for any tag. */
  pii?: typeof ANY_PII_TAG | readonly string[] | undefined;
  /** Flavor codes (any of them). */
  flavor?: readonly string[] | undefined;
  has_lineage?: boolean | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/** How a result matched, best first: the rank orders by this, then by text relevance and similarity. */
export const SEARCH_MATCHES = ['exact', 'prefix', 'text', 'pii_tag', 'similar'] as const;
export const SearchMatchSchema = z.enum(SEARCH_MATCHES);

/**
 * The matched text cut into segments; `match: true` marks the parts that matched the query. Plain
 * text only, never markup: render each segment as a text node (e.g. `<mark>` around matched ones).
 */
export const SearchHighlightSchema = z
  .object({
    field: z.enum(['name', 'path', 'comment', 'pii_tags']).describe('The attribute the text comes from'),
    segments: z.array(z.object({ text: z.string(), match: z.boolean() })),
  })
  .meta({ id: 'SearchHighlight' });
export type SearchHighlight = z.infer<typeof SearchHighlightSchema>;

export const SearchResultSchema = z
  .object({
    kind: SearchKindSchema,
    id: z.uuid(),
    name: z.string().describe('System code, dataset object name or field name'),
    path: z.string().describe('Display path: `system / dataset / field`'),
    system_id: z.uuid(),
    dataset_id: z.uuid().nullable().describe('The dataset of a dataset or field result'),
    match: SearchMatchSchema,
    score: z.number(),
    highlight: SearchHighlightSchema,
    pii_tags: z
      .array(z.string())
      .nullable()
      .describe("A field's current PII tags; null for systems, datasets and fields never classified"),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResultSchema>;

/** One value of a facet and how many ranked results have it. */
export const SearchFacetCountSchema = z
  .object({
    value: z.string().describe('The value to filter by (a system id, a flavor code, a tag, `true`/`false`)'),
    label: z.string().nullable().describe("A system's code and name; null for the other facets"),
    count: z.int().min(0),
  })
  .meta({ id: 'SearchFacetCount' });
export type SearchFacetCount = z.infer<typeof SearchFacetCountSchema>;

/**
 * The ranked results counted by facet, most first (`facets=true`). They count what `total` counts: the
 * ranked candidates under the query's filters (ADR 0059). `has_lineage` counts datasets and fields only.
 */
export const SearchFacetsSchema = z
  .object({
    kind: z.array(SearchFacetCountSchema),
    system: z.array(SearchFacetCountSchema),
    flavor: z.array(SearchFacetCountSchema),
    pii_tag: z.array(SearchFacetCountSchema),
    has_lineage: z.array(SearchFacetCountSchema),
  })
  .meta({ id: 'SearchFacets' });
export type SearchFacets = z.infer<typeof SearchFacetsSchema>;

export const SearchPageSchema = pageOf(SearchResultSchema)
  .extend({ facets: SearchFacetsSchema.optional().describe('With `facets=true`') })
  .meta({ id: 'SearchPage' });
export type SearchPage = z.infer<typeof SearchPageSchema>;
