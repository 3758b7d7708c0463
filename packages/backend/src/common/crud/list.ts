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
 * Applies parsed filters. Field names come from the resource's ListSpec (validated by the query
 * schema), never from raw input, so interpolating them as column names is safe; values are bound.
 */
export function applyFilters<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  alias: string,
  filters: readonly FilterTerm[],
): void {
  filters.forEach((filter, i) => {
    const column = `${alias}.${filter.field}`;
    const param = `f${i}`;
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

export async function fetchPage<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  query: Pick<ListQuery, 'page' | 'size'>,
): Promise<Page<E>> {
  const [items, total] = await qb
    .offset((query.page - 1) * query.size)
    .limit(query.size)
    .getManyAndCount();
  return { items, total, page: query.page, size: query.size, pages: Math.ceil(total / query.size) };
}

export function mapPage<E, R>(page: Page<E>, map: (item: E) => R): Page<R> {
  return { ...page, items: page.items.map(map) };
}

/** The opaque `next_cursor` of a page: its sort, then the last row's sort values (as text) and id. */
function encodeCursor(sort: readonly SortTerm[], values: readonly string[]): string {
  return Buffer.from(JSON.stringify([sortKey(sort), ...values]), 'utf8').toString('base64url');
}

/** The values of a `next_cursor` of a page with this sort (`terms` includes the id tiebreak). */
function decodeCursor(cursor: string, terms: readonly SortTerm[]): string[] {
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
    !decoded.every((v) => typeof v === 'string' && !v.includes('\u0000'))
  ) {
    throw validationError(
      [{ path: ['cursor'], message: 'must be a next_cursor of a previous page with the same sort' }],
      'The query string is invalid.',
    );
  }
  return (decoded as string[]).slice(1);
}

/**
 * Rows after the cursor's row in the order of `terms`. The leading terms that share the first term's
 * direction are compared as one row value — `(t1, t2) > (v1, v2)` (`<` when descending) — which a
 * b-tree index on those columns answers with a seek, so a cursor page is an index range read even when
 * the first sort value repeats over many rows (`kind`, `layer`). When every term has that direction the
 * row comparison is the whole condition; otherwise it is the prefix's `>=`, and the rest is spelled out:
 * (t1 > v1) OR (t1 = v1 AND t2 > v2) OR … (`<` for descending terms).
 */
function applyAfter<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  alias: string,
  terms: readonly SortTerm[],
  values: readonly string[],
): void {
  const params: Record<string, string> = {};
  terms.forEach((_, i) => (params[`k${i}`] = values[i]));
  const col = (i: number) => `${alias}.${terms[i]?.field}`;
  const op = (i: number, strict: boolean) =>
    (terms[i]?.direction === 'DESC' ? '<' : '>') + (strict ? '' : '=');
  let run = 1;
  while (run < terms.length && terms[run]?.direction === terms[0]?.direction) run++;
  const prefix = (n: number) => Array.from({ length: n }, (_, i) => i);
  const seek = (n: number, strict: boolean) =>
    `(${prefix(n).map(col).join(', ')}) ${op(0, strict)} (${prefix(n)
      .map((i) => `:k${i}`)
      .join(', ')})`;
  if (run === terms.length) {
    qb.andWhere(seek(run, true), params);
    return;
  }
  const branches = terms.map((_, i) =>
    [...prefix(i).map((j) => `${col(j)} = :k${j}`), `${col(i)} ${op(i, true)} :k${i}`].join(' AND '),
  );
  qb.andWhere(seek(run, false), params).andWhere(`(${branches.join(' OR ')})`);
}

/**
 * A page of a large collection (ADR 0024) whose rows are read with joins (`load`): the page's ids are
 * found first on the parent table alone (`filtered`: alias, soft-delete clause and filters applied),
 * in sort order from an index, `size + 1` of them (the extra one says whether more follow), then
 * `load` reads those rows with their joins in one query. The cost of a page does not depend on the
 * table's size: `cursor` pages seek (keyset), `page` pages skip `offset` index entries, and the count
 * is what `query.total` asks for: `exact` (default) counts the matching rows, `estimate` asks the
 * planner (exact on the last page), `none` counts nothing (`total`, `pages` are then lower bounds).
 */
export async function fetchIdPage<E extends ObjectLiteral>(
  filtered: SelectQueryBuilder<E>,
  alias: string,
  query: ListQuery,
  load: (ids: SelectQueryBuilder<E>) => SelectQueryBuilder<E>,
  withCursor: boolean,
): Promise<Page<E>> {
  const terms = withIdTiebreak(query.sort);
  const ids = filtered.clone().select(`${alias}.id`);
  if (query.cursor) applyAfter(ids, alias, terms, decodeCursor(query.cursor, terms));
  applySort(ids, alias, query.sort);
  const offset = query.cursor ? 0 : (query.page - 1) * query.size;
  ids.offset(offset).limit(query.size + 1);
  const rows = load(ids);
  applySort(rows, alias, query.sort);
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
  // Only for clients that opted in (named `cursor` or `total`): the default answer stays as it was.
  if (withCursor && (query.cursor !== undefined || query.total !== undefined)) {
    const lastId = (items.at(-1) as { id?: unknown } | undefined)?.id;
    const last = raw.find((r: Record<string, unknown>) => r[`${alias}_id`] === lastId) as
      Record<string, unknown> | undefined;
    page.next_cursor =
      more && last
        ? encodeCursor(
            terms,
            terms.map((_, i) => String(last[`cursor_k${i}`])),
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
