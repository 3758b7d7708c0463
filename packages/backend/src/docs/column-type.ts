import type { ChartDbDataType } from './chartdb-format.js';
import type { CatalogColumn } from './pg-catalog.js';

// format_type's spelling → the name ChartDB's PostgreSQL type list uses, as ChartDB's own import maps them
// (chartdb/chartdb src/lib/data/data-types/postgres-data-types.ts, getPostgresPreferredSynonym).
const PREFERRED_NAMES: Record<string, string> = {
  'character varying': 'varchar',
  character: 'char',
  bool: 'boolean',
  integer: 'int',
  int2: 'smallint',
  int4: 'int',
  int8: 'bigint',
  float4: 'real',
  float8: 'double precision',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time with time zone': 'timetz',
  'time without time zone': 'time',
  'bit varying': 'varbit',
};

const LENGTH_TYPES = new Set(['varchar', 'char', 'bit', 'varbit']);
const NUMERIC_TYPES = new Set(['numeric', 'decimal']);
const TIME_TYPES = new Set(['timestamp', 'timestamptz', 'time', 'timetz', 'interval']);

/** A column's type in ChartDB's terms: element type plus `isArray`, modifiers in their own attributes. */
export interface ChartDbColumnType {
  type: ChartDbDataType;
  isArray?: true;
  characterMaximumLength?: string;
  precision?: number;
  scale?: number;
}

/** Maps a catalog column's type to ChartDB's representation, as ChartDB's PostgreSQL import does. */
export function toChartDbColumnType(
  column: Pick<CatalogColumn, 'fullType' | 'baseType' | 'isArray'>,
): ChartDbColumnType {
  const name = PREFERRED_NAMES[column.baseType] ?? column.baseType;
  const result: ChartDbColumnType = { type: { id: name.split(' ').join('_'), name } };
  if (column.isArray) result.isArray = true;
  // The modifier sits in the first parentheses of format_type: varchar(255)[], numeric(10,2), timestamp(3) …
  const modifier = /\((\d+)(?:,(\d+))?\)/.exec(column.fullType);
  if (!modifier) return result;
  const [, first, second] = modifier;
  if (LENGTH_TYPES.has(name)) result.characterMaximumLength = first;
  else if (NUMERIC_TYPES.has(name)) {
    result.precision = Number(first);
    if (second !== undefined) result.scale = Number(second);
  } else if (TIME_TYPES.has(name)) result.precision = Number(first);
  return result;
}
