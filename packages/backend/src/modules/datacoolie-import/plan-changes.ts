// Field-level differences between what the registry holds and what a document says (ADR 0050): each
// plan update lists every field it changes, JSON objects one key at a time.
import type { DataCoolieImportChange } from '@aide/schemas';

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The change of one field, or none when both sides are equal (JSON-wise, key order included). */
export function fieldChange(field: string, before: unknown, after: unknown): DataCoolieImportChange[] {
  return same(before, after) ? [] : [{ field, before: before ?? null, after: after ?? null }];
}

/**
 * The changes of a JSON object: one `<prefix>.<key>` per key added, removed or changed; when only the
 * order of the keys differs (served back as written), one `<prefix>` change with both key lists.
 */
export function objectChanges(
  prefix: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): DataCoolieImportChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changes = keys.flatMap((key): DataCoolieImportChange[] => {
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    if (had === has && same(before[key], after[key])) return [];
    return [{ field: `${prefix}.${key}`, before: had ? before[key] : null, after: has ? after[key] : null }];
  });
  if (changes.length === 0 && !same(Object.keys(before), Object.keys(after))) {
    return [{ field: prefix, before: Object.keys(before), after: Object.keys(after) }];
  }
  return changes;
}
