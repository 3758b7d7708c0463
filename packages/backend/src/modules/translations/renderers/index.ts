// Which outputs each target flavor has, and its default (ADR 0049). A translation casts into the target
// flavor's types, so each flavor has the format its types are written in: a combination not listed is
// TRANSLATION_FORMAT_UNSUPPORTED (details.formats lists the flavor's).
import type { TranslationFormat } from '@aide/schemas';
import type { Renderer } from '../translated-table.js';
import { renderAvro } from './avro.js';
import { renderJsonSchema } from './json-schema.js';
import { renderProtobuf } from './protobuf.js';
import { renderSqlDdl } from './sql-ddl.js';

export interface FlavorOutputs {
  /** The format answered when none is asked for. */
  default: TranslationFormat;
  formats: Partial<Record<TranslationFormat, Renderer>>;
}

const ddl = (renderer: Renderer): FlavorOutputs => ({ default: 'ddl', formats: { ddl: renderer } });

export const FLAVOR_OUTPUTS: Readonly<Record<string, FlavorOutputs>> = {
  postgres14: ddl(renderSqlDdl('postgres14')),
  mysql8: ddl(renderSqlDdl('mysql8')),
  sqlite3: ddl(renderSqlDdl('sqlite3')),
  avro: { default: 'avro', formats: { avro: renderAvro } },
  json_schema: { default: 'json_schema', formats: { json_schema: renderJsonSchema } },
  protobuf: { default: 'protobuf', formats: { protobuf: renderProtobuf } },
};

export const MEDIA_TYPES: Readonly<Record<TranslationFormat, string>> = {
  ddl: 'application/sql',
  avro: 'application/json',
  json_schema: 'application/json',
  protobuf: 'text/x-protobuf',
  parquet: 'text/plain',
};
