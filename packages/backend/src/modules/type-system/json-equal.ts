/**
 * Deep equality of JSON values, ignoring object key order (PostgreSQL `jsonb` does not keep it).
 * `undefined` object members count as absent.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => jsonEqual(item, b[i]))
    );
  }
  const left = definedEntries(a);
  const right = definedEntries(b);
  return (
    left.size === right.size &&
    [...left].every(([key, value]) => right.has(key) && jsonEqual(value, right.get(key)))
  );
}

function definedEntries(value: object): Map<string, unknown> {
  return new Map(Object.entries(value).filter(([, item]) => item !== undefined));
}
