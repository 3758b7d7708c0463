// Parquet primitive columns → the storage_files flavor (Arrow logical types), and their Parquet
// spelling: `INT64 (TIMESTAMP(MICROS,true))`, `FIXED_LEN_BYTE_ARRAY(16) (UUID)`, `INT32 (UINT_8)`.
// The logical type wins over the converted type (the spec's rule); a converted type alone is read as
// the logical type it stands for.
import type { LogicalType, SchemaElement } from 'hyparquet';
import type { TypeNode } from '../../model.js';
import { node } from './file-schema.js';

const UNITS = { MILLIS: 'ms', MICROS: 'us', NANOS: 'ns' } as const;
const MAX_DECIMAL_PRECISION = 76;

/** The Parquet spelling of a primitive column: physical type, then its annotation in parentheses. */
export function spellParquet(element: SchemaElement): string {
  const physical =
    element.type === 'FIXED_LEN_BYTE_ARRAY'
      ? `FIXED_LEN_BYTE_ARRAY(${element.type_length ?? '?'})`
      : (element.type ?? 'group');
  const logical = element.logical_type;
  if (logical !== undefined) return `${physical} (${spellLogical(logical)})`;
  const converted = element.converted_type;
  if (converted === undefined) return physical;
  return converted === 'DECIMAL'
    ? `${physical} (DECIMAL(${element.precision ?? '?'},${element.scale ?? 0}))`
    : `${physical} (${converted})`;
}

function spellLogical(logical: LogicalType): string {
  switch (logical.type) {
    case 'DECIMAL':
      return `DECIMAL(${logical.precision},${logical.scale})`;
    case 'TIME':
    case 'TIMESTAMP':
      return `${logical.type}(${logical.unit},${logical.isAdjustedToUTC})`;
    case 'INTEGER':
      return `INTEGER(${logical.bitWidth},${logical.isSigned})`;
    case 'VARIANT':
      return logical.specification_version === undefined
        ? 'VARIANT'
        : `VARIANT(${logical.specification_version})`;
    case 'GEOMETRY':
      return logical.crs === undefined ? 'GEOMETRY' : `GEOMETRY(${logical.crs})`;
    case 'GEOGRAPHY':
      return `GEOGRAPHY(${[logical.crs, logical.algorithm].filter((part) => part !== undefined).join(',')})`;
    case 'NULL':
      return 'UNKNOWN'; // the spec's name; hyparquet calls it NULL
    default:
      return logical.type;
  }
}

export interface PrimitiveMapping {
  type: TypeNode;
  approximate: boolean;
}

/** The Arrow type of a primitive column; null when none fits (a decimal wider than 76 digits). */
export function parquetPrimitive(element: SchemaElement): PrimitiveMapping | null {
  const exact = (type: TypeNode | null): PrimitiveMapping | null =>
    type === null ? null : { type, approximate: false };
  const annotated = annotatedType(element);
  if (annotated !== undefined) return exact(annotated);
  // No annotation, or one this reader does not know (a newer spec's): the physical type, marked approximate when annotated.
  const physical = physicalType(element);
  const unknown = element.logical_type !== undefined || element.converted_type !== undefined;
  return physical === null ? null : { type: physical, approximate: unknown };
}

function physicalType(element: SchemaElement): TypeNode | null {
  switch (element.type) {
    case 'BOOLEAN':
      return node('boolean');
    case 'INT32':
      return node('int32');
    case 'INT64':
      return node('int64');
    case 'INT96':
      return node('timestamp', { unit: 'ns' }); // Impala/Spark's legacy timestamp, as Arrow reads it
    case 'FLOAT':
      return node('float32');
    case 'DOUBLE':
      return node('float64');
    case 'BYTE_ARRAY':
      return node('binary');
    case 'FIXED_LEN_BYTE_ARRAY':
      return element.type_length === undefined
        ? null
        : node('fixed_size_binary', { byte_width: element.type_length });
    default:
      return null;
  }
}

/**
 * Annotations without parameters, logical (`STRING`, `UUID`) and converted (`UTF8`, `UINT_8`) alike.
 * Converted timestamps are instants (isAdjustedToUTC = true, LogicalTypes.md); INTERVAL's months, days
 * and milliseconds fit month_day_nano without loss.
 */
const PLAIN_ANNOTATIONS: Record<string, TypeNode> = {
  STRING: node('utf8'),
  UTF8: node('utf8'),
  ENUM: node('utf8'),
  JSON: node('json'),
  BSON: node('binary'),
  UUID: node('uuid'),
  FLOAT16: node('float16'),
  DATE: node('date32'),
  NULL: node('null'),
  VARIANT: node('variant'),
  INTERVAL: node('interval', { unit: 'month_day_nano' }),
  TIME_MILLIS: node('time32', { unit: 'ms' }),
  TIME_MICROS: node('time64', { unit: 'us' }),
  TIMESTAMP_MILLIS: node('timestamp', { unit: 'ms', timezone: 'UTC' }),
  TIMESTAMP_MICROS: node('timestamp', { unit: 'us', timezone: 'UTC' }),
  ...Object.fromEntries(
    ['UINT_8', 'UINT_16', 'UINT_32', 'UINT_64', 'INT_8', 'INT_16', 'INT_32', 'INT_64'].map((name) => [
      name,
      node(name.toLowerCase().replace('_', '')),
    ]),
  ),
};

/** The annotated type; undefined when the annotation is absent or unknown, null when it cannot be mapped. */
function annotatedType(element: SchemaElement): TypeNode | null | undefined {
  const logical = element.logical_type;
  if (logical !== undefined) {
    return logical.type in PLAIN_ANNOTATIONS
      ? PLAIN_ANNOTATIONS[logical.type]
      : logicalType(logical, element);
  }
  const converted = element.converted_type;
  if (converted === 'DECIMAL') return decimal(element.precision, element.scale);
  // MAP or LIST on a primitive is malformed: read by its physical type.
  return converted !== undefined && converted in PLAIN_ANNOTATIONS ? PLAIN_ANNOTATIONS[converted] : undefined;
}

function logicalType(logical: LogicalType, element: SchemaElement): TypeNode | null | undefined {
  switch (logical.type) {
    case 'DECIMAL':
      return decimal(logical.precision, logical.scale);
    case 'INTEGER':
      if (![8, 16, 32, 64].includes(logical.bitWidth)) return undefined;
      return node(`${logical.isSigned ? 'int' : 'uint'}${logical.bitWidth}`);
    case 'TIME':
      return logical.unit === 'MILLIS'
        ? node('time32', { unit: 'ms' })
        : node('time64', { unit: UNITS[logical.unit] });
    case 'TIMESTAMP':
      return node(
        'timestamp',
        logical.isAdjustedToUTC
          ? { unit: UNITS[logical.unit], timezone: 'UTC' }
          : { unit: UNITS[logical.unit] },
      );
    case 'GEOMETRY':
    case 'GEOGRAPHY':
      return node(logical.type.toLowerCase(), logical.crs === undefined ? {} : { crs: logical.crs });
    default:
      return element.type === undefined ? null : undefined;
  }
}

function decimal(precision: number | undefined, scale: number | undefined): TypeNode | null {
  if (precision === undefined || precision < 1 || precision > MAX_DECIMAL_PRECISION) return null;
  return node('decimal', { precision, scale: scale ?? 0 });
}
