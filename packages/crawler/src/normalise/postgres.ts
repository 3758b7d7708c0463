// PostgreSQL native types → postgres14 data-type codes. Built-in types (schema pg_catalog) map by
// name, through the catalog spellings of `@aide/schemas` (ADR 0062); arrays, domains, enums and
// composite (row) types by their kind in pg_type. Type modifiers (atttypmod) are decoded as PostgreSQL
// encodes them.
import { POSTGRES14_CATALOG_SPELLINGS } from '@aide/schemas/type-spellings';
import type { TypeNode } from '../model.js';
import { arrayOf, decodersBySpelling, node, quoteLabels, type TypeMapping } from './type-log.js';

/** What the types query returns about one pg_type row. */
export interface PgTypeInfo {
  oid: string;
  schema: string;
  name: string;
  /** `schema.name`, each part quoted where PostgreSQL needs it. */
  qualified: string;
  /** b base, c composite, d domain, e enum, p pseudo, r range, m multirange. */
  typtype: string;
  is_array: boolean;
  elem: string;
  basetype: string;
  typtypmod: number;
  typndims: number;
  labels: string[] | null;
  attributes: { name: string; type: string; typmod: number; ndims: number }[] | null;
  /** The native type text (`format_type`) of each typmod columns of this type use. */
  formats: [number, string][] | null;
}

type Decoder = (typmod: number) => TypeNode;

/** varchar(n), char(n): the typmod is n + 4 (VARHDRSZ). */
const withLength =
  (code: string): Decoder =>
  (typmod) =>
    node(code, { length: typmod >= 4 ? typmod - 4 : undefined });
/** bit(n), varbit(n): the typmod is n. */
const withBits =
  (code: string): Decoder =>
  (typmod) =>
    node(code, { length: typmod > 0 ? typmod : undefined });
/** time(p), timestamp(p), …: the typmod is p. */
const withPrecision =
  (code: string): Decoder =>
  (typmod) =>
    node(code, { precision: typmod >= 0 ? typmod : undefined });

function numeric(typmod: number): TypeNode {
  if (typmod < 4) return node('numeric');
  const packed = typmod - 4;
  // Scale is an 11-bit signed field since PostgreSQL 15 (negative scales).
  return node('numeric', { precision: (packed >> 16) & 0xffff, scale: ((packed & 0x7ff) ^ 1024) - 1024 });
}

// datetime.h: INTERVAL_MASK bits of the fields an interval type is restricted to.
const MONTH = 1 << 1;
const YEAR = 1 << 2;
const DAY = 1 << 3;
const HOUR = 1 << 10;
const MINUTE = 1 << 11;
const SECOND = 1 << 12;
const INTERVAL_FIELDS = new Map<number, string>([
  [YEAR, 'year'],
  [MONTH, 'month'],
  [DAY, 'day'],
  [HOUR, 'hour'],
  [MINUTE, 'minute'],
  [SECOND, 'second'],
  [YEAR | MONTH, 'year to month'],
  [DAY | HOUR, 'day to hour'],
  [DAY | HOUR | MINUTE, 'day to minute'],
  [DAY | HOUR | MINUTE | SECOND, 'day to second'],
  [HOUR | MINUTE, 'hour to minute'],
  [HOUR | MINUTE | SECOND, 'hour to second'],
  [MINUTE | SECOND, 'minute to second'],
]);

function interval(typmod: number): TypeNode {
  if (typmod < 0) return node('interval');
  const precision = typmod & 0xffff;
  return node('interval', {
    interval_fields: INTERVAL_FIELDS.get((typmod >> 16) & 0x7fff),
    precision: precision === 0xffff ? undefined : precision,
  });
}

/** The codes whose type modifier carries params, with its decoding; any other code is plain. */
const DECODERS: Readonly<Record<string, Decoder>> = {
  numeric,
  interval,
  char: withLength('char'),
  varchar: withLength('varchar'),
  bit: withBits('bit'),
  varbit: withBits('varbit'),
  time: withPrecision('time'),
  timetz: withPrecision('timetz'),
  timestamp: withPrecision('timestamp'),
  timestamptz: withPrecision('timestamptz'),
};

/**
 * Every built-in (pg_catalog) type usable as a column type, by pg_type.typname, decoded as the
 * postgres14 code it is spelled as. Exported for the tests.
 */
export const POSTGRES_BUILTIN_TYPES: Readonly<Record<string, Decoder>> = decodersBySpelling(
  POSTGRES14_CATALOG_SPELLINGS,
  DECODERS,
);

/** Composite types nest; PostgreSQL forbids cycles, this bounds a pathological depth. */
const MAX_DEPTH = 32;

/**
 * Maps PostgreSQL types by oid, given the rows of the types query. A table of 20,000 columns has a
 * few dozen distinct (type, typmod, dimensions): each is mapped once, its tree shared by its columns
 * (nothing changes a mapped tree afterwards).
 */
export class PostgresTypeMapper {
  private readonly mapped = new Map<string, TypeMapping>();
  private readonly formats = new Map<string, string>();

  private readonly types = new Map<string, PgTypeInfo>();

  /** `rows`: the types query's, a type repeated when it was read again for more typmods. */
  constructor(rows: Iterable<PgTypeInfo>) {
    for (const type of rows) {
      this.types.set(type.oid, type);
      for (const [typmod, text] of type.formats ?? []) this.formats.set(`${type.oid}/${typmod}`, text);
    }
  }

  /** The type of a column (or composite attribute): its type oid, typmod and declared dimensions. */
  map(oid: string, typmod: number, dimensions: number): TypeMapping {
    const key = `${oid}/${typmod}/${dimensions}`;
    let mapping = this.mapped.get(key);
    if (mapping === undefined) {
      const type = this.resolve(oid, typmod, dimensions, 0);
      mapping = type === null ? null : { type };
      this.mapped.set(key, mapping);
    }
    return mapping;
  }

  /** A column type's text as PostgreSQL prints it (`character varying(40)`, `public.mood[]`). */
  nativeType(oid: string, typmod: number): string {
    return this.formats.get(`${oid}/${typmod}`) ?? this.types.get(oid)?.qualified ?? oid;
  }

  /** The outermost domain of a type, or null. */
  domainOf(oid: string): string | null {
    const type = this.types.get(oid);
    return type?.typtype === 'd' ? type.qualified : null;
  }

  private resolve(oid: string, typmod: number, dimensions: number, depth: number): TypeNode | null {
    const type = this.types.get(oid);
    if (type === undefined || depth > MAX_DEPTH) return null;
    if (type.typtype === 'd') {
      // A domain is its base type; its own typmod/dimensions apply when the column has none.
      return this.resolve(
        type.basetype,
        typmod >= 0 ? typmod : type.typtypmod,
        type.typndims > 0 ? type.typndims : dimensions,
        depth + 1,
      );
    }
    if (type.is_array) {
      const item = this.resolve(type.elem, typmod, 0, depth + 1);
      return item === null ? null : arrayOf(item, dimensions);
    }
    if (type.typtype === 'e') {
      return node('enum', { name: type.qualified, labels: quoteLabels(type.labels ?? []) });
    }
    if (type.typtype === 'c') {
      const children: { slot: string; type: TypeNode }[] = [];
      for (const attribute of type.attributes ?? []) {
        const child = this.resolve(attribute.type, attribute.typmod, attribute.ndims, depth + 1);
        if (child === null) return null;
        children.push({ slot: `field:${attribute.name}`, type: child });
      }
      return { ...node('composite', { name: type.qualified }), children };
    }
    if (type.schema !== 'pg_catalog') return null;
    return Object.hasOwn(POSTGRES_BUILTIN_TYPES, type.name)
      ? POSTGRES_BUILTIN_TYPES[type.name](typmod)
      : null;
  }
}
