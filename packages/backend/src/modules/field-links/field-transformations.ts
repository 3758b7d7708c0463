import type { FieldTransformation } from '@aide/schemas';

/** The one stored shape of a transformation: every key present, absent values null (stable equality). */
export function canonicalTransformations(
  list: readonly FieldTransformation[] | null | undefined,
): FieldTransformation[] {
  return (list ?? []).map((t) => ({
    type: t.type,
    subtype: t.subtype ?? null,
    description: t.description ?? null,
    masking: t.masking ?? null,
  }));
}

/**
 * Whether two lists are the same, key by key (order of the list included: it is the producer's order).
 * Not by JSON text: PostgreSQL's jsonb keeps object keys in an order of its own.
 */
export function sameTransformations(
  a: readonly FieldTransformation[],
  b: readonly FieldTransformation[],
): boolean {
  return (
    a.length === b.length &&
    a.every(
      (t, i) =>
        t.type === b[i].type &&
        (t.subtype ?? null) === (b[i].subtype ?? null) &&
        (t.description ?? null) === (b[i].description ?? null) &&
        (t.masking ?? null) === (b[i].masking ?? null),
    )
  );
}
