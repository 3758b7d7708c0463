// The table as a Parquet schema in the message-type notation parquet-mr prints and parses
// (`message orders { required int64 id; optional binary name (STRING); }`): a field per column,
// `required` for NOT NULL, the standard 3-level LIST and MAP groups, logical type annotations in the
// spelling parquet-mr uses (DECIMAL(12,2), TIMESTAMP(MICROS,true), INTEGER(8,false)). Input: the
// storage_files flavor's Arrow types. See docs/translation-formats.md.
import type { Omissions, TranslatedTable, TranslatedType } from '../translated-table.js';
import {
  NameScope,
  childIn,
  fieldsOf,
  isNullDefault,
  paths,
  reportTableConstraints,
  reportUnmapped,
} from './common.js';

const FORMAT = 'Parquet';
const UNITS: Record<string, string> = { ms: 'MILLIS', us: 'MICROS', ns: 'NANOS' };

/** A Parquet name the notation can hold: letters, digits and `_` (its tokens split on the rest). */
export function parquetName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_');
  return cleaned === '' ? '_' : cleaned;
}

export function renderParquet(table: TranslatedTable, omissions: Omissions): string {
  const writer = new ParquetWriter(omissions);
  const lines: string[] = [];
  const scope = new NameScope();
  for (const column of table.columns) {
    if (column.type === null) {
      reportUnmapped(column, omissions, FORMAT);
      continue;
    }
    if (column.default !== null && !isNullDefault(column))
      omissions.add(
        'default',
        column.name,
        `a Parquet schema has no defaults: ${column.default} is not carried`,
      );
    if (column.comment !== null)
      omissions.add('comment', column.name, 'a Parquet schema has no column comments');
    const name = writer.name(scope, column.name, column.name);
    lines.push(
      ...writer.field(column.nullable ? 'optional' : 'required', name, column.type, column.name, '  '),
    );
  }
  if (table.comment !== null) omissions.add('comment', table.name, 'a Parquet schema has no table comment');
  reportTableConstraints(table, omissions, FORMAT);
  const name = parquetName(table.name);
  if (name !== table.name) omissions.add('column', table.name, `the message is named ${name}`);
  if (lines.length === 0) return `message ${name} {\n}\n`;
  return `message ${name} {\n${lines.join('\n')}\n}\n`;
}

interface Primitive {
  physical: string;
  annotation?: string;
}

class ParquetWriter {
  constructor(private readonly omissions: Omissions) {}

  name(scope: NameScope, wanted: string, path: string): string {
    const name = scope.claim(parquetName(wanted));
    if (name !== wanted)
      this.omissions.add(
        'column',
        path,
        `named ${name}: the message-type notation takes letters, digits and _`,
      );
    return name;
  }

  /** The lines of one field (a primitive, or a group and its fields); none when the type has no Parquet form. */
  field(repetition: string, name: string, type: TranslatedType, path: string, indent: string): string[] {
    switch (type.code) {
      case 'list':
      case 'large_list':
      case 'fixed_size_list': {
        const item = childIn(type, 'item', 'element');
        if (item === null) return this.missing(type, path, 'item');
        if (type.code === 'fixed_size_list')
          this.omissions.add(
            'check',
            path,
            `Parquet lists have no fixed size: ${String(type.params.list_size)} items is not carried`,
          );
        const element = this.field(
          item.nullable ? 'optional' : 'required',
          'element',
          item.type,
          paths.element(path),
          `${indent}    `,
        );
        if (element.length === 0) return [];
        return [
          `${indent}${repetition} group ${name} (LIST) {`,
          `${indent}  repeated group list {`,
          ...element,
          `${indent}  }`,
          `${indent}}`,
        ];
      }
      case 'map': {
        const key = childIn(type, 'key');
        const value = childIn(type, 'value');
        if (key === null) return this.missing(type, path, 'key');
        if (value === null) return this.missing(type, path, 'value');
        if (key.nullable)
          this.omissions.add('nullability', paths.key(path), 'Parquet map keys are required: never null');
        const keyLines = this.field('required', 'key', key.type, paths.key(path), `${indent}    `);
        const valueLines = this.field(
          value.nullable ? 'optional' : 'required',
          'value',
          value.type,
          paths.value(path),
          `${indent}    `,
        );
        if (keyLines.length === 0 || valueLines.length === 0) return [];
        return [
          `${indent}${repetition} group ${name} (MAP) {`,
          `${indent}  repeated group key_value {`,
          ...keyLines,
          ...valueLines,
          `${indent}  }`,
          `${indent}}`,
        ];
      }
      case 'struct': {
        const scope = new NameScope();
        const lines: string[] = [];
        for (const field of fieldsOf(type)) {
          const fieldPath = paths.field(path, field.name);
          const fieldName = this.name(scope, field.name, fieldPath);
          lines.push(
            ...this.field(
              field.nullable ? 'optional' : 'required',
              fieldName,
              field.type,
              fieldPath,
              `${indent}  `,
            ),
          );
        }
        if (lines.length === 0) {
          this.omissions.add(
            'column',
            path,
            'Parquet has no empty groups: a struct without fields is left out',
          );
          return [];
        }
        return [`${indent}${repetition} group ${name} {`, ...lines, `${indent}}`];
      }
      case 'variant':
        return [
          `${indent}${repetition} group ${name} (VARIANT(1)) {`,
          `${indent}  required binary metadata;`,
          `${indent}  required binary value;`,
          `${indent}}`,
        ];
      default: {
        const primitive = this.primitive(type, path);
        if (primitive === null) return [];
        if (type.code === 'null' && repetition === 'required') {
          this.omissions.add('nullability', path, 'a column of nulls only is optional in Parquet');
          repetition = 'optional';
        }
        const annotation = primitive.annotation === undefined ? '' : ` (${primitive.annotation})`;
        return [`${indent}${repetition} ${primitive.physical} ${name}${annotation};`];
      }
    }
  }

  private primitive(type: TranslatedType, path: string): Primitive | null {
    const p = type.params;
    switch (type.code) {
      case 'null':
        return { physical: 'int32', annotation: 'UNKNOWN' };
      case 'boolean':
        return { physical: 'boolean' };
      case 'int8':
      case 'int16':
      case 'uint8':
      case 'uint16':
      case 'uint32': {
        const bits = type.code.replace(/^u?int/, '');
        return { physical: 'int32', annotation: `INTEGER(${bits},${!type.code.startsWith('u')})` };
      }
      case 'int32':
        return { physical: 'int32' };
      case 'int64':
        return { physical: 'int64' };
      case 'uint64':
        return { physical: 'int64', annotation: 'INTEGER(64,false)' };
      case 'float16':
        return { physical: 'fixed_len_byte_array(2)', annotation: 'FLOAT16' };
      case 'float32':
        return { physical: 'float' };
      case 'float64':
        return { physical: 'double' };
      case 'decimal': {
        const precision = Number(p.precision);
        const scale = Number(p.scale ?? 0);
        const annotation = `DECIMAL(${precision},${scale})`;
        if (precision <= 9) return { physical: 'int32', annotation };
        if (precision <= 18) return { physical: 'int64', annotation };
        return { physical: `fixed_len_byte_array(${decimalBytes(precision)})`, annotation };
      }
      case 'date32':
      case 'date64':
        return { physical: 'int32', annotation: 'DATE' };
      case 'time32':
        // Seconds are written as milliseconds (as Arrow does): every value kept.
        return { physical: 'int32', annotation: 'TIME(MILLIS,false)' };
      case 'time64':
        return { physical: 'int64', annotation: `TIME(${UNITS[String(p.unit)] ?? 'MICROS'},false)` };
      case 'timestamp': {
        const utc = typeof p.timezone === 'string';
        if (utc && !/^(UTC|Z|[+-]00:?00|Etc\/UTC)$/i.test(p.timezone as string))
          this.omissions.add(
            'column',
            path,
            `the time zone ${p.timezone as string} is not kept: Parquet stores the instant in UTC`,
          );
        return { physical: 'int64', annotation: `TIMESTAMP(${UNITS[String(p.unit)] ?? 'MILLIS'},${utc})` };
      }
      case 'duration':
        this.omissions.add(
          'column',
          path,
          `Parquet has no duration type: written as a plain int64 of ${String(p.unit)}`,
        );
        return { physical: 'int64' };
      case 'interval':
        if (p.unit === 'month_day_nano')
          this.omissions.add(
            'column',
            path,
            'Parquet INTERVAL holds milliseconds: nanoseconds below are lost',
          );
        return { physical: 'fixed_len_byte_array(12)', annotation: 'INTERVAL' };
      case 'utf8':
      case 'large_utf8':
        return { physical: 'binary', annotation: 'STRING' };
      case 'binary':
      case 'large_binary':
        return { physical: 'binary' };
      case 'fixed_size_binary':
        return { physical: `fixed_len_byte_array(${Number(p.byte_width)})` };
      case 'uuid':
        return { physical: 'fixed_len_byte_array(16)', annotation: 'UUID' };
      case 'json':
        return { physical: 'binary', annotation: 'JSON' };
      case 'geometry':
      case 'geography': {
        let crs = typeof p.crs === 'string' ? p.crs : null;
        const name = type.code.toUpperCase();
        if (crs !== null && !/^[A-Za-z0-9_:./-]+$/.test(crs)) {
          this.omissions.add(
            'column',
            path,
            `the CRS ${crs} does not fit the notation: the default (OGC:CRS84) is written`,
          );
          crs = null;
        }
        return { physical: 'binary', annotation: crs === null ? name : `${name}(${crs})` };
      }
      case 'union':
        this.omissions.add('column', path, 'Parquet has no union type: the column is left out');
        return null;
      default:
        this.omissions.add('column', path, `${type.code} is not a storage_files type: left out`);
        return null;
    }
  }

  private missing(type: TranslatedType, path: string, slot: string): [] {
    this.omissions.add('column', path, `the ${type.code} has no ${slot} type Parquet can hold: left out`);
    return [];
  }
}

/** The fewest bytes whose two's-complement range holds every unscaled value of that many digits. */
function decimalBytes(precision: number): number {
  let bytes = 1;
  while (Math.floor(Math.log10(2) * (8 * bytes - 1)) < precision) bytes += 1;
  return bytes;
}
