// What the three schema formats of Kafka topics (Avro, JSON Schema, Protobuf) map to: the columns of a
// dataset, typed in the format's own flavor, and the problems met on the way. Each format module is a
// set of pure functions from a schema document (and the documents it references) to a MappedSchema.
import type { InspectedColumn, SourceProblem, TypeNode } from '../../model.js';

/** The `format` attribute of a kafka dataset. */
export type SchemaFormat = 'avro' | 'json' | 'protobuf';

/** The flavor whose codes a format's types are mapped to. */
export const FLAVOR_OF_FORMAT: Record<SchemaFormat, string> = {
  avro: 'avro',
  json: 'json_schema',
  protobuf: 'protobuf',
};

/** A schema another one uses (an imported .proto, an Avro named type, a JSON Schema `$ref` target). */
export interface ReferencedDocument {
  /** The name the schema uses for it: an import path, a `$ref` URL, an Avro type's full name. */
  name: string;
  /** Where it came from, for problems: a file path or `subject version N`. */
  path: string;
  text: string;
}

/** One schema as a source gives it. */
export interface SchemaDocument {
  format: SchemaFormat;
  path: string;
  text: string;
  /** Every document it references, transitively, dependencies before their dependants. */
  references: readonly ReferencedDocument[];
}

/** Whether the schema is a topic's message value or its key: a non-record schema's one column is named so. */
export type SchemaRole = 'value' | 'key';

export interface MappedSchema {
  /** The full name of the record, message or titled object at the top; null when it has none. */
  record_name: string | null;
  comment: string | null;
  columns: InspectedColumn[];
  problems: SourceProblem[];
}

/** A mapped field before it gets its position. */
export interface MappedField {
  name: string;
  native_type: string;
  type: TypeNode | null;
  nullable: boolean;
  default: string | null;
  comment: string | null;
}

export function toColumns(fields: readonly MappedField[]): InspectedColumn[] {
  return fields.map((f, i) => ({
    name: f.name,
    ordinal: i + 1,
    native_type: f.native_type,
    type: f.type,
    nullable: f.nullable,
    default: f.default,
    comment: f.comment,
    identity: null,
    generated: null,
    collation: null,
    domain: null,
    on_update: null,
  }));
}

/** A schema that could not be read at all: no columns, one problem. */
export const unreadable = (path: string, reason: string): MappedSchema => ({
  record_name: null,
  comment: null,
  columns: [],
  problems: [{ path, reason }],
});

/** An error's message, whatever was thrown. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The JSON text of a default value (undefined: none). */
export const defaultText = (value: unknown): string | null =>
  value === undefined ? null : JSON.stringify(value);

/** Parsed JSON (Avro and JSON Schema documents). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A schema that is not a record: one column named after its role (`value`, `key`). */
export const roleColumns = (
  role: SchemaRole,
  mapped: { type: TypeNode | null; native: string; nullable: boolean },
): InspectedColumn[] =>
  toColumns([
    {
      name: role,
      native_type: mapped.native,
      type: mapped.type,
      nullable: mapped.nullable,
      default: null,
      comment: null,
    },
  ]);
