// The table as an Avro schema (Avro 1.12): one record named after the table, its fields in column
// order. A nullable field is the union ["null", T] with default null — or [T, "null"] when the column
// has a default Avro can hold, since a union's default belongs to its first branch. Named types
// (records, enums, fixed) get full names unique within the schema. See docs/translation-formats.md.
import type { Omissions, TranslatedColumn, TranslatedTable, TranslatedType } from '../translated-table.js';
import {
  NameScope,
  childIn,
  defaultLiteral,
  fieldsOf,
  paths,
  reportTableConstraints,
  reportUnmapped,
  type DefaultLiteral,
} from './common.js';

type AvroSchema = string | AvroSchema[] | { [key: string]: unknown };

const FORMAT = 'Avro';
const INT_RANGE = [-(2 ** 31), 2 ** 31 - 1] as const;
const LONG_RANGE = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] as const;
const EPOCH_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An Avro name: [A-Za-z_][A-Za-z0-9_]*. */
export function avroName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (cleaned === '') return '_';
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}

/** An Avro namespace: dot-separated Avro names; null when nothing is left. */
export function avroNamespace(namespace: string | null): string | null {
  if (namespace === null) return null;
  const parts = namespace
    .split('.')
    .filter((part) => part.trim() !== '')
    .map(avroName);
  return parts.length === 0 ? null : parts.join('.');
}

export function renderAvro(table: TranslatedTable, omissions: Omissions): string {
  const renderer = new AvroRenderer(omissions);
  const namespace = avroNamespace(table.namespace);
  const name = avroName(table.name);
  renderer.enclosing = namespace;
  renderer.named.add(fullName(name, namespace));
  const record: Record<string, unknown> = { type: 'record', name };
  if (namespace !== null) record.namespace = namespace;
  if (table.comment !== null) record.doc = table.comment;
  record.fields = renderer.columns(table.columns);
  reportTableConstraints(table, omissions, FORMAT);
  return `${JSON.stringify(record, null, 2)}\n`;
}

function fullName(name: string, namespace: string | null): string {
  return namespace === null ? name : `${namespace}.${name}`;
}

class AvroRenderer {
  /** Full names of the named types defined so far: Avro forbids defining one twice. */
  readonly named = new Set<string>();
  /** The namespace a named type without its own inherits (the enclosing record's). */
  enclosing: string | null = null;

  constructor(private readonly omissions: Omissions) {}

  columns(columns: TranslatedColumn[]): Record<string, unknown>[] {
    const scope = new NameScope();
    const fields: Record<string, unknown>[] = [];
    for (const column of columns) {
      if (column.type === null) {
        reportUnmapped(column, this.omissions, FORMAT);
        continue;
      }
      const name = this.fieldName(scope, column.name, column.name);
      const type = this.type(column.type, column.name);
      if (type === null) continue;
      const field: Record<string, unknown> = { name };
      if (column.comment !== null) field.doc = column.comment;
      Object.assign(field, this.withDefault(column, type));
      fields.push(field);
    }
    return fields;
  }

  /** The field's type and default: a default Avro cannot hold for the type is reported. */
  private withDefault(column: TranslatedColumn, type: AvroSchema): { type: AvroSchema; default?: unknown } {
    const literal = defaultLiteral(column.default);
    if (column.default !== null && (literal === null || literal.kind !== 'null')) {
      const value = literal === null ? undefined : avroDefault(type, literal);
      if (value !== undefined) return { type: column.nullable ? union(type, true) : type, default: value };
      this.omissions.add(
        'default',
        column.name,
        `the default ${column.default} is not a value Avro can hold for ${describe(type)}`,
      );
    } else if (literal?.kind === 'null' && !column.nullable) {
      this.omissions.add('default', column.name, 'a NULL default on a NOT NULL column has no Avro value');
    }
    return column.nullable ? { type: union(type, false), default: null } : { type };
  }

  private fieldName(scope: NameScope, name: string, path: string): string {
    const claimed = scope.claim(avroName(name));
    if (claimed !== name)
      this.omissions.add('column', path, `named ${claimed}: Avro names are [A-Za-z_][A-Za-z0-9_]*, unique`);
    return claimed;
  }

  /** A unique full name for a named type (`Address`, then `Address_2`…). */
  private typeName(
    wanted: unknown,
    fallback: string,
    namespace: unknown,
  ): { name: string; namespace?: string } {
    const base = avroName(typeof wanted === 'string' && wanted !== '' ? wanted : fallback);
    const space = typeof namespace === 'string' ? avroNamespace(namespace) : null;
    const effective = space ?? this.enclosing;
    let name = base;
    for (let n = 2; this.named.has(fullName(name, effective)); n += 1) name = `${base}_${n}`;
    this.named.add(fullName(name, effective));
    return space === null ? { name } : { name, namespace: space };
  }

  /** The Avro schema of a type; null (reported) when Avro has none. */
  type(type: TranslatedType, path: string): AvroSchema | null {
    const p = type.params;
    const fallbackName = path.replace(/[^A-Za-z0-9_]+/g, '_');
    switch (type.code) {
      case 'null':
      case 'boolean':
      case 'int':
      case 'long':
      case 'float':
      case 'double':
      case 'bytes':
      case 'string':
        return type.code;
      case 'record':
        return this.record(type, path, fallbackName);
      case 'enum':
        return this.enumType(type, path, fallbackName);
      case 'array': {
        const element = childIn(type, 'element', 'item');
        if (element === null) return this.missingChild(type, path, 'element');
        const items = this.type(element.type, paths.element(path));
        if (items === null) return this.missingChild(type, path, 'element');
        return { type: 'array', items: element.nullable ? union(items, false) : items };
      }
      case 'map': {
        const key = childIn(type, 'key');
        if (key !== null && key.type.code !== 'string')
          this.omissions.add(
            'column',
            paths.key(path),
            `Avro map keys are strings: ${describe(key.type.code)} keys are written as strings`,
          );
        const value = childIn(type, 'value');
        if (value === null) return this.missingChild(type, path, 'value');
        const values = this.type(value.type, paths.value(path));
        if (values === null) return this.missingChild(type, path, 'value');
        return { type: 'map', values: value.nullable ? union(values, false) : values };
      }
      case 'union': {
        const branches: AvroSchema[] = [];
        for (const field of fieldsOf(type)) {
          const branch = this.type(field.type, paths.field(path, field.name));
          if (branch === null) continue;
          // A union cannot hold a union: its branches join this one.
          for (const member of Array.isArray(branch) ? branch : [branch])
            if (!branches.some((known) => sameUnnamed(known, member))) branches.push(member);
        }
        if (branches.length === 0) return this.missingChild(type, path, 'field');
        return branches;
      }
      case 'fixed':
        return { type: 'fixed', ...this.typeName(p.name, fallbackName, p.avro_namespace), size: p.size };
      case 'decimal_bytes':
        return { type: 'bytes', logicalType: 'decimal', precision: p.precision, scale: p.scale ?? 0 };
      case 'decimal_fixed':
        return {
          type: 'fixed',
          ...this.typeName(p.name, fallbackName, undefined),
          size: p.size,
          logicalType: 'decimal',
          precision: p.precision,
          scale: p.scale ?? 0,
        };
      case 'big_decimal':
        return { type: 'bytes', logicalType: 'big-decimal' };
      case 'uuid':
        return { type: 'string', logicalType: 'uuid' };
      case 'uuid_fixed':
        return {
          type: 'fixed',
          ...this.typeName(p.name, fallbackName, undefined),
          size: 16,
          logicalType: 'uuid',
        };
      case 'date':
        return { type: 'int', logicalType: 'date' };
      case 'time_millis':
        return { type: 'int', logicalType: 'time-millis' };
      case 'time_micros':
        return { type: 'long', logicalType: 'time-micros' };
      case 'timestamp_millis':
      case 'timestamp_micros':
      case 'timestamp_nanos':
      case 'local_timestamp_millis':
      case 'local_timestamp_micros':
      case 'local_timestamp_nanos':
        return { type: 'long', logicalType: type.code.replace(/_/g, '-') };
      case 'duration':
        return {
          type: 'fixed',
          ...this.typeName(p.name, fallbackName, undefined),
          size: 12,
          logicalType: 'duration',
        };
      default:
        this.omissions.add('column', path, `${type.code} is not an Avro type: left out`);
        return null;
    }
  }

  private record(type: TranslatedType, path: string, fallbackName: string): AvroSchema | null {
    const named = this.typeName(type.params.name, fallbackName, type.params.avro_namespace);
    const scope = new NameScope();
    const fields: Record<string, unknown>[] = [];
    const outer = this.enclosing;
    this.enclosing = named.namespace ?? outer;
    for (const field of fieldsOf(type)) {
      const fieldPath = paths.field(path, field.name);
      const name = this.fieldName(scope, field.name, fieldPath);
      const fieldType = this.type(field.type, fieldPath);
      if (fieldType === null) continue;
      fields.push(
        field.nullable ? { name, type: union(fieldType, false), default: null } : { name, type: fieldType },
      );
    }
    this.enclosing = outer;
    return { type: 'record', ...named, fields };
  }

  private enumType(type: TranslatedType, path: string, fallbackName: string): AvroSchema {
    const symbols = parseSymbols(type.params.symbols);
    const valid =
      symbols !== null &&
      symbols.length > 0 &&
      symbols.every((symbol) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(symbol));
    if (!valid || new Set(symbols).size !== symbols.length) {
      this.omissions.add(
        'check',
        path,
        'the enum symbols are not Avro names: written as a string, the allowed values are lost',
      );
      return 'string';
    }
    const schema: Record<string, unknown> = {
      type: 'enum',
      ...this.typeName(type.params.name, fallbackName, type.params.avro_namespace),
      symbols,
    };
    if (typeof type.params.default === 'string' && symbols.includes(type.params.default))
      schema.default = type.params.default;
    return schema;
  }

  private missingChild(type: TranslatedType, path: string, slot: string): null {
    this.omissions.add('column', path, `the ${type.code} has no ${slot} type Avro can hold: left out`);
    return null;
  }
}

function parseSymbols(symbols: unknown): string[] | null {
  if (typeof symbols !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(`[${symbols}]`);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : null;
  } catch {
    return null;
  }
}

/** The type made nullable: "null" first (default null), or last when a non-null default comes first. */
function union(type: AvroSchema, nullLast: boolean): AvroSchema {
  const branches = (Array.isArray(type) ? type : [type]).filter((branch) => branch !== 'null');
  return nullLast ? [...branches, 'null'] : ['null', ...branches];
}

function sameUnnamed(a: AvroSchema, b: AvroSchema): boolean {
  return typeof a === 'string' && a === b;
}

function describe(type: AvroSchema): string {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return 'a union';
  const logical = type.logicalType;
  return typeof logical === 'string' ? `${String(type.type)} (${logical})` : String(type.type);
}

/** The JSON value Avro takes as this type's default for the literal; undefined when none fits. */
function avroDefault(type: AvroSchema, literal: DefaultLiteral): unknown {
  // A union's default is a value of its first branch.
  const first = Array.isArray(type) ? type[0] : type;
  if (first === undefined || literal.kind === 'null') return undefined;
  if (typeof first === 'string') return primitiveDefault(first, literal);
  if (Array.isArray(first)) return undefined;
  const logical = first.logicalType;
  if (first.type === 'enum')
    return literal.kind === 'string' && (first.symbols as string[]).includes(literal.value)
      ? literal.value
      : undefined;
  if (logical === 'uuid' && first.type === 'string') return primitiveDefault('string', literal);
  if (logical === 'date') {
    if (literal.kind === 'number') return primitiveDefault('int', literal);
    const match = literal.kind === 'string' ? EPOCH_DAY.exec(literal.value) : null;
    if (match === null) return undefined;
    const millis = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    const date = new Date(millis);
    if (date.getUTCMonth() !== Number(match[2]) - 1 || date.getUTCDate() !== Number(match[3]))
      return undefined;
    return millis / 86_400_000;
  }
  if (logical === undefined && (first.type === 'record' || first.type === 'array' || first.type === 'map'))
    return undefined;
  // Time, timestamp and decimal logical types: only their physical value (a number) is a valid default.
  if (
    typeof logical === 'string' &&
    (first.type === 'int' || first.type === 'long') &&
    literal.kind === 'number'
  )
    return primitiveDefault(first.type, literal);
  return undefined;
}

function primitiveDefault(type: string, literal: DefaultLiteral): unknown {
  switch (type) {
    case 'boolean':
      return literal.kind === 'boolean' ? literal.value : undefined;
    case 'int':
    case 'long': {
      const [min, max] = type === 'int' ? INT_RANGE : LONG_RANGE;
      return literal.kind === 'number' && literal.integer && literal.value >= min && literal.value <= max
        ? literal.value
        : undefined;
    }
    case 'float':
    case 'double':
      return literal.kind === 'number' ? literal.value : undefined;
    case 'string':
      return literal.kind === 'string' ? literal.value : undefined;
    default:
      return undefined;
  }
}
