// Avro schemas (1.12) → columns in the `avro` flavor's codes (packages/backend/seeds/avro.yaml). avsc
// validates the schema as Avro readers would (names, defaults, references); the mapping then walks the
// schema JSON, where every attribute (logical types, docs, defaults) is as written. A union with
// `null` is the other branch, nullable; a field's default is kept as JSON text.
import avsc from 'avsc';
import type { SourceProblem, TypeNode } from '../../model.js';
import {
  defaultText,
  isObject,
  roleColumns,
  messageOf,
  toColumns,
  unreadable,
  type Json,
  type JsonObject,
  type MappedField,
  type MappedSchema,
  type SchemaDocument,
  type SchemaRole,
} from './schema-columns.js';

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);
const NAMED = new Set(['record', 'error', 'enum', 'fixed']);

/** Logical types on int/long/string/bytes: the code, when written on the type the specification puts it on. */
const LOGICAL_ON_PRIMITIVE: Record<string, Record<string, string>> = {
  int: { date: 'date', 'time-millis': 'time_millis' },
  long: {
    'time-micros': 'time_micros',
    'timestamp-millis': 'timestamp_millis',
    'timestamp-micros': 'timestamp_micros',
    'timestamp-nanos': 'timestamp_nanos',
    'local-timestamp-millis': 'local_timestamp_millis',
    'local-timestamp-micros': 'local_timestamp_micros',
    'local-timestamp-nanos': 'local_timestamp_nanos',
  },
  string: { uuid: 'uuid' },
  bytes: { 'big-decimal': 'big_decimal' },
};

interface Mapped {
  type: TypeNode | null;
  native: string;
  nullable: boolean;
}

/** Full name and namespace of a named type declared in `namespace` (Avro's name resolution). */
function fullName(name: string, namespace: string): { full: string; namespace: string } {
  if (name.includes('.')) return { full: name, namespace: name.slice(0, name.lastIndexOf('.')) };
  return { full: namespace === '' ? name : `${namespace}.${name}`, namespace };
}

const decimalDigits = (schema: JsonObject): { precision: number; scale: number } | null => {
  const precision = schema['precision'];
  const scale = schema['scale'] ?? 0;
  if (typeof precision !== 'number' || !Number.isInteger(precision) || precision < 1) return null;
  if (typeof scale !== 'number' || !Number.isInteger(scale) || scale < 0 || scale > precision) return null;
  return { precision, scale };
};

class AvroMapper {
  /** Named types by full name, with the namespace their own names resolve in. */
  private readonly named = new Map<string, { schema: JsonObject; namespace: string }>();
  /** The records being expanded: a reference back to one is a recursive type. */
  private readonly expanding = new Set<string>();
  readonly problems: SourceProblem[] = [];

  constructor(private readonly path: string) {}

  /** Records the named types a schema declares (a referenced document's, or the schema's own). */
  declare(schema: Json, namespace: string): void {
    if (Array.isArray(schema)) return schema.forEach((branch) => this.declare(branch, namespace));
    if (!isObject(schema)) return;
    const kind = schema['type'];
    if (typeof kind !== 'string') return this.declare(kind ?? null, namespace);
    if (NAMED.has(kind) && typeof schema['name'] === 'string') {
      const own = fullName(
        schema['name'],
        typeof schema['namespace'] === 'string' ? schema['namespace'] : namespace,
      );
      this.named.set(own.full, { schema, namespace: own.namespace });
      if (Array.isArray(schema['fields'])) {
        for (const field of schema['fields'])
          if (isObject(field)) this.declare(field['type'] ?? null, own.namespace);
      }
    }
    if (kind === 'array') this.declare(schema['items'] ?? null, namespace);
    if (kind === 'map') this.declare(schema['values'] ?? null, namespace);
  }

  map(schema: Json, namespace: string, at: string): Mapped {
    if (typeof schema === 'string') return this.mapName(schema, namespace, at);
    if (Array.isArray(schema)) return this.mapUnion(schema, namespace, at);
    if (!isObject(schema)) return this.unmapped(JSON.stringify(schema), at, 'not an Avro type');
    const kind = schema['type'];
    if (typeof kind !== 'string') return this.map(kind ?? null, namespace, at);
    if (typeof schema['logicalType'] === 'string') {
      const logical = this.mapLogical(schema, kind, schema['logicalType']);
      if (logical !== null) return logical;
    }
    if (PRIMITIVES.has(kind)) return { type: { data_type: kind }, native: kind, nullable: kind === 'null' };
    if (kind === 'array') {
      const items = this.map(schema['items'] ?? null, namespace, `${at}[]`);
      return this.withChild('array', `array<${items.native}>`, 'element', items);
    }
    if (kind === 'map') {
      const values = this.map(schema['values'] ?? null, namespace, `${at}{}`);
      return this.withChild('map', `map<${values.native}>`, 'value', values);
    }
    if (NAMED.has(kind) && typeof schema['name'] === 'string') {
      return this.mapNamed(
        fullName(schema['name'], typeof schema['namespace'] === 'string' ? schema['namespace'] : namespace)
          .full,
        at,
      );
    }
    return this.mapName(kind, namespace, at);
  }

  private withChild(code: string, native: string, slot: string, child: Mapped): Mapped {
    if (child.type === null) return { type: null, native, nullable: false };
    return { type: { data_type: code, children: [{ slot, type: child.type }] }, native, nullable: false };
  }

  private unmapped(native: string, at: string, reason: string): Mapped {
    this.problems.push({ path: `${this.path}: ${at}`, reason });
    return { type: null, native, nullable: false };
  }

  private mapName(name: string, namespace: string, at: string): Mapped {
    if (PRIMITIVES.has(name)) return { type: { data_type: name }, native: name, nullable: name === 'null' };
    const candidates = name.includes('.') ? [name] : [fullName(name, namespace).full, name];
    const found = candidates.find((candidate) => this.named.has(candidate));
    if (found === undefined) return this.unmapped(name, at, `unknown Avro type name '${name}'`);
    return this.mapNamed(found, at);
  }

  private mapNamed(full: string, at: string): Mapped {
    const entry = this.named.get(full);
    if (entry === undefined) return this.unmapped(full, at, `unknown Avro type name '${full}'`);
    const { schema, namespace } = entry;
    const name = full.slice(full.lastIndexOf('.') + 1);
    const params: Record<string, string | number> = { name };
    if (namespace !== '') params['avro_namespace'] = namespace;
    const kind = schema['type'];
    if (typeof schema['logicalType'] === 'string' && kind === 'fixed') {
      const logical = this.mapLogical(schema, 'fixed', schema['logicalType'], full);
      if (logical !== null) return logical;
    }
    if (kind === 'enum') {
      const symbols = Array.isArray(schema['symbols']) ? schema['symbols'] : [];
      params['symbols'] = symbols.map((s) => JSON.stringify(s)).join(',');
      if (typeof schema['default'] === 'string') params['default'] = schema['default'];
      return { type: { data_type: 'enum', params }, native: full, nullable: false };
    }
    if (kind === 'fixed') {
      params['size'] = typeof schema['size'] === 'number' ? schema['size'] : 0;
      return { type: { data_type: 'fixed', params }, native: full, nullable: false };
    }
    if (this.expanding.has(full)) {
      this.problems.push({
        path: `${this.path}: ${at}`,
        reason: `recursive reference to record ${full}: its fields are listed once, at its first use`,
      });
      return { type: { data_type: 'record', params }, native: full, nullable: false };
    }
    this.expanding.add(full);
    const fields = this.fields(schema, namespace, at);
    this.expanding.delete(full);
    const children = fields
      .filter((f) => f.type !== null)
      .map((f) => ({ slot: `field:${f.name}`, type: f.type as TypeNode }));
    return {
      type: { data_type: 'record', params, ...(children.length > 0 ? { children } : {}) },
      native: full,
      nullable: false,
    };
  }

  /** The top record's fields: a reference back to it inside is recursive. */
  topFields(record: JsonObject, full: string, namespace: string): MappedField[] {
    this.expanding.add(full);
    return this.fields(record, namespace, '');
  }

  /** A record's fields, in order. */
  private fields(record: JsonObject, namespace: string, at: string): MappedField[] {
    const fields = Array.isArray(record['fields']) ? record['fields'] : [];
    return fields.filter(isObject).map((field) => {
      const name = typeof field['name'] === 'string' ? field['name'] : '';
      const mapped = this.map(field['type'] ?? null, namespace, at === '' ? name : `${at}.${name}`);
      return {
        name,
        native_type: mapped.native,
        type: mapped.type,
        nullable: mapped.nullable,
        default: defaultText(field['default']),
        comment: typeof field['doc'] === 'string' ? field['doc'] : null,
      };
    });
  }

  private mapUnion(branches: Json[], namespace: string, at: string): Mapped {
    const mapped = branches.map((branch, i) => ({ branch, i, ...this.map(branch, namespace, at) }));
    const nullable = mapped.some((m) => m.type?.data_type === 'null');
    const others = mapped.filter((m) => m.type?.data_type !== 'null');
    const native = `union<${mapped.map((m) => m.native).join(', ')}>`;
    if (others.length === 1) return { ...others[0], native, nullable };
    if (others.some((m) => m.type === null)) return { type: null, native, nullable };
    // A union holds one branch per type name (Avro): the name before any detail is the branch's tag.
    const children = others.map((m) => ({
      slot: `field:${/^[^ <]+/.exec(m.native)?.[0] ?? m.i}`,
      type: m.type as TypeNode,
    }));
    return { type: { data_type: 'union', children }, native, nullable };
  }

  /** A logical type on the type it belongs to; null when misplaced or invalid (Avro then reads the base type). */
  private mapLogical(schema: JsonObject, kind: string, logical: string, full?: string): Mapped | null {
    const on = full ?? kind;
    if (logical === 'decimal' && (kind === 'bytes' || kind === 'fixed')) {
      const digits = decimalDigits(schema);
      if (digits === null) return null;
      const scale: Record<string, number> = schema['scale'] === undefined ? {} : { scale: digits.scale };
      const native = `${on} (decimal(${digits.precision},${digits.scale}))`;
      if (kind === 'bytes') {
        return {
          type: { data_type: 'decimal_bytes', params: { precision: digits.precision, ...scale } },
          native,
          nullable: false,
        };
      }
      const size = schema['size'];
      if (typeof size !== 'number' || full === undefined) return null;
      const name = full.slice(full.lastIndexOf('.') + 1);
      return {
        type: { data_type: 'decimal_fixed', params: { name, size, precision: digits.precision, ...scale } },
        native,
        nullable: false,
      };
    }
    if (kind === 'fixed' && full !== undefined) {
      const name = full.slice(full.lastIndexOf('.') + 1);
      if (logical === 'uuid' && schema['size'] === 16) {
        return {
          type: { data_type: 'uuid_fixed', params: { name } },
          native: `${on} (uuid)`,
          nullable: false,
        };
      }
      if (logical === 'duration' && schema['size'] === 12) {
        return {
          type: { data_type: 'duration', params: { name } },
          native: `${on} (duration)`,
          nullable: false,
        };
      }
      return null;
    }
    const code = LOGICAL_ON_PRIMITIVE[kind]?.[logical];
    return code === undefined
      ? null
      : { type: { data_type: code }, native: `${kind} (${logical})`, nullable: false };
  }
}

/**
 * avsc's parse of the schema after its references: throws what an Avro reader would refuse. The
 * references are taken in any order (a folder's files come unordered): each pass parses those whose
 * names are now known, on a copy of the registry so a failed parse leaves nothing behind.
 */
function validate(parsed: Json, references: Json[]): void {
  let registry: Record<string, avsc.Type> = {};
  let pending = references;
  while (pending.length > 0) {
    const failed = pending.filter((reference) => {
      const trial = { ...registry };
      try {
        avsc.Type.forSchema(reference as never, { registry: trial });
        registry = trial;
        return false;
      } catch {
        return true;
      }
    });
    if (failed.length === pending.length) break;
    pending = failed;
  }
  avsc.Type.forSchema(parsed as never, { registry });
}

/** An Avro schema's columns: a record's fields in order; any other schema is one column named after its role. */
export function avroColumns(document: SchemaDocument, role: SchemaRole): MappedSchema {
  let parsed: Json;
  const references: Json[] = [];
  try {
    for (const reference of document.references) references.push(JSON.parse(reference.text) as Json);
    parsed = JSON.parse(document.text) as Json;
    validate(parsed, references);
  } catch (error) {
    return unreadable(document.path, `not a valid Avro schema: ${messageOf(error)}`);
  }
  const mapper = new AvroMapper(document.path);
  for (const reference of references) mapper.declare(reference, '');
  mapper.declare(parsed, '');
  if (isObject(parsed) && (parsed['type'] === 'record' || parsed['type'] === 'error')) {
    const name = typeof parsed['name'] === 'string' ? parsed['name'] : '';
    const own = fullName(name, typeof parsed['namespace'] === 'string' ? parsed['namespace'] : '');
    const fields = mapper.topFields(parsed, own.full, own.namespace);
    return {
      record_name: own.full,
      comment: typeof parsed['doc'] === 'string' ? parsed['doc'] : null,
      columns: toColumns(fields),
      problems: mapper.problems,
    };
  }
  const mapped = mapper.map(parsed, '', role);
  return { record_name: null, comment: null, columns: roleColumns(role, mapped), problems: mapper.problems };
}
