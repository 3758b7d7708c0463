import { z } from 'zod';

/** Filter operators of the list contract: `key`, `key__gt|__gte|__lt|__lte|__in|__like`. */
export type FilterOp = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'like';

export type FilterValueType = 'string' | 'uuid' | 'boolean' | 'datetime' | 'int';

/** A filter on the collection's column of the same name (the default kind). */
export interface ColumnFilterSpec {
  readonly kind?: 'column';
  readonly type: FilterValueType;
  readonly ops: readonly FilterOp[];
  /** For enum-like string columns: the allowed values. */
  readonly values?: readonly string[];
  /** What the filter means, when its name does not say it (the OpenAPI parameter's description). */
  readonly description?: string;
}

/**
 * A filter on something the collection's rows are related to rather than on one of their columns:
 * the rows related to the value (`key`) or to any of the values (`key__in`). The backend declares the
 * relation (a link table of row id and value); the declaration here says what it means, for the
 * OpenAPI document. It cannot be sorted by.
 */
export interface RelatedFilterSpec {
  readonly kind: 'related';
  readonly type: Exclude<FilterValueType, 'boolean' | 'datetime'>;
  readonly ops: readonly ('eq' | 'in')[];
  readonly description: string;
}

export type FilterSpec = ColumnFilterSpec | RelatedFilterSpec;

/** What a collection can be filtered and sorted by. Keys are wire names, equal to column names. */
export interface ListSpec {
  readonly filters: Readonly<Record<string, FilterSpec>>;
  readonly sortable: readonly string[];
  /** e.g. `code` or `-created_at` */
  readonly defaultSort: string;
  readonly softDelete: boolean;
}

export interface SortTerm {
  readonly field: string;
  readonly direction: 'ASC' | 'DESC';
}

export interface FilterTerm {
  readonly field: string;
  readonly op: FilterOp;
  readonly value: string | number | boolean | readonly (string | number | boolean)[];
  /** Set for a `related` filter (RelatedFilterSpec): the backend applies its declared relation. */
  readonly related?: true;
}

/**
 * How a page counts its collection (ADR 0024): `exact` counts every matching row (the default);
 * `estimate` is exact on the last page and the planner's row estimate before it; `none` counts nothing,
 * `total` and `pages` are then lower bounds (the rows up to this page, plus one when more follow).
 */
export const TOTAL_MODES = ['exact', 'estimate', 'none'] as const;
export type TotalMode = (typeof TOTAL_MODES)[number];

/** A parsed list query, ready for the repository. */
export interface ListQuery {
  readonly page: number;
  readonly size: number;
  readonly sort: readonly SortTerm[];
  readonly filters: readonly FilterTerm[];
  readonly include_deleted: boolean;
  /** Absent: `exact`. */
  readonly total?: TotalMode;
  /** Keyset paging: the `next_cursor` of the previous page (opaque; decoded by the server). */
  readonly cursor?: string;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/**
 * The rows a `page` may skip, (page − 1) × size: an offset page reads and throws away every row
 * before it, so its cost grows with its depth (ADR 0034). A deeper page is 422 VALIDATION_ERROR, the
 * issue on `page` naming the deepest page (`params.max_page`) and this limit (`params.max_offset`); a
 * collection (`listQuerySchema`) pages further with `cursor`, a search is narrowed.
 */
export const MAX_PAGE_OFFSET = 10_000;

/** `page` of an offset-paged query; checked against MAX_PAGE_OFFSET by `checkPageDepth`. */
export const pageParam = () =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1)
    .describe(`Page number from 1; a page may skip at most ${MAX_PAGE_OFFSET} rows ((page − 1) × size)`);

/** Adds the issue of a page deeper than MAX_PAGE_OFFSET, if it is one. */
export function checkPageDepth(
  { page, size }: { page: number; size: number },
  ctx: z.RefinementCtx,
  further = 'narrow the filters',
): void {
  if ((page - 1) * size <= MAX_PAGE_OFFSET) return;
  const maxPage = Math.floor(MAX_PAGE_OFFSET / size) + 1;
  ctx.addIssue({
    code: 'custom',
    path: ['page'],
    message: `must be at most ${maxPage} with size ${size}: a page may skip at most ${MAX_PAGE_OFFSET} rows (${further})`,
    params: { max_page: maxPage, max_offset: MAX_PAGE_OFFSET },
  });
}

const NUL = /\u0000/;

function scalarSchema(spec: FilterSpec): z.ZodType<string | number | boolean, string> {
  switch (spec.type) {
    case 'uuid':
      return z.uuid();
    case 'boolean':
      return z.enum(['true', 'false']).transform((v) => v === 'true');
    case 'datetime':
      return z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()]);
    case 'int':
      return z
        .string()
        .regex(/^-?\d{1,10}$/, { message: 'must be an integer' })
        .transform(Number)
        .pipe(z.int().min(-2147483648).max(2147483647));
    case 'string':
      return spec.kind !== 'related' && spec.values
        ? z.enum(spec.values as [string, ...string[]])
        : z
            .string()
            .max(255)
            .refine((v) => !NUL.test(v), { message: 'must not contain NUL characters' });
  }
}

/** The values an `__in` filter takes at most. */
export const MAX_IN_LIST = 100;

/** A comma-separated list as `__in` filters read it: trimmed, empty items dropped, 1..`max` items. */
export function inListSchema<T extends z.ZodType<unknown, string>>(scalar: T, max = MAX_IN_LIST) {
  return z
    .string()
    .max(4000)
    .transform((v) =>
      v
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    )
    .pipe(z.array(scalar).min(1).max(max));
}

function filterSchema(spec: FilterSpec, op: FilterOp): z.ZodType {
  const scalar = scalarSchema(spec);
  if (op === 'in') return inListSchema(scalar);
  if (op === 'like') {
    return z
      .string()
      .min(1)
      .max(255)
      .refine((v) => !NUL.test(v), { message: 'must not contain NUL characters' });
  }
  return scalar;
}

/** A filter parameter's description in the OpenAPI document, from its declaration's (absent: none). */
function filterDescription(spec: FilterSpec, op: FilterOp): string | undefined {
  if (spec.description === undefined) return undefined;
  return op === 'in' ? `${spec.description} — any of the comma-separated values` : spec.description;
}

/** A declaration the query schema cannot serve is a programming error, thrown when the schema is built. */
function checkRelatedFilter(field: string, spec: RelatedFilterSpec, list: ListSpec): void {
  const bad = spec.ops.filter((op) => op !== 'eq' && op !== 'in');
  if (bad.length > 0)
    throw new Error(`related filter '${field}' takes eq and in only, not ${bad.join(', ')}`);
  if (list.sortable.includes(field)) throw new Error(`related filter '${field}' is not a column to sort by`);
}

function queryKey(field: string, op: FilterOp): string {
  return op === 'eq' ? field : `${field}__${op}`;
}

function parseSort(raw: string | undefined, spec: ListSpec, ctx: z.RefinementCtx): SortTerm[] {
  const source = raw && raw.trim() !== '' ? raw : spec.defaultSort;
  const terms: SortTerm[] = [];
  for (const item of source.split(',')) {
    const token = item.trim();
    if (token === '') continue;
    const descending = token.startsWith('-');
    const field = descending ? token.slice(1) : token;
    if (!spec.sortable.includes(field) && field !== 'id') {
      ctx.addIssue({
        code: 'custom',
        path: ['sort'],
        message: `Cannot sort by '${field}'. Allowed: ${[...spec.sortable].sort().join(', ')}`,
      });
      continue;
    }
    terms.push({ field, direction: descending ? 'DESC' : 'ASC' });
  }
  return terms;
}

/** The sort terms a page is ordered by: the requested ones, then `id` ascending unless sorted by it. */
export function withIdTiebreak(sort: readonly SortTerm[]): SortTerm[] {
  return sort.some((t) => t.field === 'id') ? [...sort] : [...sort, { field: 'id', direction: 'ASC' }];
}

/** `-created_at,id`: the sort terms as written in a query string (a cursor is bound to it). */
export function sortKey(sort: readonly SortTerm[]): string {
  return sort.map((t) => `${t.direction === 'DESC' ? '-' : ''}${t.field}`).join(',');
}

const MAX_CURSOR_LENGTH = 2000;

/**
 * The query-string schema of a collection: `page`, `size`, `sort`, `include_deleted` (soft-delete
 * collections), the declared filters, then `cursor` and `total` (ADR 0024, amendment: every collection
 * pages by keyset, on any of its sorts). Unknown keys are rejected; the output is a `ListQuery`.
 */
export function listQuerySchema(spec: ListSpec) {
  const shape: Record<string, z.ZodType> = {
    page: pageParam(),
    size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    sort: z.string().max(500).optional(),
  };
  if (spec.softDelete) {
    shape['include_deleted'] = z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional();
  }
  const filterKeys: { key: string; field: string; op: FilterOp; related: boolean }[] = [];
  for (const [field, filter] of Object.entries(spec.filters)) {
    if (filter.kind === 'related') checkRelatedFilter(field, filter, spec);
    for (const op of filter.ops) {
      const key = queryKey(field, op);
      const param = filterSchema(filter, op).optional();
      const description = filterDescription(filter, op);
      shape[key] = description === undefined ? param : param.describe(description);
      filterKeys.push({ key, field, op, related: filter.kind === 'related' });
    }
  }
  // After the filters: the query parameters of older clients keep their positions.
  shape['cursor'] = z
    .string()
    .max(MAX_CURSOR_LENGTH)
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'must be a next_cursor of a previous page' })
    .optional()
    .describe(
      'Keyset paging: the `next_cursor` of the previous page, with the same sort and filters (`page` stays 1). Costs the same on every page, and has no depth limit.',
    );
  shape['total'] = z
    .enum(TOTAL_MODES)
    .optional()
    .describe(
      "`exact` (default) counts every matching row; `estimate`: exact on the last page, the planner's estimate before it; `none`: no count, `total` and `pages` are lower bounds.",
    );
  return z.strictObject(shape).transform((raw, ctx): ListQuery => {
    const filters: FilterTerm[] = [];
    for (const { key, field, op, related } of filterKeys) {
      const value = raw[key];
      if (value === undefined) continue;
      const term: FilterTerm = { field, op, value: value as FilterTerm['value'] };
      filters.push(related ? { ...term, related: true } : term);
    }
    const query: ListQuery = {
      page: raw['page'] as number,
      size: raw['size'] as number,
      sort: parseSort(raw['sort'] as string | undefined, spec, ctx),
      filters,
      include_deleted: (raw['include_deleted'] as boolean | undefined) ?? false,
    };
    checkPageDepth(query, ctx, 'page further with cursor');
    const cursor = raw['cursor'] as string | undefined;
    const total = raw['total'] as TotalMode | undefined;
    if (cursor === undefined) return total ? { ...query, total } : query;
    if (query.page !== 1) {
      ctx.addIssue({ code: 'custom', path: ['page'], message: 'must be 1 (or absent) with a cursor' });
    }
    return { ...query, ...(total ? { total } : {}), cursor };
  });
}

/** The page envelope of every collection: `{items, total, page, size, pages}`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.int().min(0),
    page: z.int().min(1),
    size: z.int().min(1),
    pages: z.int().min(0),
  });
}

/** The page of a collection (`listQuerySchema`): the envelope plus `next_cursor` for clients that ask. */
export function keysetPageOf<T extends z.ZodType>(item: T) {
  return pageOf(item).extend({
    next_cursor: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Present when the request names `cursor` or `total`: pass as `cursor` for the next page (keyset paging); null on the last page',
      ),
  });
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
  pages: number;
  /** Collections (`keysetPageOf`), when the request names `cursor` or `total`. */
  next_cursor?: string | null;
}

/** Batch create bodies: `{items: [...]}`, 1..500 items, all-or-nothing. */
export const MAX_BATCH_SIZE = 500;

export function batchOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item).min(1).max(MAX_BATCH_SIZE) });
}

export function batchResultOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), count: z.int() });
}
