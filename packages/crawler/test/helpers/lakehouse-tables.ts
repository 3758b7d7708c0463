// Delta and Iceberg tables laid out on disk as their writers lay them out: Delta's `_delta_log` commits
// (newline-delimited JSON actions, protocol §"Delta Log Entries") and checkpoints (Parquet, written by
// hyparquet-writer), Iceberg's `metadata/*.metadata.json` (spec §"Table Metadata"). Data files are
// written as junk bytes: the crawler must never open them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';

export interface SparkFieldSpec {
  name: string;
  type: unknown;
  nullable?: boolean;
  metadata?: Record<string, unknown>;
}

export function write(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

export function deltaVersion(version: number): string {
  return String(version).padStart(20, '0');
}

export function metaDataAction(
  fields: SparkFieldSpec[],
  partitionColumns: string[] = [],
  configuration: Record<string, string> = {},
  description?: string,
) {
  return {
    metaData: {
      id: 'a6f3b1f0-0000-4000-8000-000000000001',
      ...(description === undefined ? {} : { description }),
      format: { provider: 'parquet', options: {} },
      schemaString: JSON.stringify({
        type: 'struct',
        fields: fields.map((f) => ({ nullable: true, metadata: {}, ...f })),
      }),
      partitionColumns,
      configuration,
      createdTime: 1765000000000,
    },
  };
}

export const protocolAction = { protocol: { minReaderVersion: 1, minWriterVersion: 2 } };

export function addAction(path: string) {
  return {
    add: { path, partitionValues: {}, size: 4, modificationTime: 1765000000000, dataChange: true },
  };
}

/** One commit file of `actions`, plus the junk data file each `add` names. */
export function writeDeltaCommit(table: string, version: number, actions: object[]): void {
  const lines = [{ commitInfo: { timestamp: 1765000000000, operation: 'WRITE' } }, ...actions];
  write(
    join(table, '_delta_log', `${deltaVersion(version)}.json`),
    `${lines.map((a) => JSON.stringify(a)).join('\n')}\n`,
  );
  for (const action of actions) {
    const add = (action as { add?: { path: string } }).add;
    if (add !== undefined) write(join(table, add.path), 'PAR1');
  }
}

/** A classic single-file checkpoint holding the table's protocol and metadata (and `_last_checkpoint`). */
export function writeDeltaCheckpoint(
  table: string,
  version: number,
  metaData: ReturnType<typeof metaDataAction>['metaData'],
): void {
  const utf8 = { type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' } as const;
  const schema = [
    { name: 'root', num_children: 2 },
    { name: 'protocol', repetition_type: 'OPTIONAL', num_children: 2 },
    { name: 'minReaderVersion', type: 'INT32', repetition_type: 'OPTIONAL' },
    { name: 'minWriterVersion', type: 'INT32', repetition_type: 'OPTIONAL' },
    { name: 'metaData', repetition_type: 'OPTIONAL', num_children: 4 },
    { name: 'id', ...utf8 },
    { name: 'schemaString', ...utf8 },
    { name: 'partitionColumns', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', ...utf8 },
    { name: 'configuration', repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1 },
    { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
    { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'value', ...utf8 },
  ];
  const { id, schemaString, partitionColumns, configuration } = metaData;
  const buffer = parquetWriteBuffer({
    schema: schema as Parameters<typeof parquetWriteBuffer>[0]['schema'],
    columnData: [
      { name: 'protocol', data: [protocolAction.protocol, null] },
      { name: 'metaData', data: [null, { id, schemaString, partitionColumns, configuration }] },
    ],
  });
  write(join(table, '_delta_log', `${deltaVersion(version)}.checkpoint.parquet`), new Uint8Array(buffer));
  write(join(table, '_delta_log', '_last_checkpoint'), JSON.stringify({ version, size: 2 }));
}

export interface IcebergMetadataSpec {
  schemas: { 'schema-id': number; fields: unknown[]; 'identifier-field-ids'?: number[] }[];
  currentSchemaId: number;
  partitionFields?: { 'source-id': number; 'field-id': number; name: string; transform: string }[];
  properties?: Record<string, string>;
}

export function icebergMetadata(location: string, spec: IcebergMetadataSpec): object {
  return {
    'format-version': 2,
    'table-uuid': '9c12d441-03fe-4693-9a96-a0705ddf69c1',
    location,
    'last-sequence-number': 1,
    'last-updated-ms': 1765000000000,
    'last-column-id': 20,
    'current-schema-id': spec.currentSchemaId,
    schemas: spec.schemas.map((s) => ({ type: 'struct', ...s })),
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: spec.partitionFields ?? [] }],
    'last-partition-id': 1000 + (spec.partitionFields?.length ?? 0),
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: spec.properties ?? {},
    'current-snapshot-id': -1,
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
  };
}

export function writeIcebergMetadata(table: string, fileName: string, metadata: object, gzip = false): void {
  const json = JSON.stringify(metadata);
  write(join(table, 'metadata', fileName), gzip ? gzipSync(json) : json);
}
