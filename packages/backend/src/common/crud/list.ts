import type { FilterTerm, ListQuery, Page, SortTerm } from '@aide/schemas';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

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
        qb.andWhere(`${column} ILIKE :${param} ESCAPE '\\'`, {
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
