// The table as a proto3 file: one message named after the table (PascalCase), a field per column
// (snake_case, numbered 1..n in column order), nested messages for structs, `repeated` for lists,
// `map<K, V>` for maps, the well-known types imported when used, nullable scalars `optional`.
// What proto3 cannot say — defaults, keys, NOT NULL on a message field, a null list item — is
// reported. See docs/translation-formats.md.
import type { Omissions, TranslatedTable, TranslatedType } from '../translated-table.js';
import {
  NameScope,
  childIn,
  fieldsOf,
  isNullDefault,
  pascalCase,
  paths,
  reportTableConstraints,
  reportUnmapped,
  snakeCase,
} from './common.js';

const FORMAT = 'Protobuf';
const SCALARS = new Set([
  'double',
  'float',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'bool',
  'string',
  'bytes',
]);
/** Map keys: integral, bool or string scalars (not floating point, not bytes). */
const MAP_KEYS = new Set([...SCALARS].filter((code) => !['double', 'float', 'bytes'].includes(code)));
const WELL_KNOWN: Record<string, { name: string; file: string }> = {
  timestamp: { name: 'google.protobuf.Timestamp', file: 'google/protobuf/timestamp.proto' },
  duration: { name: 'google.protobuf.Duration', file: 'google/protobuf/duration.proto' },
  any: { name: 'google.protobuf.Any', file: 'google/protobuf/any.proto' },
  struct: { name: 'google.protobuf.Struct', file: 'google/protobuf/struct.proto' },
  value: { name: 'google.protobuf.Value', file: 'google/protobuf/struct.proto' },
  list_value: { name: 'google.protobuf.ListValue', file: 'google/protobuf/struct.proto' },
  empty: { name: 'google.protobuf.Empty', file: 'google/protobuf/empty.proto' },
  field_mask: { name: 'google.protobuf.FieldMask', file: 'google/protobuf/field_mask.proto' },
  double_value: { name: 'google.protobuf.DoubleValue', file: 'google/protobuf/wrappers.proto' },
  float_value: { name: 'google.protobuf.FloatValue', file: 'google/protobuf/wrappers.proto' },
  int64_value: { name: 'google.protobuf.Int64Value', file: 'google/protobuf/wrappers.proto' },
  uint64_value: { name: 'google.protobuf.UInt64Value', file: 'google/protobuf/wrappers.proto' },
  int32_value: { name: 'google.protobuf.Int32Value', file: 'google/protobuf/wrappers.proto' },
  uint32_value: { name: 'google.protobuf.UInt32Value', file: 'google/protobuf/wrappers.proto' },
  bool_value: { name: 'google.protobuf.BoolValue', file: 'google/protobuf/wrappers.proto' },
  string_value: { name: 'google.protobuf.StringValue', file: 'google/protobuf/wrappers.proto' },
  bytes_value: { name: 'google.protobuf.BytesValue', file: 'google/protobuf/wrappers.proto' },
  date: { name: 'google.type.Date', file: 'google/type/date.proto' },
};

/** A proto package: dot-separated snake_case identifiers; null when nothing is left. */
export function protoPackage(namespace: string | null): string | null {
  if (namespace === null) return null;
  const parts = namespace
    .split('.')
    .filter((part) => part.trim() !== '')
    .map(snakeCase);
  return parts.length === 0 ? null : parts.join('.');
}

export function renderProtobuf(table: TranslatedTable, omissions: Omissions): string {
  const renderer = new ProtoRenderer(omissions);
  const name = pascalCase(table.name);
  const message = new MessageBuilder(name);
  for (const column of table.columns) {
    if (column.type === null) {
      reportUnmapped(column, omissions, FORMAT);
      continue;
    }
    if (column.default !== null && !isNullDefault(column))
      omissions.add('default', column.name, `proto3 has no field defaults: ${column.default} is not carried`);
    renderer.field(message, column.name, column.type, column.nullable, column.name, column.comment);
  }
  reportTableConstraints(table, omissions, FORMAT);

  const lines = ['syntax = "proto3";', ''];
  const pkg = protoPackage(table.namespace);
  if (pkg !== null) lines.push(`package ${pkg};`, '');
  if (renderer.imports.size > 0) {
    for (const file of [...renderer.imports].sort()) lines.push(`import "${file}";`);
    lines.push('');
  }
  lines.push(...commentLines(table.comment, ''), ...message.lines(''));
  return `${lines.join('\n')}\n`;
}

function commentLines(comment: string | null, indent: string): string[] {
  if (comment === null) return [];
  return comment.split(/\r?\n/).map((line) => `${indent}//${line === '' ? '' : ` ${line}`}`);
}

/** A message being written: its fields numbered in order, its nested types, its names. */
class MessageBuilder {
  readonly fields: { comment: string | null; text: string }[] = [];
  readonly nested: MessageBuilder[] = [];
  readonly fieldNames = new NameScope();
  readonly typeNames = new NameScope();
  /** A `oneof` the message holds instead of plain fields (a union's wrapper message). */
  oneof: string | null = null;

  constructor(readonly name: string) {
    this.typeNames.claim(name);
  }

  add(label: string, type: string, name: string, comment: string | null = null): void {
    this.fields.push({ comment, text: `${label}${type} ${name} = ${this.fields.length + 1};` });
  }

  lines(indent: string): string[] {
    const inner = `${indent}  `;
    const body: string[] = [];
    const fieldIndent = this.oneof === null ? inner : `${inner}  `;
    for (const field of this.fields)
      body.push(...commentLines(field.comment, fieldIndent), `${fieldIndent}${field.text}`);
    if (this.oneof !== null) {
      body.unshift(`${inner}oneof ${this.oneof} {`);
      body.push(`${inner}}`);
    }
    for (const nested of this.nested) body.push('', ...nested.lines(inner));
    if (body.length === 0) return [`${indent}message ${this.name} {}`];
    return [`${indent}message ${this.name} {`, ...body, `${indent}}`];
  }
}

class ProtoRenderer {
  readonly imports = new Set<string>();

  constructor(private readonly omissions: Omissions) {}

  /** Adds a field for the type to the message: `optional`, `repeated` or `map<…>` as it needs. */
  field(
    message: MessageBuilder,
    wanted: string,
    type: TranslatedType,
    nullable: boolean,
    path: string,
    comment: string | null = null,
  ): void {
    const name = message.fieldNames.claim(snakeCase(wanted));
    if (name !== wanted && lowerCamel(name) !== wanted)
      this.omissions.add('column', path, `named ${name}: protobuf field names are snake_case identifiers`);
    if (type.code === 'repeated') {
      const item = childIn(type, 'item', 'element');
      if (item === null) {
        this.missing(type, path, 'item');
        return;
      }
      if (nullable) this.lostNull(path, 'a repeated field is empty, never null');
      if (item.nullable) this.lostNull(paths.element(path), 'a repeated field cannot hold null items');
      const element = this.single(message, item.type, paths.element(path), `${wanted} item`);
      if (element === null) return;
      message.add('repeated ', element.text, name, comment);
      return;
    }
    if (type.code === 'map') {
      const map = this.map(message, type, path, wanted);
      if (map === null) return;
      if (nullable) this.lostNull(path, 'a map field is empty, never null');
      message.add(map.label, map.text, name, comment);
      return;
    }
    const single = this.single(message, type, path, wanted);
    if (single === null) return;
    if (!single.scalar && !nullable)
      this.lostNull(path, 'a message field may always be absent: NOT NULL is not enforced');
    message.add(single.scalar && nullable ? 'optional ' : '', single.text, name, comment);
  }

  /** `map<K, V>`; keys proto cannot take make it `repeated <Entry>` with a key and a value. */
  private map(
    message: MessageBuilder,
    type: TranslatedType,
    path: string,
    wanted: string,
  ): { label: string; text: string } | null {
    const key = childIn(type, 'key');
    const value = childIn(type, 'value');
    if (key === null) return this.missing(type, path, 'key');
    if (value === null) return this.missing(type, path, 'value');
    if (value.nullable) this.lostNull(paths.value(path), 'map values cannot be null');
    if (key.nullable) this.lostNull(paths.key(path), 'map keys cannot be null');
    if (MAP_KEYS.has(key.type.code)) {
      const valueType = this.single(message, value.type, paths.value(path), `${wanted} value`);
      if (valueType === null) return null;
      return { label: '', text: `map<${key.type.code}, ${valueType.text}>` };
    }
    const entry = new MessageBuilder(message.typeNames.claim(pascalCase(`${wanted} entry`)));
    const keyType = this.single(entry, key.type, paths.key(path), 'key');
    const valueType = this.single(entry, value.type, paths.value(path), 'value');
    if (keyType === null || valueType === null) return null;
    this.omissions.add(
      'column',
      paths.key(path),
      `protobuf map keys are integral, bool or string: written as repeated ${entry.name} { key, value }`,
    );
    entry.add('', keyType.text, 'key');
    entry.add('', valueType.text, 'value');
    message.nested.push(entry);
    return { label: 'repeated ', text: entry.name };
  }

  /** A type usable as one value (a oneof member, a list item, a map value): no label of its own. */
  private single(
    message: MessageBuilder,
    type: TranslatedType,
    path: string,
    hint: string,
  ): { text: string; scalar: boolean } | null {
    if (SCALARS.has(type.code)) return { text: type.code, scalar: true };
    const wellKnown = WELL_KNOWN[type.code];
    if (wellKnown !== undefined) {
      this.imports.add(wellKnown.file);
      return { text: wellKnown.name, scalar: false };
    }
    switch (type.code) {
      case 'enum':
        this.omissions.add(
          'check',
          path,
          `the values of enum ${nameParam(type) ?? hint} are not known here: written as a string, the allowed values are lost`,
        );
        return { text: 'string', scalar: true };
      case 'message': {
        const nested = new MessageBuilder(message.typeNames.claim(pascalCase(nameParam(type) ?? hint)));
        const fields = fieldsOf(type);
        if (fields.length === 0)
          this.omissions.add(
            'column',
            path,
            `the fields of message ${nested.name} are not known: declared empty`,
          );
        for (const field of fields)
          this.field(nested, field.name, field.type, field.nullable, paths.field(path, field.name));
        message.nested.push(nested);
        return { text: nested.name, scalar: false };
      }
      case 'oneof': {
        const nested = new MessageBuilder(message.typeNames.claim(pascalCase(hint)));
        nested.oneof = snakeCase(nameParam(type) ?? 'value');
        for (const field of fieldsOf(type)) {
          const fieldPath = paths.field(path, field.name);
          const member = this.single(nested, field.type, fieldPath, field.name);
          if (member === null) continue;
          if (field.nullable) this.lostNull(fieldPath, 'a oneof member is set or not, never null');
          nested.add('', member.text, nested.fieldNames.claim(snakeCase(field.name)));
        }
        message.nested.push(nested);
        return { text: nested.name, scalar: false };
      }
      case 'repeated':
      case 'map': {
        // A list or map inside a list, map or oneof: wrapped in a message of one field.
        const wrapper = new MessageBuilder(message.typeNames.claim(pascalCase(hint)));
        this.field(wrapper, type.code === 'map' ? 'entries' : 'items', type, false, path);
        message.nested.push(wrapper);
        return { text: wrapper.name, scalar: false };
      }
      default:
        this.omissions.add('column', path, `${type.code} is not a protobuf type: left out`);
        return null;
    }
  }

  private lostNull(path: string, reason: string): void {
    this.omissions.add('nullability', path, reason);
  }

  private missing(type: TranslatedType, path: string, slot: string): null {
    this.omissions.add('column', path, `the ${type.code} has no ${slot} type protobuf can hold: left out`);
    return null;
  }
}

function nameParam(type: TranslatedType): string | null {
  return typeof type.params.name === 'string' && type.params.name !== '' ? type.params.name : null;
}

function lowerCamel(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, char: string) => char.toUpperCase());
}
