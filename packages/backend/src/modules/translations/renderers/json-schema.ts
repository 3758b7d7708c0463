// The table as a JSON Schema (draft 2020-12) of one row: an object with a property per column, in
// column order, `required` listing the NOT NULL columns, closed to other properties. A nullable
// property's type also admits null. See docs/translation-formats.md.
import type { Omissions, TranslatedColumn, TranslatedTable, TranslatedType } from '../translated-table.js';
import {
  childIn,
  defaultLiteral,
  fieldsOf,
  paths,
  reportTableConstraints,
  reportUnmapped,
} from './common.js';

type Schema = Record<string, unknown>;

const FORMAT = 'JSON Schema';
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const STRING_FORMATS: Record<string, string> = {
  date: 'date',
  time: 'time',
  date_time: 'date-time',
  duration: 'duration',
  uuid: 'uuid',
  email: 'email',
  uri: 'uri',
  hostname: 'hostname',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
};

/** The formats whose default literals are checked here; a default of another format is not carried. */
const CHECKED_FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

export function renderJsonSchema(table: TranslatedTable, omissions: Omissions): string {
  const properties: Schema = {};
  const required: string[] = [];
  for (const column of table.columns) {
    if (column.type === null) {
      reportUnmapped(column, omissions, FORMAT);
      continue;
    }
    const type = typeSchema(column.type, column.name, omissions);
    if (type === null) continue;
    const property = column.nullable ? nullable(type) : type;
    const withNotes: Schema = {};
    if (column.comment !== null) withNotes.description = column.comment;
    Object.assign(withNotes, property);
    addDefault(withNotes, column, omissions);
    properties[column.name] = withNotes;
    if (!column.nullable) required.push(column.name);
  }
  const document: Schema = { $schema: DIALECT, title: table.name };
  if (table.comment !== null) document.description = table.comment;
  Object.assign(document, { type: 'object', properties });
  if (required.length > 0) document.required = required;
  document.additionalProperties = false;
  reportTableConstraints(table, omissions, FORMAT);
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `default` when the column's default is a literal the property's schema accepts. */
function addDefault(property: Schema, column: TranslatedColumn, omissions: Omissions): void {
  if (column.default === null) return;
  const literal = defaultLiteral(column.default);
  const value = literal === null ? undefined : literal.kind === 'null' ? null : literal.value;
  if (value !== undefined && accepts(property, value)) {
    property.default = value;
    return;
  }
  omissions.add(
    'default',
    column.name,
    `the default ${column.default} is not a JSON value of the property's type`,
  );
}

/** Whether a schema of the shapes written here accepts the value (type, enum, maxLength). */
function accepts(schema: Schema, value: unknown): boolean {
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).includes(value);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const kind =
    value === null
      ? 'null'
      : typeof value === 'boolean'
        ? 'boolean'
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? 'integer'
            : 'number'
          : typeof value === 'string'
            ? 'string'
            : 'other';
  const typed = types.some((type) => type === kind || (type === 'number' && kind === 'integer'));
  if (!typed) return false;
  if (kind === 'string') {
    if (typeof schema.maxLength === 'number' && (value as string).length > schema.maxLength) return false;
    // A format is checked by the reader; a literal in another spelling (SQL's '2024-01-01 10:00') is not carried.
    if (schema.format !== undefined) {
      const pattern = CHECKED_FORMATS[schema.format as string];
      if (pattern === undefined || !pattern.test(value as string)) return false;
    }
    if (schema.contentEncoding !== undefined) return false;
  }
  return true;
}

/** The schema admitting null too: a type union, null among enum values, or a null branch. */
function nullable(schema: Schema): Schema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type))
    return (schema.type as string[]).includes('null')
      ? schema
      : { ...schema, type: [...(schema.type as string[]), 'null'] };
  if (Array.isArray(schema.enum))
    return (schema.enum as unknown[]).includes(null)
      ? schema
      : { ...schema, enum: [...(schema.enum as unknown[]), null] };
  if (Array.isArray(schema.oneOf)) return { oneOf: [...(schema.oneOf as Schema[]), { type: 'null' }] };
  if (Object.keys(schema).length === 0) return schema; // the empty schema admits null already
  return { anyOf: [schema, { type: 'null' }] };
}

function typeSchema(type: TranslatedType, path: string, omissions: Omissions): Schema | null {
  const format = STRING_FORMATS[type.code];
  if (format !== undefined) return { type: 'string', format };
  switch (type.code) {
    case 'null':
    case 'boolean':
    case 'integer':
    case 'number':
      return { type: type.code };
    case 'string':
      return typeof type.params.max_length === 'number'
        ? { type: 'string', maxLength: type.params.max_length }
        : { type: 'string' };
    case 'bytes':
      return { type: 'string', contentEncoding: 'base64' };
    case 'enum': {
      const values = parseValues(type.params.symbols);
      if (values !== null) return { enum: values };
      omissions.add(
        'check',
        path,
        'the enum values are not JSON values: written as a string, the allowed values are lost',
      );
      return { type: 'string' };
    }
    case 'array': {
      const element = childIn(type, 'element', 'item');
      const items = element === null ? null : typeSchema(element.type, paths.element(path), omissions);
      if (element === null || items === null) return missing(type, path, 'element', omissions);
      return { type: 'array', items: element.nullable ? nullable(items) : items };
    }
    case 'object': {
      const properties: Schema = {};
      const required: string[] = [];
      for (const field of fieldsOf(type)) {
        const fieldSchema = typeSchema(field.type, paths.field(path, field.name), omissions);
        if (fieldSchema === null) continue;
        properties[field.name] = field.nullable ? nullable(fieldSchema) : fieldSchema;
        if (!field.nullable) required.push(field.name);
      }
      const schema: Schema = { type: 'object', properties };
      if (required.length > 0) schema.required = required;
      schema.additionalProperties = false;
      return schema;
    }
    case 'map': {
      const key = childIn(type, 'key');
      if (key !== null && !['string', ...Object.keys(STRING_FORMATS)].includes(key.type.code))
        omissions.add(
          'column',
          paths.key(path),
          `JSON object keys are strings: ${key.type.code} keys are written as their text, their type is lost`,
        );
      const value = childIn(type, 'value');
      const values = value === null ? null : typeSchema(value.type, paths.value(path), omissions);
      if (value === null || values === null) return missing(type, path, 'value', omissions);
      return { type: 'object', additionalProperties: value.nullable ? nullable(values) : values };
    }
    case 'one_of': {
      const branches: Schema[] = [];
      for (const field of fieldsOf(type)) {
        const branch = typeSchema(field.type, paths.field(path, field.name), omissions);
        if (branch !== null) branches.push(field.nullable ? nullable(branch) : branch);
      }
      if (branches.length === 0) return missing(type, path, 'branch', omissions);
      return { oneOf: branches };
    }
    case 'any':
      return {};
    default:
      omissions.add('column', path, `${type.code} is not a JSON Schema type: left out`);
      return null;
  }
}

function missing(type: TranslatedType, path: string, slot: string, omissions: Omissions): null {
  omissions.add('column', path, `the ${type.code} has no ${slot} type JSON Schema can hold: left out`);
  return null;
}

function parseValues(symbols: unknown): unknown[] | null {
  if (typeof symbols !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(`[${symbols}]`);
    return Array.isArray(parsed) && parsed.length > 0 ? parsed : null;
  } catch {
    return null;
  }
}
