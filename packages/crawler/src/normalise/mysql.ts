// MySQL 8 / MariaDB native types → mysql8 data-type codes, from information_schema.COLUMNS: the type
// name through the catalog spellings of `@aide/schemas` (ADR 0062), its params from the column.
import { codeOf, MYSQL8_CATALOG_SPELLINGS } from '@aide/schemas/type-spellings';
import { node, type TypeMapping } from './type-log.js';

/** The information_schema.COLUMNS fields a mapping reads. */
export interface MysqlColumnType {
  /** `int(10) unsigned`, `enum('a','b')`, `varchar(20)`, … */
  column_type: string;
  /** `int`, `enum`, `varchar`, … */
  data_type: string;
  character_maximum_length: number | string | null;
  numeric_precision: number | string | null;
  numeric_scale: number | string | null;
  datetime_precision: number | string | null;
  /** MariaDB's JSON is a longtext with a json_valid() check on the column. */
  json_checked: boolean;
}

const INTEGERS = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'bigint']);
const PLAIN = new Set([
  'date',
  'year',
  'tinytext',
  'text',
  'mediumtext',
  'longtext',
  'tinyblob',
  'blob',
  'mediumblob',
  'longblob',
  'json',
  'geometry',
  'point',
  'linestring',
  'polygon',
  'multipoint',
  'multilinestring',
  'multipolygon',
  'geometrycollection',
  'uuid',
  'inet4',
  'inet6',
]);
const LENGTH_TYPES = new Set(['char', 'varchar', 'binary', 'varbinary']);
const FSP_TYPES = new Set(['time', 'datetime', 'timestamp']);

/** The built-in MySQL/MariaDB types (information_schema DATA_TYPE) this mapping covers, for the docs. */
export const MYSQL_BUILTIN_TYPES: readonly string[] = Object.keys(MYSQL8_CATALOG_SPELLINGS).sort();

const int = (value: number | string | null): number | undefined =>
  value === null || value === '' ? undefined : Number(value);

export function mapMysqlType(column: MysqlColumnType): TypeMapping {
  const code = codeOf(MYSQL8_CATALOG_SPELLINGS, column.data_type.toLowerCase());
  if (code === undefined) return null;
  const unsigned = /\bunsigned\b/i.test(column.column_type);
  if (INTEGERS.has(code)) {
    // BOOL/BOOLEAN is stored as tinyint(1): the only display width MySQL 8 still prints.
    if (code === 'tinyint' && !unsigned && /^tinyint\(1\)/i.test(column.column_type)) {
      return { type: node('boolean') };
    }
    return { type: node(unsigned ? `${code}_unsigned` : code) };
  }
  if (code === 'longtext' && column.json_checked) return { type: node('json') };
  if (PLAIN.has(code)) return { type: node(code) };
  if (code === 'bit') return { type: node('bit', { length: int(column.numeric_precision) }) };
  if (code === 'decimal') {
    const type = node('decimal', {
      precision: int(column.numeric_precision),
      scale: int(column.numeric_scale),
    });
    // There is no unsigned decimal code: the native text keeps the attribute.
    return unsigned ? { type, approximate: true } : { type };
  }
  if (code === 'float' || code === 'double') {
    return unsigned ? { type: node(code), approximate: true } : { type: node(code) };
  }
  if (FSP_TYPES.has(code)) {
    // Fractional-seconds precision 0 is the default: the same type as no precision.
    const precision = int(column.datetime_precision);
    return { type: node(code, { precision: precision === 0 ? undefined : precision }) };
  }
  if (LENGTH_TYPES.has(code)) return { type: node(code, { length: int(column.character_maximum_length) }) };
  if (code === 'enum' || code === 'set') {
    const labels = /^\w+\((.*)\)$/s.exec(column.column_type)?.[1];
    return { type: node(code, { labels }) };
  }
  return null;
}
