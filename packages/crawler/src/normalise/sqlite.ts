// SQLite declared column types → sqlite3 data-type codes. SQLite accepts any type name and stores
// values by affinity; the names people write (VARCHAR(20), BOOLEAN, DATETIME, NVARCHAR(100), no type
// at all, …) have their own codes (the declared spellings of `@aide/schemas`, ADR 0062), and any other
// name maps to its affinity's code (approximately).
import { SQLITE3_DECLARED_SPELLINGS } from '@aide/schemas/type-spellings';
import type { TypeNode } from '../model.js';
import { decodersBySpelling, node, type TypeMapping } from './type-log.js';

type Params = { length?: number; precision?: number; scale?: number };
type Decoder = (args: number[]) => TypeNode;

const withLength =
  (code: string): Decoder =>
  ([length]) =>
    node(code, { length: length !== undefined && length >= 1 && length <= 1e9 ? length : undefined });
const withPrecision =
  (code: string): Decoder =>
  ([precision, scale]) => {
    const params: Params = {};
    if (precision !== undefined && precision >= 1 && precision <= 1000) {
      params.precision = precision;
      if (scale !== undefined && scale >= 0 && scale <= 1000) params.scale = scale;
    }
    return node(code, params);
  };

/** The codes whose arguments are params, with their decoding; any other code is plain. */
const DECODERS: Readonly<Record<string, Decoder>> = {
  numeric: withPrecision('numeric'),
  decimal: withPrecision('decimal'),
  char: withLength('char'),
  nchar: withLength('nchar'),
  varchar: withLength('varchar'),
  nvarchar: withLength('nvarchar'),
};

/** Declared type names (upper case, single spaces) and their codes' decoding. Exported for the tests. */
export const SQLITE_DECLARED_TYPES: Readonly<Record<string, Decoder>> = decodersBySpelling(
  SQLITE3_DECLARED_SPELLINGS,
  DECODERS,
  (name) => name.toUpperCase(),
);

const DECLARED = /^\s*([\p{L}_][\p{L}\p{N}_ ]*?)?\s*(?:\(\s*([+-]?\d+)\s*(?:,\s*([+-]?\d+)\s*)?\))?\s*$/u;

/** SQLite's affinity rules (https://sqlite.org/datatype3.html §3.1), as codes. */
function affinity(declared: string): string {
  const upper = declared.toUpperCase();
  if (upper.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(upper)) return 'text';
  if (upper.includes('BLOB')) return 'blob';
  if (/REAL|FLOA|DOUB/.test(upper)) return 'real';
  return 'numeric';
}

export function mapSqliteType(declared: string): TypeMapping {
  const match = DECLARED.exec(declared);
  if (match !== null) {
    const name = (match[1] ?? '').toUpperCase().replace(/\s+/g, ' ');
    if (Object.hasOwn(SQLITE_DECLARED_TYPES, name)) {
      const args = [match[2], match[3]].filter((a): a is string => a !== undefined).map(Number);
      return { type: SQLITE_DECLARED_TYPES[name](args) };
    }
  }
  return { type: node(affinity(declared)), approximate: true };
}
