import { z } from 'zod';

/** Filter operators of the list contract: `key`, `key__gt|__gte|__lt|__lte|__in|__like`. */
export type FilterOp = 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'like';

export type FilterValueType = 'string' | 'uuid' | 'boolean' | 'datetime' | 'int';

export interface FilterSpec {
  readonly type: FilterValueType;
  readonly ops: readonly FilterOp[];
  /** For enum-like string columns: the allowed values. */
  readonly values?: readonly string[];
}

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
}

/** A parsed list query, ready for the repository. */
export interface ListQuery {
  readonly page: number;
  readonly size: number;
  readonly sort: readonly SortTerm[];
  readonly filters: readonly FilterTerm[];
  readonly include_deleted: boolean;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

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
      return spec.values
        ? z.enum(spec.values as [string, ...string[]])
        : z
            .string()
            .max(255)
            .refine((v) => !NUL.test(v), { message: 'must not contain NUL characters' });
  }
}

function filterSchema(spec: FilterSpec, op: FilterOp): z.ZodType {
  const scalar = scalarSchema(spec);
  if (op === 'in') {
    return z
      .string()
      .max(4000)
      .transform((v) =>
        v
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      )
      .pipe(z.array(scalar).min(1).max(100));
  }
  if (op === 'like') {
    return z
      .string()
      .min(1)
      .max(255)
      .refine((v) => !NUL.test(v), { message: 'must not contain NUL characters' });
  }
  return scalar;
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

/**
 * The query-string schema of a collection: `page`, `size`, `sort`, `include_deleted` (soft-delete
 * collections) and the declared filters. Unknown keys are rejected; the output is a `ListQuery`.
 */
export function listQuerySchema(spec: ListSpec) {
  const shape: Record<string, z.ZodType> = {
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    sort: z.string().max(500).optional(),
  };
  if (spec.softDelete) {
    shape['include_deleted'] = z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional();
  }
  const filterKeys: { key: string; field: string; op: FilterOp }[] = [];
  for (const [field, filter] of Object.entries(spec.filters)) {
    for (const op of filter.ops) {
      const key = queryKey(field, op);
      shape[key] = filterSchema(filter, op).optional();
      filterKeys.push({ key, field, op });
    }
  }
  return z.strictObject(shape).transform((raw, ctx): ListQuery => {
    const filters: FilterTerm[] = [];
    for (const { key, field, op } of filterKeys) {
      const value = raw[key];
      if (value !== undefined) filters.push({ field, op, value: value as FilterTerm['value'] });
    }
    return {
      page: raw['page'] as number,
      size: raw['size'] as number,
      sort: parseSort(raw['sort'] as string | undefined, spec, ctx),
      filters,
      include_deleted: (raw['include_deleted'] as boolean | undefined) ?? false,
    };
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

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

/** Batch create bodies: `{items: [...]}`, 1..500 items, all-or-nothing. */
export const MAX_BATCH_SIZE = 500;

export function batchOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item).min(1).max(MAX_BATCH_SIZE) });
}

export function batchResultOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), count: z.int() });
}
