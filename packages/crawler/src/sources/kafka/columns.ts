// One entry point for the three formats: a schema document's columns.
import { avroColumns } from './avro-columns.js';
import { jsonSchemaColumns } from './json-schema-columns.js';
import { protobufColumns } from './protobuf-columns.js';
import type { MappedSchema, SchemaDocument, SchemaRole } from './schema-columns.js';

export function schemaColumns(document: SchemaDocument, role: SchemaRole): MappedSchema {
  switch (document.format) {
    case 'avro':
      return avroColumns(document, role);
    case 'json':
      return jsonSchemaColumns(document, role);
    case 'protobuf':
      return protobufColumns(document);
  }
}
