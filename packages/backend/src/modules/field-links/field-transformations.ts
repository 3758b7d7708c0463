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

/** Whether two canonical lists are the same (order included: it is the order the producer gave). */
export const sameTransformations = (
  a: readonly FieldTransformation[],
  b: readonly FieldTransformation[],
): boolean => JSON.stringify(a) === JSON.stringify(b);
