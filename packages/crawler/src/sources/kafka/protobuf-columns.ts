// Protocol Buffers (proto3, and proto2 files they import) → columns in the `protobuf` flavor's codes
// (issue 24 brief §A.1). protobufjs parses the .proto text and every file it imports (the schema's
// references, google/protobuf/*.proto bundled with protobufjs, google/type/date.proto built in); the
// first message of the file is the topic's record, as Confluent's serializers take it. Its fields are
// the columns; a oneof is one column at its first member's place; `optional` makes a field nullable.
import protobuf from 'protobufjs';
import type { SourceProblem, TypeNode } from '../../model.js';
import {
  defaultText,
  messageOf,
  toColumns,
  unreadable,
  type MappedField,
  type MappedSchema,
  type SchemaDocument,
} from './schema-columns.js';

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

/** Well-known message types with their own code; the wrappers are nullable scalars. */
const WELL_KNOWN: Record<string, string> = {
  '.google.protobuf.Timestamp': 'timestamp',
  '.google.protobuf.Duration': 'duration',
  '.google.protobuf.Any': 'any',
  '.google.protobuf.Struct': 'struct',
  '.google.protobuf.Value': 'value',
  '.google.protobuf.ListValue': 'list_value',
  '.google.protobuf.Empty': 'empty',
  '.google.protobuf.FieldMask': 'field_mask',
  '.google.protobuf.DoubleValue': 'double_value',
  '.google.protobuf.FloatValue': 'float_value',
  '.google.protobuf.Int64Value': 'int64_value',
  '.google.protobuf.UInt64Value': 'uint64_value',
  '.google.protobuf.Int32Value': 'int32_value',
  '.google.protobuf.UInt32Value': 'uint32_value',
  '.google.protobuf.BoolValue': 'bool_value',
  '.google.protobuf.StringValue': 'string_value',
  '.google.protobuf.BytesValue': 'bytes_value',
  '.google.type.Date': 'date',
};

/**
 * Files a schema may import without a reference: google/type/date.proto (not bundled with protobufjs),
 * and Confluent's own, which its registry serves built in (field options and the decimal message; the
 * option extensions are left out: protobufjs reads custom options without resolving them).
 */
const BUILT_IN_FILES: Record<string, string> = {
  'google/type/date.proto':
    'syntax = "proto3";\npackage google.type;\nmessage Date { int32 year = 1; int32 month = 2; int32 day = 3; }',
  'confluent/meta.proto':
    'syntax = "proto3";\npackage confluent;\nmessage Meta { string doc = 1; map<string, string> params = 2; repeated string tags = 3; }',
  'confluent/type/decimal.proto':
    'syntax = "proto3";\npackage confluent.type;\nmessage Decimal { bytes value = 1; uint32 precision = 2; int32 scale = 3; }',
};

interface Mapped {
  type: TypeNode | null;
  native: string;
}

/** The package a type is declared in and its name within it (`Outer.Inner`). */
function placeOf(type: protobuf.Type | protobuf.Enum): { name: string; proto_package: string } {
  const names: string[] = [type.name];
  let parent = type.parent;
  while (parent instanceof protobuf.Type) {
    names.unshift(parent.name);
    parent = parent.parent;
  }
  const pkg = parent === null || parent instanceof protobuf.Root ? '' : parent.fullName.replace(/^\./, '');
  return { name: names.join('.'), proto_package: pkg };
}

const nameParams = (type: protobuf.Type | protobuf.Enum): Record<string, string> => {
  const { name, proto_package } = placeOf(type);
  return proto_package === '' ? { name } : { name, proto_package };
};

/** A real oneof (not the synthetic one protobufjs makes for a proto3 `optional` field). */
const realOneof = (field: protobuf.Field): protobuf.OneOf | null =>
  field.partOf !== null && field.options?.['proto3_optional'] !== true ? field.partOf : null;

class ProtobufMapper {
  readonly problems: SourceProblem[] = [];
  private readonly expanding = new Set<string>();

  constructor(private readonly path: string) {}

  private typeName(field: protobuf.Field, typeName: string): string {
    const resolved = field.resolvedType;
    return resolved === null || SCALARS.has(typeName) ? typeName : resolved.fullName.replace(/^\./, '');
  }

  /** A singular value of a field's (or a map value's) type. */
  private mapValue(field: protobuf.Field, typeName: string, at: string): Mapped {
    if (SCALARS.has(typeName)) return { type: { data_type: typeName }, native: typeName };
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Enum) {
      return {
        type: { data_type: 'enum', params: nameParams(resolved) },
        native: this.typeName(field, typeName),
      };
    }
    if (resolved instanceof protobuf.Type) return this.mapMessage(resolved, at);
    this.problems.push({ path: `${this.path}: ${at}`, reason: `unsupported field type '${typeName}'` });
    return { type: null, native: typeName };
  }

  mapMessage(message: protobuf.Type, at: string): Mapped {
    const full = message.fullName;
    const native = full.replace(/^\./, '');
    const known = WELL_KNOWN[full];
    if (known !== undefined) return { type: { data_type: known }, native };
    const params = nameParams(message);
    if (this.expanding.has(full)) {
      this.problems.push({
        path: `${this.path}: ${at}`,
        reason: `recursive reference to message ${native}: its fields are listed once, at its first use`,
      });
      return { type: { data_type: 'message', params }, native };
    }
    this.expanding.add(full);
    const children = this.fields(message, at)
      .filter((f) => f.type !== null)
      .map((f) => ({ slot: `field:${f.name}`, type: f.type as TypeNode }));
    this.expanding.delete(full);
    return { type: { data_type: 'message', params, ...(children.length > 0 ? { children } : {}) }, native };
  }

  private mapField(field: protobuf.Field, at: string): Mapped {
    if (field instanceof protobuf.MapField) {
      const key = { type: { data_type: field.keyType }, native: field.keyType };
      const value = this.mapValue(field, field.type, `${at}{}`);
      const native = `map<${key.native}, ${value.native}>`;
      if (value.type === null) return { type: null, native };
      return {
        type: {
          data_type: 'map',
          children: [
            { slot: 'key', type: key.type },
            { slot: 'value', type: value.type },
          ],
        },
        native,
      };
    }
    const value = this.mapValue(field, field.type, field.repeated ? `${at}[]` : at);
    if (!field.repeated) return value;
    const native = `repeated ${value.native}`;
    return value.type === null
      ? { type: null, native }
      : { type: { data_type: 'repeated', children: [{ slot: 'item', type: value.type }] }, native };
  }

  private mapOneof(oneof: protobuf.OneOf, at: string): MappedField {
    const members = oneof.fieldsArray.map((member) => ({
      member,
      ...this.mapField(member, `${at}.${member.name}`),
    }));
    const children = members
      .filter((m) => m.type !== null)
      .map((m) => ({ slot: `field:${m.member.name}`, type: m.type as TypeNode }));
    return {
      name: oneof.name,
      native_type: `oneof ${oneof.name} { ${members.map((m) => `${m.native} ${m.member.name}`).join('; ')} }`,
      type: { data_type: 'oneof', params: { name: oneof.name }, children },
      nullable: true,
      default: null,
      comment: oneof.comment ?? null,
    };
  }

  /** The top message's fields: a reference back to it inside is recursive. */
  topFields(message: protobuf.Type): MappedField[] {
    this.expanding.add(message.fullName);
    return this.fields(message, '');
  }

  /** A message's fields in declaration order; a oneof's members are one field, at the first one's place. */
  private fields(message: protobuf.Type, at: string): MappedField[] {
    const fields: MappedField[] = [];
    const seen = new Set<protobuf.OneOf>();
    for (const field of message.fieldsArray) {
      const path = at === '' ? field.name : `${at}.${field.name}`;
      const oneof = realOneof(field);
      if (oneof !== null) {
        if (!seen.has(oneof))
          fields.push(this.mapOneof(oneof, at === '' ? oneof.name : `${at}.${oneof.name}`));
        seen.add(oneof);
        continue;
      }
      const mapped = this.mapField(field, path);
      const optional = field.options?.['proto3_optional'] === true;
      // Presence: proto3 `optional`, proto2 `optional`, a message field; never repeated, map or required.
      const presence =
        !field.repeated &&
        !field.map &&
        !field.required &&
        (optional || field.hasPresence || field.resolvedType instanceof protobuf.Type);
      fields.push({
        name: field.name,
        native_type: optional ? `optional ${mapped.native}` : mapped.native,
        type: mapped.type,
        nullable: presence,
        default: defaultText(field.options?.['default']),
        comment: field.comment ?? null,
      });
    }
    return fields;
  }
}

/** Parses the file and, depth first, every file it imports into one root; throws on what protoc would refuse. */
function load(document: SchemaDocument): protobuf.Root {
  const root = new protobuf.Root();
  const references = new Map(document.references.map((r) => [r.name, r.text]));
  const loaded = new Set<string>();
  const parseFile = (name: string, text: string) => {
    if (loaded.has(name)) return;
    loaded.add(name);
    (protobuf.parse as unknown as { filename: string }).filename = name;
    const parsed = protobuf.parse(text, root, { keepCase: true, alternateCommentMode: true });
    for (const imported of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
      const text = references.get(imported);
      if (text !== undefined) {
        parseFile(imported, text);
        continue;
      }
      const bundled = protobuf.common.get(
        imported.slice(Math.max(0, imported.lastIndexOf('google/protobuf/'))),
      );
      if (bundled !== null && imported.includes('google/protobuf/')) {
        if (!loaded.has(imported)) root.addJSON(bundled.nested ?? {});
        loaded.add(imported);
      } else if (BUILT_IN_FILES[imported] !== undefined) parseFile(imported, BUILT_IN_FILES[imported]);
      else throw new Error(`import "${imported}" not found`);
    }
  };
  parseFile(document.path, document.text);
  root.resolveAll();
  return root;
}

/** The messages declared in a file, depth first in declaration order. */
function messagesOf(namespace: protobuf.NamespaceBase, file: string): protobuf.Type[] {
  return namespace.nestedArray.flatMap((nested) => {
    const own = nested instanceof protobuf.Type && nested.filename === file ? [nested] : [];
    const inner =
      nested instanceof protobuf.Type
        ? []
        : nested instanceof protobuf.Namespace
          ? messagesOf(nested, file)
          : [];
    return [...own, ...inner];
  });
}

/** A .proto file's columns: the fields of its first message. */
export function protobufColumns(document: SchemaDocument): MappedSchema {
  let root: protobuf.Root;
  try {
    root = load(document);
  } catch (error) {
    return unreadable(document.path, `not a valid .proto file: ${messageOf(error)}`);
  }
  const message = messagesOf(root, document.path)[0];
  if (message === undefined) return unreadable(document.path, 'the file declares no message');
  const mapper = new ProtobufMapper(document.path);
  const fields = mapper.topFields(message);
  return {
    record_name: message.fullName.replace(/^\./, ''),
    comment: message.comment ?? null,
    columns: toColumns(fields),
    problems: mapper.problems,
  };
}
