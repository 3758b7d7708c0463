import {
  sortKey,
  withIdTiebreak,
  type FilterTerm,
  type ListQuery,
  type Page,
  type SortTerm,
} from '@aide/schemas';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { validationError } from '../errors/app-error.js';

/** Escapes `\`, `%` and `_` for a LIKE pattern written with `ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * How a `related` filter (RelatedFilterSpec in the ListSpec) reaches the collection's rows: a link
 * table holding one row per (collection row `id`, related value) — `rowKey` and `column`. It should
 * have an index leading with `column`: the filter is then an index read and a semi-join by id.
 */
export interface FilterRelation {
  readonly table: string;
  readonly rowKey: string;
  readonly column: string;
}

/** The relations of a collection's `related` filters, by filter name. */
export type FilterRelations = Readonly<Record<string, FilterRelation>>;

/** `EXISTS` a link row of the collection's row with the value (`eq`) or one of the values (`in`). */
function relatedCondition(
  relation: FilterRelation,
  alias: string,
  filter: FilterTerm,
  param: string,
): string {
  const link = `${alias}_${param}`;
  const value = filter.op === 'in' ? `IN (:...${param})` : `= :${param}`;
  return `EXISTS (SELECT 1 FROM ${relation.table} ${link} WHERE ${link}.${relation.rowKey} = ${alias}.id AND ${link}.${relation.column} ${value})`;
}

/**
 * Applies parsed filters. Field names come from the resource's ListSpec (validated by the query
 * schema), never from raw input, so interpolating them as column names is safe; values are bound. A
 * `related` term goes through its relation in `relations`, declared by the collection's repository.
 */
export function applyFilters<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  alias: string,
  filters: readonly FilterTerm[],
  relations: FilterRelations = {},
): void {
  filters.forEach((filter, i) => {
    const column = `${alias}.${filter.field}`;
    const param = `f${i}`;
    if (filter.related) {
      const relation = relations[filter.field];
      // A ListSpec declaring a related filter whose repository declares no relation: a programming error.
      if (!relation) throw new Error(`No relation is declared for the related filter '${filter.field}'`);
      qb.andWhere(relatedCondition(relation, alias, filter, param), { [param]: filter.value });
      return;
    }
    switch (filter.op) {
      case 'eq':
        qb.andWhere(`${column} = :${param}`, { [param]: filter.value });
        break;
      case 'gt':
        qb.andWhere(`${column} > :${param}`, { [param]: filter.value });
        break;
      case 'gte':
        qb.andWhere(`${column} >= :${param}`, { [param]: filter.value });
        break;
      case 'lt':
        qb.andWhere(`${column} < :${param}`, { [param]: filter.value });
        break;
      case 'lte':
        qb.andWhere(`${column} <= :${param}`, { [param]: filter.value });
        break;
      case 'in':
        qb.andWhere(`${column} IN (:...${param})`, { [param]: filter.value });
        break;
      case 'like':
        // lower() LIKE lower() is what ILIKE does, written so that a trigram index on lower(column)
        // (ix_datasets_name_trgm, ix_fields_name_trgm) can answer it.
        qb.andWhere(`lower(${column}) LIKE lower(:${param}) ESCAPE '\\'`, {
          [param]: `%${escapeLike(String(filter.value))}%`,
        });
        break;
    }
  });
}

/** Applies the sort terms, then `id` so that pages are stable. */
export function applySort<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  alias: string,
  sort: readonly SortTerm[],
): void {
  let first = true;
  for (const term of sort) {
    if (first) qb.orderBy(`${alias}.${term.field}`, term.direction);
    else qb.addOrderBy(`${alias}.${term.field}`, term.direction);
    first = false;
  }
  if (!sort.some((t) => t.field === 'id')) {
    if (first) qb.orderBy(`${alias}.id`, 'ASC');
    else qb.addOrderBy(`${alias}.id`, 'ASC');
  }
}

export function mapPage<E, R>(page: Page<E>, map: (item: E) => R): Page<R> {
  return { ...page, items: page.items.map(map) };
}

/** The opaque `next_cursor` of a page: its sort, then the last row's sort values (as text, or null) and id. */
function encodeCursor(sort: readonly SortTerm[], values: readonly (string | null)[]): string {
  return Buffer.from(JSON.stringify([sortKey(sort), ...values]), 'utf8').toString('base64url');
}

/** The values of a `next_cursor` of a page with this sort (`terms` includes the id tiebreak). */
function decodeCursor(cursor: string, terms: readonly SortTerm[]): (string | null)[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== terms.length + 1 ||
    decoded[0] !== sortKey(terms) ||
    decoded.at(-1) === null ||
    !decoded.every((v) => v === null || (typeof v === 'string' && !v.includes('\u0000')))
  ) {
    throw validationError(
      [{ path: ['cursor'], message: 'must be a next_cursor of a previous page with the same sort' }],
      'The query string is invalid.',
    );
  }
  return (decoded as (string | null)[]).slice(1);
}

/**
 * Rows after the cursor's row in the order of `terms` (PostgreSQL's: NULLs last ascending, first
 * descending). The leading terms that share the first term's direction, on NOT NULL columns, are
 * compared as one row value — `(t1, t2) > (v1, v2)` (`<` when descending) — which a b-tree index on
 * those columns answers with a seek, so a cursor page is an index range read even when the first sort
 * value repeats over many rows (`kind`, `layer`). When that covers every term it is the whole
 * condition; otherwise it is the prefix's `>=` (when there is one), and the rest is spelled out:
 * (t1 after v1) OR (t1 same as v1 AND t2 after v2) OR …, where "same" of a NULL is `IS NULL` and
 * "after" knows where NULLs sort.
 */
function applyAfter<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  alias: string,
  terms: readonly SortTerm[],
  values: readonly (string | null)[],
): void {
  const metadata = qb.expressionMap.mainAlias?.metadata;
  const nullable = terms.map((t) => metadata?.findColumnWithPropertyName(t.field)?.isNullable ?? true);
  const params: Record<string, string> = {};
  values.forEach((v, i) => {
    if (v !== null) params[`k${i}`] = v;
  });
  const col = (i: number) => `${alias}.${terms[i]?.field}`;
  const descending = (i: number) => terms[i]?.direction === 'DESC';
  const op = (i: number, strict: boolean) => (descending(i) ? '<' : '>') + (strict ? '' : '=');
  const same = (i: number) => (values[i] === null ? `${col(i)} IS NULL` : `${col(i)} = :k${i}`);
  const after = (i: number) => {
    if (values[i] === null) return descending(i) ? `${col(i)} IS NOT NULL` : 'FALSE';
    const beyond = `${col(i)} ${op(i, true)} :k${i}`;
    return nullable[i] && !descending(i) ? `(${beyond} OR ${col(i)} IS NULL)` : beyond;
  };
  let run = 0;
  while (
    run < terms.length &&
    terms[run]?.direction === terms[0]?.direction &&
    !nullable[run] &&
    values[run] !== null
  ) {
    run++;
  }
  const prefix = (n: number) => Array.from({ length: n }, (_, i) => i);
  const seek = (n: number, strict: boolean) =>
    `(${prefix(n).map(col).join(', ')}) ${op(0, strict)} (${prefix(n)
      .map((i) => `:k${i}`)
      .join(', ')})`;
  if (run === terms.length) {
    qb.andWhere(seek(run, true), params);
    return;
  }
  if (run > 0) qb.andWhere(seek(run, false), params);
  const branches = terms.map((_, i) => [...prefix(i).map(same), after(i)].join(' AND '));
  qb.andWhere(`(${branches.join(' OR ')})`, params);
}

/**
 * A page of a collection (ADR 0024). `filtered` is the collection's query with its alias, soft-delete
 * clause and filters applied. Without `load`, the page's rows are read from it directly; with `load`
 * (rows read with joins), the page's ids are found first on the parent table alone, in sort order from
 * an index, then `load` reads those rows with their joins in one query. `size + 1` rows are read (the
 * extra one says whether more follow). `cursor` pages seek (keyset; no depth limit), `page` pages skip
 * `offset` rows, and the count is what `query.total` asks for: `exact` (default) counts the matching
 * rows, `estimate` asks the planner (exact on the last page), `none` counts nothing (`total`, `pages`
 * are then lower bounds). `next_cursor` is answered only to requests that name `cursor` or `total`:
 * the answer of any other request is the envelope it always was.
 */
export async function fetchKeysetPage<E extends ObjectLiteral>(
  filtered: SelectQueryBuilder<E>,
  alias: string,
  query: ListQuery,
  load?: (ids: SelectQueryBuilder<E>) => SelectQueryBuilder<E>,
): Promise<Page<E>> {
  const terms = withIdTiebreak(query.sort);
  const window = filtered.clone();
  if (query.cursor) applyAfter(window, alias, terms, decodeCursor(query.cursor, terms));
  applySort(window, alias, query.sort);
  const offset = query.cursor ? 0 : (query.page - 1) * query.size;
  window.offset(offset).limit(query.size + 1);
  let rows = window;
  if (load) {
    rows = load(window.select(`${alias}.id`));
    applySort(rows, alias, query.sort);
  }
  terms.forEach((t, i) => rows.addSelect(`${alias}.${t.field}::text`, `cursor_k${i}`));
  const { entities, raw } = await rows.getRawAndEntities();
  const more = entities.length > query.size;
  const items = entities.slice(0, query.size);
  const total = await countFor(filtered, query.total ?? 'exact', offset + items.length, more);
  const page: Page<E> = {
    items,
    total,
    page: query.page,
    size: query.size,
    pages: Math.ceil(total / query.size),
  };
  if (query.cursor !== undefined || query.total !== undefined) {
    const lastId = (items.at(-1) as { id?: unknown } | undefined)?.id;
    const last = raw.find((r: Record<string, unknown>) => r[`${alias}_id`] === lastId) as
      Record<string, unknown> | undefined;
    page.next_cursor =
      more && last
        ? encodeCursor(
            terms,
            terms.map((_, i) => (last[`cursor_k${i}`] ?? null) as string | null),
          )
        : null;
  }
  return page;
}

async function countFor<E extends ObjectLiteral>(
  filtered: SelectQueryBuilder<E>,
  mode: NonNullable<ListQuery['total']>,
  seen: number,
  more: boolean,
): Promise<number> {
  if (mode === 'none') return seen + (more ? 1 : 0);
  if (mode === 'estimate') {
    if (!more) return seen;
    const [sql, params] = filtered.clone().select('1').getQueryAndParameters();
    const plan: { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[] = await filtered.connection.query(
      `EXPLAIN (FORMAT JSON) ${sql}`,
      params,
    );
    return Math.max(seen + 1, Math.round(plan[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0));
  }
  const row: { n: string } | undefined = await filtered.clone().select('COUNT(*)', 'n').getRawOne();
  return Number(row?.n ?? 0);
}
