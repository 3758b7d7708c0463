// Widening two types to one that holds the values of both: for the files of one dataset (schemas
// merged) and for the sampled values of CSV/JSON-lines columns. Strict mode widens only where no value
// changes (int32 → int64, float32 → float64, decimal(9,2) → decimal(12,4), utf8 → large_utf8, struct
// fields unioned); loose mode (inferred types) also widens int64 → float64 and date32 → timestamp and
// types anything else as utf8, naming the place in `mixed`.
import type { TypeNode } from '../../model.js';
import { node } from './file-schema.js';

export interface Widening {
  /** Inferred types: widen with loss of precision, and fall back to utf8 instead of failing. */
  loose: boolean;
  /** Where loose mode fell back to utf8 (`address.zip`). */
  mixed: string[];
}

const INT_BITS: Record<string, [signed: boolean, bits: number]> = {
  int8: [true, 8],
  int16: [true, 16],
  int32: [true, 32],
  int64: [true, 64],
  uint8: [false, 8],
  uint16: [false, 16],
  uint32: [false, 32],
  uint64: [false, 64],
};
const FLOAT_BITS: Record<string, number> = { float16: 16, float32: 32, float64: 64 };
const INT_DIGITS: Record<number, number> = { 8: 3, 16: 5, 32: 10, 64: 20 };
const UNIT_RANK: Record<string, number> = { s: 0, ms: 1, us: 2, ns: 3 };
const LARGE: Record<string, string> = { utf8: 'large_utf8', binary: 'large_binary', list: 'large_list' };

export function sameType(a: TypeNode, b: TypeNode): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The narrowest type holding both, or null when there is none (strict mode only; loose mode answers utf8). */
export function widen(a: TypeNode, b: TypeNode, how: Widening, path = ''): TypeNode | null {
  const wide = widenStrict(a, b, how, path);
  if (wide !== null || !how.loose) return wide;
  how.mixed.push(path);
  return node('utf8');
}

function widenStrict(a: TypeNode, b: TypeNode, how: Widening, path: string): TypeNode | null {
  if (sameType(a, b)) return a;
  if (a.data_type === 'null') return b;
  if (b.data_type === 'null') return a;
  const [x, y] = [a.data_type, b.data_type];
  if (x in INT_BITS && y in INT_BITS) return widerInteger(INT_BITS[x], INT_BITS[y]);
  if (x in FLOAT_BITS && y in FLOAT_BITS) return FLOAT_BITS[x] >= FLOAT_BITS[y] ? a : b;
  if ((x in INT_BITS && y in FLOAT_BITS) || (y in INT_BITS && x in FLOAT_BITS)) {
    const [int, float] = x in INT_BITS ? [x, y] : [y, x];
    // float64 holds integers up to 2^53 exactly: int32 and narrower; loose mode accepts int64 too.
    return INT_BITS[int][1] <= 32 || how.loose
      ? node(FLOAT_BITS[float] === 64 || INT_BITS[int][1] > 16 ? 'float64' : 'float32')
      : null;
  }
  if (x === 'decimal' || y === 'decimal') return widerDecimal(a, b);
  if (LARGE[x] === y || LARGE[y] === x) return widenChildren(LARGE[x] === y ? b : a, a, b, how, path);
  if (x === y && (x === 'timestamp' || x === 'time32' || x === 'time64' || x === 'duration'))
    return widerUnit(a, b);
  if (how.loose && ((x === 'date32' && y === 'timestamp') || (y === 'date32' && x === 'timestamp')))
    return x === 'timestamp' ? a : b;
  if (
    x === y &&
    ['list', 'large_list', 'map', 'struct', 'fixed_size_list'].includes(x) &&
    sameType({ ...a, children: [] }, { ...b, children: [] })
  ) {
    return widenChildren(a, a, b, how, path);
  }
  return null;
}

function widerInteger(
  [signedA, bitsA]: [boolean, number],
  [signedB, bitsB]: [boolean, number],
): TypeNode | null {
  if (signedA === signedB) return node(`${signedA ? 'int' : 'uint'}${Math.max(bitsA, bitsB)}`);
  const signedBits = signedA ? bitsA : bitsB;
  const unsignedBits = signedA ? bitsB : bitsA;
  const bits = Math.max(signedBits, unsignedBits * 2);
  return bits <= 64 ? node(`int${bits}`) : null;
}

function widerDecimal(a: TypeNode, b: TypeNode): TypeNode | null {
  const shape = (type: TypeNode): { whole: number; scale: number } | null => {
    if (type.data_type === 'decimal') {
      const { precision, scale } = type.params as { precision: number; scale: number };
      return { whole: precision - scale, scale };
    }
    const int = INT_BITS[type.data_type];
    return int === undefined ? null : { whole: INT_DIGITS[int[1]], scale: 0 };
  };
  const [sa, sb] = [shape(a), shape(b)];
  if (sa === null || sb === null) return null;
  const scale = Math.max(sa.scale, sb.scale);
  const precision = Math.max(sa.whole, sb.whole) + scale;
  return precision <= 76 ? node('decimal', { precision, scale }) : null;
}

function widerUnit(a: TypeNode, b: TypeNode): TypeNode | null {
  const pa = a.params ?? {};
  const pb = b.params ?? {};
  if (pa.timezone !== pb.timezone) return null;
  return UNIT_RANK[String(pa.unit)] >= UNIT_RANK[String(pb.unit)] ? a : b;
}

/** `shape`'s code and params with the children of a and b merged slot by slot (new struct fields appended). */
function widenChildren(
  shape: TypeNode,
  a: TypeNode,
  b: TypeNode,
  how: Widening,
  path: string,
): TypeNode | null {
  const children = (a.children ?? []).map((child) => ({ ...child }));
  for (const child of b.children ?? []) {
    const index = children.findIndex((existing) => existing.slot === child.slot);
    if (index === -1) {
      children.push(child);
      continue;
    }
    const name = child.slot.startsWith('field:') ? child.slot.slice(6) : child.slot;
    const wide = widen(children[index].type, child.type, how, path === '' ? name : `${path}.${name}`);
    if (wide === null) return null;
    children[index] = { slot: child.slot, type: wide };
  }
  return node(shape.data_type, shape.params, children);
}
