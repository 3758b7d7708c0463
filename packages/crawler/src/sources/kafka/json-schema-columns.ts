// JSON Schema (draft-07 to 2020-12) → columns in the `json_schema` flavor's codes
// (packages/backend/seeds/json_schema.yaml). An object's properties are the columns, in order;
// `required` and `null` in a type array or a oneOf/anyOf branch decide nullability. `$ref` is followed
// inside the document (`#/$defs/…`, `#/definitions/…`) and into referenced documents by their name.
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

/** String formats with their own code (others are annotations on a plain string). */
const FORMATS: Record<string, string> = {
  date: 'date',
  time: 'time',
  'date-time': 'date_time',
  duration: 'duration',
  uuid: 'uuid',
  email: 'email',
  uri: 'uri',
  hostname: 'hostname',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
};

interface Mapped {
  type: TypeNode | null;
  native: string;
  nullable: boolean;
}

/** A schema in scope: the subschema and the document it sits in (for its `$ref`s). */
interface Located {
  schema: Json;
  document: string;
}

const ANY: Mapped = { type: { data_type: 'any' }, native: '{}', nullable: true };

class JsonSchemaMapper {
  readonly problems: SourceProblem[] = [];
  private readonly documents = new Map<string, Json>();
  /** The `$ref`s being expanded: a reference back to one is a recursive schema. */
  private readonly expanding = new Set<string>();

  constructor(private readonly path: string) {}

  add(name: string, root: Json): void {
    this.documents.set(name, root);
  }

  private problem(at: string, reason: string): void {
    this.problems.push({ path: `${this.path}: ${at}`, reason });
  }

  /** The target of a `$ref`: a JSON pointer into its document, another document by name, or null. */
  resolve(ref: string, document: string): Located | null {
    const hash = ref.indexOf('#');
    const base = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? '' : ref.slice(hash + 1);
    const name = base === '' ? document : base;
    let node: Json | undefined = this.documents.get(name);
    if (node === undefined) return null;
    for (const raw of pointer.split('/').slice(1)) {
      const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
      if (node === undefined) return null;
    }
    return { schema: node, document: name };
  }

  map(schema: Json, document: string, at: string): Mapped {
    if (schema === true || (isObject(schema) && Object.keys(schema).every((k) => !TYPE_KEYWORDS.has(k))))
      return ANY;
    if (!isObject(schema)) {
      this.problem(at, `a schema no value satisfies (${JSON.stringify(schema)})`);
      return { type: null, native: JSON.stringify(schema), nullable: false };
    }
    if (typeof schema['$ref'] === 'string') return this.mapRef(schema['$ref'], document, at);
    if (Array.isArray(schema['enum'])) return this.mapEnum(schema['enum']);
    if (schema['const'] !== undefined) return this.mapEnum([schema['const']]);
    const branches = schema['oneOf'] ?? schema['anyOf'];
    if (Array.isArray(branches)) return this.mapBranches(branches, document, at);
    if (Array.isArray(schema['allOf'])) return this.mapAllOf(schema['allOf'], document, at);
    const type = schema['type'];
    if (Array.isArray(type)) {
      const others = type.filter((t) => t !== 'null');
      const branchesOfType = others.map((t) => ({ ...schema, type: t }));
      const mapped =
        branchesOfType.length === 1
          ? this.map(branchesOfType[0], document, at)
          : this.mapBranches(branchesOfType, document, at);
      return { ...mapped, nullable: mapped.nullable || others.length < type.length };
    }
    const kind =
      typeof type === 'string'
        ? type
        : isObject(schema['properties'])
          ? 'object'
          : schema['items'] !== undefined
            ? 'array'
            : null;
    switch (kind) {
      case 'null':
        return { type: { data_type: 'null' }, native: 'null', nullable: true };
      case 'boolean':
      case 'integer':
      case 'number':
        return { type: { data_type: kind }, native: kind, nullable: false };
      case 'string':
        return this.mapString(schema);
      case 'array': {
        const items = schema['items'] ?? schema['prefixItems'];
        const element = Array.isArray(items)
          ? this.mapBranches(items, document, `${at}[]`)
          : items === undefined
            ? ANY
            : this.map(items, document, `${at}[]`);
        if (element.type === null) return { type: null, native: `array<${element.native}>`, nullable: false };
        return {
          type: { data_type: 'array', children: [{ slot: 'element', type: element.type }] },
          native: `array<${element.native}>`,
          nullable: false,
        };
      }
      case 'object':
        return this.mapObject(schema, document, at);
      default:
        this.problem(at, `unsupported JSON Schema type ${JSON.stringify(type)}`);
        return { type: null, native: JSON.stringify(type ?? null), nullable: false };
    }
  }

  private mapString(schema: JsonObject): Mapped {
    const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
    const code = format === undefined ? undefined : FORMATS[format];
    if (code !== undefined)
      return { type: { data_type: code }, native: `string (${format})`, nullable: false };
    if (schema['contentEncoding'] === 'base64')
      return { type: { data_type: 'bytes' }, native: 'string (base64)', nullable: false };
    const maxLength = schema['maxLength'];
    if (typeof maxLength === 'number' && Number.isInteger(maxLength) && maxLength >= 0) {
      return {
        type: { data_type: 'string', params: { max_length: maxLength } },
        native: `string(${maxLength})`,
        nullable: false,
      };
    }
    return {
      type: { data_type: 'string' },
      native: format === undefined ? 'string' : `string (${format})`,
      nullable: false,
    };
  }

  private mapEnum(values: Json[]): Mapped {
    const symbols = values
      .filter((v) => v !== null)
      .map((v) => JSON.stringify(v))
      .join(',');
    return {
      type: { data_type: 'enum', params: { symbols } },
      native: `enum [${symbols}]`,
      nullable: values.includes(null),
    };
  }

  private mapRef(ref: string, document: string, at: string): Mapped {
    const target = this.resolve(ref, document);
    if (target === null) {
      this.problem(at, `$ref '${ref}' does not resolve`);
      return { type: null, native: ref, nullable: false };
    }
    const key = `${target.document}#${ref.slice(ref.indexOf('#') + 1)}`;
    if (this.expanding.has(key)) {
      this.problem(at, `recursive $ref '${ref}': its properties are listed once, at its first use`);
      return { type: { data_type: 'object' }, native: ref, nullable: false };
    }
    this.expanding.add(key);
    const mapped = this.map(target.schema, target.document, at);
    this.expanding.delete(key);
    return mapped;
  }

  /** oneOf / anyOf / a type array: the null branch makes it nullable; one other branch is the type. */
  private mapBranches(branches: Json[], document: string, at: string): Mapped {
    const mapped = branches.map((branch, i) => ({ branch, i, ...this.map(branch, document, `${at}|${i}`) }));
    const others = mapped.filter((m) => m.type?.data_type !== 'null');
    const nullable = others.length < mapped.length || others.some((m) => m.nullable);
    const native = `oneOf<${mapped.map((m) => m.native).join(', ')}>`;
    if (others.length === 1) return { ...others[0], nullable };
    if (others.some((m) => m.type === null)) return { type: null, native, nullable };
    const tag = (m: (typeof others)[number]) => {
      const branch = m.branch;
      if (isObject(branch) && typeof branch['title'] === 'string') return branch['title'];
      if (isObject(branch) && typeof branch['$ref'] === 'string')
        return branch['$ref'].slice(branch['$ref'].lastIndexOf('/') + 1);
      return String(m.i);
    };
    return {
      type: {
        data_type: 'one_of',
        children: others.map((m) => ({ slot: `field:${tag(m)}`, type: m.type as TypeNode })),
      },
      native,
      nullable,
    };
  }

  /** allOf: the properties of its object branches together (the usual composition); else its one branch. */
  private mapAllOf(branches: Json[], document: string, at: string): Mapped {
    const objects = branches.map((b) => this.inline(b, document));
    if (objects.length === 1) return this.map(objects[0].schema, objects[0].document, at);
    if (
      objects.every(
        (o) => isObject(o.schema) && (o.schema['type'] === 'object' || isObject(o.schema['properties'])),
      )
    ) {
      const fields = objects.flatMap((o) => this.fields(o.schema as JsonObject, o.document, at));
      return this.objectOf(fields);
    }
    this.problem(at, 'allOf of schemas that are not all objects: read as any value');
    return ANY;
  }

  /** A schema with its `$ref` followed (for allOf). */
  private inline(schema: Json, document: string): Located {
    if (isObject(schema) && typeof schema['$ref'] === 'string')
      return this.resolve(schema['$ref'], document) ?? { schema, document };
    return { schema, document };
  }

  private mapObject(schema: JsonObject, document: string, at: string): Mapped {
    const extra =
      schema['additionalProperties'] ??
      (isObject(schema['patternProperties']) ? Object.values(schema['patternProperties'])[0] : undefined);
    if (!isObject(schema['properties']) && isObject(extra)) {
      const value = this.map(extra, document, `${at}{}`);
      if (value.type === null) return { type: null, native: `map<${value.native}>`, nullable: false };
      return {
        type: { data_type: 'map', children: [{ slot: 'value', type: value.type }] },
        native: `map<${value.native}>`,
        nullable: false,
      };
    }
    return this.objectOf(this.fields(schema, document, at));
  }

  private objectOf(fields: MappedField[]): Mapped {
    const children = fields
      .filter((f) => f.type !== null)
      .map((f) => ({ slot: `field:${f.name}`, type: f.type as TypeNode }));
    return {
      type: { data_type: 'object', ...(children.length > 0 ? { children } : {}) },
      native: 'object',
      nullable: false,
    };
  }

  /** An object schema's properties, in order. */
  fields(schema: JsonObject, document: string, at: string): MappedField[] {
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
    return Object.entries(properties).map(([name, property]) => {
      const mapped = this.map(property, document, at === '' ? name : `${at}.${name}`);
      const own = isObject(property) ? property : {};
      const text = (key: string) => {
        const value = own[key];
        return typeof value === 'string' ? value : null;
      };
      return {
        name,
        native_type: mapped.native,
        type: mapped.type,
        nullable: mapped.nullable || !required.has(name),
        default: defaultText(own['default']),
        comment: text('description') ?? text('title'),
      };
    });
  }
}

/** Keywords that constrain a value's shape: a schema with none of them accepts any value. */
const TYPE_KEYWORDS = new Set([
  'type',
  '$ref',
  'enum',
  'const',
  'oneOf',
  'anyOf',
  'allOf',
  'properties',
  'items',
  'prefixItems',
  'additionalProperties',
  'patternProperties',
  'format',
]);

/** A JSON Schema's columns: an object's properties in order; any other schema is one column named after its role. */
export function jsonSchemaColumns(document: SchemaDocument, role: SchemaRole): MappedSchema {
  const mapper = new JsonSchemaMapper(document.path);
  let root: Json;
  try {
    for (const reference of document.references)
      mapper.add(reference.name, JSON.parse(reference.text) as Json);
    root = JSON.parse(document.text) as Json;
  } catch (error) {
    return unreadable(document.path, `not valid JSON: ${messageOf(error)}`);
  }
  if (!isObject(root) && typeof root !== 'boolean')
    return unreadable(document.path, 'not a JSON Schema (an object or a boolean)');
  mapper.add('', root);
  const top =
    isObject(root) && typeof root['$ref'] === 'string'
      ? (mapper.resolve(root['$ref'], '') ?? { schema: root, document: '' })
      : { schema: root, document: '' };
  const title = isObject(root) && typeof root['title'] === 'string' ? root['title'] : null;
  const comment = isObject(root) && typeof root['description'] === 'string' ? root['description'] : null;
  const schema = top.schema;
  if (
    isObject(schema) &&
    (schema['type'] === 'object' || isObject(schema['properties'])) &&
    !isObject(schema['additionalProperties'])
  ) {
    return {
      record_name: title,
      comment,
      columns: toColumns(mapper.fields(schema, top.document, '')),
      problems: mapper.problems,
    };
  }
  const mapped = mapper.map(schema, top.document, role);
  return { record_name: title, comment, columns: roleColumns(role, mapped), problems: mapper.problems };
}
