/** A scalar of a query string: dates are sent as ISO 8601, booleans as `true`/`false`. */
export type QueryScalar = string | number | boolean | Date;

/**
 * A query-string value. Arrays are joined with commas, the list format of `__in` filters
 * (`kind__in=rdbms,kafka`) and of `sort`. `undefined` and `null` leave the key out.
 */
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;

export type QueryParams = Readonly<Record<string, QueryValue>>;

function scalar(key: string, value: QueryScalar): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`Query parameter ${key} must be a finite number, got ${value}`);
  }
  return String(value);
}

/** Encodes plain-object parameters as a query string, with the leading `?` (empty when there are none). */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const items = (value as readonly QueryScalar[]).map((item) => {
        const text = scalar(key, item);
        // The server splits list values on commas: an item with a comma would silently become two.
        if (text.includes(','))
          throw new TypeError(`Query parameter ${key}: list items cannot contain commas (${text})`);
        return text;
      });
      // An empty list is sent as such (the server answers 422) rather than dropped, which would widen
      // the filter to everything.
      search.append(key, items.join(','));
    } else {
      search.append(key, scalar(key, value as QueryScalar));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
