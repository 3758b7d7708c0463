/**
 * Deep equality of JSON values, ignoring object key order (PostgreSQL `jsonb` does not keep it).
 * `undefined` object members count as absent. Iterative, so no nesting depth can overflow the stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [left, right] = pair;
    if (left === right) continue;
    if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) {
      return false;
    }
    if (Array.isArray(left) || Array.isArray(right)) {
      if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
      left.forEach((item, i) => pending.push([item, right[i]]));
      continue;
    }
    const leftEntries = definedEntries(left);
    const rightEntries = definedEntries(right);
    if (leftEntries.size !== rightEntries.size) return false;
    for (const [key, value] of leftEntries) {
      if (!rightEntries.has(key)) return false;
      pending.push([value, rightEntries.get(key)]);
    }
  }
  return true;
}

function definedEntries(value: object): Map<string, unknown> {
  return new Map(Object.entries(value).filter(([, item]) => item !== undefined));
}
