// The hub of the cast matrix (ADR 0043): a canonical lattice of logical types, close to Apache Arrow's,
// that every flavor's built-in types are declared on. A cast from flavor A to flavor B goes
// A → hub → B; only the hub knows how types relate, so N flavors need N tables, not N×(N-1) files.

/** Hub type codes, grouped by family (a cast inside a family is closer than one across families). */
export const HUB_FAMILIES = {
  bool: ['bool'],
  integer: ['int8', 'int16', 'int24', 'int32', 'int64', 'uint8', 'uint16', 'uint24', 'uint32', 'uint64'],
  float: ['float16', 'float32', 'float64'],
  decimal: ['decimal'],
  string: ['string', 'char'],
  binary: ['binary', 'fixed'],
  bits: ['bits'],
  date: ['date'],
  time: ['time', 'timetz'],
  // timestamp_any: local or instant by the instance (Arrow's timestamp, whose timezone param decides).
  timestamp: ['timestamp', 'timestamptz', 'timestamp_any'],
  interval: ['interval_ym', 'interval_dt', 'interval'],
  uuid: ['uuid'],
  document: ['json', 'variant'],
  enum: ['enum'],
  null: ['null'],
  opaque: ['opaque'],
  list: ['list'],
  // By what keys may be: any type, integers/booleans/strings (Protocol Buffers), strings (Avro, JSON).
  map: ['map', 'map_integral_keys', 'map_string_keys'],
  struct: ['struct'],
  union: ['union'],
} as const;

export type HubFamily = keyof typeof HUB_FAMILIES;
export type HubCode = (typeof HUB_FAMILIES)[HubFamily][number];

const FAMILY_OF = new Map<string, HubFamily>(
  Object.entries(HUB_FAMILIES).flatMap(([family, codes]) => codes.map((c) => [c, family as HubFamily])),
);

export function familyOf(code: HubCode): HubFamily {
  return FAMILY_OF.get(code) as HubFamily;
}

export function isHubCode(code: string): code is HubCode {
  return FAMILY_OF.has(code);
}

/** The parameters each parametric hub type takes, by position in a declaration (`decimal(@p, @s)`). */
export const HUB_PARAMS: Partial<Record<HubCode, readonly string[]>> = {
  decimal: ['precision', 'scale'],
  string: ['length'],
  char: ['length'],
  binary: ['length'],
  fixed: ['length'],
  bits: ['length'],
  time: ['precision'],
  timetz: ['precision'],
  timestamp: ['precision'],
  timestamptz: ['precision'],
  timestamp_any: ['precision', 'timezone'],
};

/** Hub types whose values hold child types (rendered from the type instance's children). */
export const CONTAINERS: ReadonlySet<HubCode> = new Set([
  'list',
  'map',
  'map_integral_keys',
  'map_string_keys',
  'struct',
  'union',
]);

/** How many key types each map admits: a map casts without loss only into one admitting as many. */
export const MAP_KEY_BREADTH: Readonly<Record<string, number>> = {
  map: 2,
  map_integral_keys: 1,
  map_string_keys: 0,
};

/** Time units (Arrow's, Parquet's) as digits of a second: a precision the hub compares. */
export const TIME_UNIT_DIGITS: Readonly<Record<string, number>> = { s: 0, ms: 3, us: 6, ns: 9 };

/** Integer ranges: bits and signedness. */
export const INTEGERS: Readonly<Record<string, { bits: number; signed: boolean }>> = {
  int8: { bits: 8, signed: true },
  int16: { bits: 16, signed: true },
  int24: { bits: 24, signed: true },
  int32: { bits: 32, signed: true },
  int64: { bits: 64, signed: true },
  uint8: { bits: 8, signed: false },
  uint16: { bits: 16, signed: false },
  uint24: { bits: 24, signed: false },
  uint32: { bits: 32, signed: false },
  uint64: { bits: 64, signed: false },
};

/** Significand bits of the floating-point types (an integer of at most this many bits is exact). */
export const FLOAT_MANTISSA: Readonly<Record<string, number>> = { float16: 11, float32: 24, float64: 53 };

/** Decimal digits of the largest value of an integer type (int32 → 10, uint64 → 20). */
export function integerDigits(code: string): number {
  const { bits, signed } = INTEGERS[code];
  return String(2n ** BigInt(signed ? bits - 1 : bits) - 1n).length;
}

/** Whether every value of integer type `a` is a value of integer type `b`. */
export function integerFits(a: string, b: string): boolean {
  const x = INTEGERS[a];
  const y = INTEGERS[b];
  if (x.signed && !y.signed) return false;
  return x.signed === y.signed ? x.bits <= y.bits : x.bits < y.bits;
}
