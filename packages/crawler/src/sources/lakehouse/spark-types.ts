// Delta Lake's schema (Spark's StructType as JSON, the `schemaString` of a `metaData` action) → the
// `spark_sql` flavor's codes, with the type spelled as Spark's `DESCRIBE TABLE` prints it as the native
// type. Protocol: https://github.com/delta-io/delta/blob/master/PROTOCOL.md#schema-serialization-format
// The primitive names are the catalog spellings of `@aide/schemas` (ADR 0062).
import { codeOf, SPARK_SQL_CATALOG_SPELLINGS } from '@aide/schemas/type-spellings';
import type { TypeNode } from '../../model.js';
import { nested, node, type TypeMapping } from '../../normalise/type-log.js';

/** A Spark data type as Delta serialises it: a primitive name or a complex type object. */
export type SparkType =
  | string
  | { type: 'struct'; fields: SparkField[] }
  | { type: 'array'; elementType: SparkType; containsNull?: boolean }
  | { type: 'map'; keyType: SparkType; valueType: SparkType; valueContainsNull?: boolean };

export interface SparkField {
  name: string;
  type: SparkType;
  nullable?: boolean;
  metadata?: Record<string, unknown>;
}

const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(-?\d+)\s*\)$/;
const INTERVAL = /^interval (year|month|day|hour|minute|second)(?: to (year|month|day|hour|minute|second))?$/;
const YEAR_MONTH = new Set(['year', 'month']);

/** The text Spark prints for a type (`decimal(10,2)`, `array<struct<a:int>>`). */
export function sparkTypeText(type: SparkType): string {
  if (typeof type === 'string') {
    return codeOf(SPARK_SQL_CATALOG_SPELLINGS, type) ?? type;
  }
  switch (type.type) {
    case 'struct':
      return `struct<${type.fields.map((f) => `${f.name}:${sparkTypeText(f.type)}`).join(',')}>`;
    case 'array':
      return `array<${sparkTypeText(type.elementType)}>`;
    case 'map':
      return `map<${sparkTypeText(type.keyType)},${sparkTypeText(type.valueType)}>`;
  }
}

/**
 * A field's type tree; `null` when a part has no spark_sql code (the whole column is then unmapped and
 * reported with its native text). A `char(n)`/`varchar(n)` column is stored as `string` with its declared
 * type in the field's metadata (`__CHAR_VARCHAR_TYPE_STRING`), which wins.
 */
export function mapSparkField(field: SparkField): TypeMapping {
  const declared = field.metadata?.['__CHAR_VARCHAR_TYPE_STRING'];
  if (typeof declared === 'string') {
    const charLike = /^(char|varchar)\((\d+)\)$/i.exec(declared.trim());
    if (charLike !== null) {
      return { type: node(charLike[1].toLowerCase(), { length: Number(charLike[2]) }) };
    }
  }
  const type = mapSparkType(field.type);
  return type === null ? null : { type };
}

export function mapSparkType(type: SparkType): TypeNode | null {
  if (typeof type === 'string') return mapPrimitive(type.trim().toLowerCase());
  if (type === null || typeof type !== 'object') return null;
  switch (type.type) {
    case 'struct':
      if (!Array.isArray(type.fields)) return null;
      return nested(
        'struct',
        type.fields.map((field) => [`field:${field.name}`, mapSparkField(field)?.type ?? null]),
      );
    case 'array':
      return nested('array', [['element', mapSparkType(type.elementType)]]);
    case 'map':
      return nested('map', [
        ['key', mapSparkType(type.keyType)],
        ['value', mapSparkType(type.valueType)],
      ]);
    default:
      return null;
  }
}

function mapPrimitive(name: string): TypeNode | null {
  const code = codeOf(SPARK_SQL_CATALOG_SPELLINGS, name);
  if (code !== undefined) return node(code);
  if (name === 'decimal') return node('decimal', { precision: 10, scale: 0 });
  const decimal = DECIMAL.exec(name);
  if (decimal !== null) {
    const precision = Number(decimal[1]);
    const scale = Number(decimal[2]);
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) return null;
    return node('decimal', { precision, scale });
  }
  const interval = INTERVAL.exec(name);
  if (interval !== null) {
    const [, from, to] = interval;
    const yearMonth = YEAR_MONTH.has(from);
    if (to !== undefined && YEAR_MONTH.has(to) !== yearMonth) return null;
    const fields = to === undefined || to === from ? from : `${from} to ${to}`;
    return node(yearMonth ? 'year_month_interval' : 'day_time_interval', { interval_fields: fields });
  }
  return null;
}
