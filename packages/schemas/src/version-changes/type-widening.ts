// Type changes: equality of normalised type trees, and whether a change widens the type (every value
// of the old type is a value of the new one, so readers keep working) — the rule table is in
// docs/crawler.md, "Compatible and breaking changes".
import type { ComparableType } from './comparable.js';

type TypeNode = ComparableType;
type Params = NonNullable<TypeNode['params']>;

/** Equal trees: same code, same params (key order ignored), same children by slot, recursively. */
export function sameType(a: TypeNode | null, b: TypeNode | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.data_type !== b.data_type || !sameParams(a.params, b.params)) return false;
  // Children by slot: a registry may hand them back in another order.
  const ac = a.children ?? [];
  const bc = new Map((b.children ?? []).map((c) => [c.slot, c.type]));
  return ac.length === bc.size && ac.every((c) => sameType(c.type, bc.get(c.slot) ?? null));
}

function sameParams(a: Params | null | undefined, b: Params | null | undefined): boolean {
  const ak = Object.keys(a ?? {});
  if (ak.length !== Object.keys(b ?? {}).length) return false;
  return ak.every((k) => sameValue((a ?? {})[k], (b ?? {})[k]));
}

/** Scalars by value; a structured param (a registry may keep one) by its JSON. */
const sameValue = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * Integer-like ladders, narrowest first, per flavor's codes (PostgreSQL, MySQL, SQLite share names).
 * A move up a ladder widens; `numeric`/`decimal` without precision hold any integer.
 */
const LADDERS: readonly (readonly string[])[] = [
  ['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'numeric'],
  ['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'decimal'],
  [
    'tinyint_unsigned',
    'smallint_unsigned',
    'mediumint_unsigned',
    'int_unsigned',
    'bigint_unsigned',
    'decimal',
  ],
  ['tinyint_unsigned', 'smallint', 'mediumint', 'int', 'integer', 'bigint'],
  ['smallint_unsigned', 'mediumint', 'int', 'integer', 'bigint'],
  ['mediumint_unsigned', 'int', 'integer', 'bigint'],
  ['int_unsigned', 'bigint'],
  ['real', 'float', 'double'],
  // Avro's exact promotions (int → long, float → double; int → float and long → float/double lose
  // digits: not widening here) and Protobuf's varints (int32 → int64).
  ['int', 'long'],
  ['int32', 'int64'],
  ['uint32', 'uint64'],
  ['sint32', 'sint64'],
  ['tinytext', 'text', 'mediumtext', 'longtext'],
  ['tinyblob', 'blob', 'mediumblob', 'longblob'],
  ['varchar', 'text'],
  ['char', 'varchar', 'text'],
  ['nchar', 'nvarchar', 'text'],
  ['enum', 'varchar', 'text'],
];

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Whether a length/precision param allows at least as much: an absent bound means unbounded. */
function notSmaller(from: unknown, to: unknown): boolean {
  const f = num(from);
  const t = num(to);
  if (t === undefined) return true;
  return f !== undefined && t >= f;
}

/** `'a','b'` label lists: the new list keeps every old label. */
function labelsKept(from: unknown, to: unknown): boolean {
  if (typeof from !== 'string' || typeof to !== 'string') return from === to;
  const split = (s: string) => new Set(s.match(/'(?:[^']|'')*'/g) ?? []);
  const toLabels = split(to);
  return [...split(from)].every((label) => toLabels.has(label));
}

/** The same code with params that allow at least as much. */
function widerParams(from: TypeNode, to: TypeNode): boolean {
  const f = from.params ?? {};
  const t = to.params ?? {};
  const keys = new Set([...Object.keys(f), ...Object.keys(t)]);
  for (const key of keys) {
    if (f[key] === t[key]) continue;
    if (key === 'labels') {
      if (!labelsKept(f[key], t[key])) return false;
    } else if (key === 'length' || key === 'precision') {
      // A fixed-length char pads: a different length changes the values.
      if (from.data_type === 'char' || from.data_type === 'nchar' || from.data_type === 'bit') return false;
      if (!notSmaller(f[key], t[key])) return false;
    } else if (key === 'scale') {
      // numeric(p,s) → numeric(p',s'): keeps every value when s' ≥ s and p'−s' ≥ p−s.
      const fs = num(f[key]) ?? 0;
      const ts = num(t[key]) ?? 0;
      const fp = num(f['precision']);
      const tp = num(t['precision']);
      if (ts < fs) return false;
      if (tp !== undefined && (fp === undefined || tp - ts < fp - fs)) return false;
    } else {
      return false;
    }
  }
  return true;
}

/** Whether every value of `from` is a value of `to` (a compatible type change). */
export function widens(from: TypeNode, to: TypeNode): boolean {
  if (from.data_type === to.data_type) {
    if (!widerParams(from, to)) return false;
    const fc = from.children ?? [];
    const tc = to.children ?? [];
    return (
      fc.length === tc.length && fc.every((c, i) => c.slot === tc[i]?.slot && widens(c.type, tc[i].type))
    );
  }
  if ((from.children ?? []).length > 0 || (to.children ?? []).length > 0) return false;
  return LADDERS.some((ladder) => {
    const fi = ladder.indexOf(from.data_type);
    const ti = ladder.indexOf(to.data_type);
    if (fi < 0 || ti <= fi) return false;
    // Into an unbounded target only: varchar(20) → text, integer → numeric (no precision).
    const target = to.params ?? {};
    if (to.data_type === 'numeric' || to.data_type === 'decimal') return target['precision'] === undefined;
    if (to.data_type === 'varchar' || to.data_type === 'nvarchar') {
      const length = num(target['length']);
      return length === undefined || (num(from.params?.['length']) ?? Infinity) <= length;
    }
    return from.data_type !== 'enum' || to.data_type === 'text';
  });
}
