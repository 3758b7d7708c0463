// The current schema of an Iceberg table from its metadata files (`metadata/*.metadata.json`), as a
// path-based (Hadoop-style) table is found on storage: `version-hint.text` names the current version
// when present, else the highest numbered metadata file is current. Gzipped metadata
// (`.metadata.json.gz`, `.gz.metadata.json`) is read too. Spec: https://iceberg.apache.org/spec/#table-metadata
import { gunzipSync } from 'node:zlib';
import type { FileStore, StoredFile } from '../files/file-store.js';
import type { IcebergField } from './iceberg-types.js';

export interface IcebergPartitionField {
  /** The column the partition value is derived from. */
  source: string;
  /** `identity`, `year`, `month`, `day`, `hour`, `bucket[16]`, `truncate[4]`, `void`. */
  transform: string;
}

export interface IcebergTable {
  formatVersion: number;
  uuid: string | null;
  location: string | null;
  fields: IcebergField[];
  /** Column names of the schema's identifier fields (Iceberg's row identity). */
  identifierFields: string[];
  partitioning: IcebergPartitionField[];
  properties: Record<string, string>;
  /** The metadata file read, relative to the store's root. */
  metadataFile: string;
}

export class IcebergMetadataError extends Error {}

const METADATA = /(?:^|\/)(?:v(\d+)(?:-[^/]*)?|(\d+)-[^/]*)\.(?:gz\.)?metadata\.json(?:\.gz)?$/;

/** Reads the current metadata of the table whose `metadata/` files are `metadataFiles`. */
export async function readIcebergTable(
  store: FileStore,
  metadataFiles: StoredFile[],
  signal?: AbortSignal,
): Promise<IcebergTable> {
  const file = await currentMetadataFile(store, metadataFiles, signal);
  let raw = await store.read(file.path, 0, file.size, signal);
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      raw = gunzipSync(raw);
    } catch {
      throw new IcebergMetadataError(`${file.path} is not valid gzip`);
    }
  }
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw)) as Record<string, unknown>;
  } catch {
    throw new IcebergMetadataError(`${file.path} is not JSON`);
  }
  return parseTableMetadata(metadata, file.path);
}

async function currentMetadataFile(
  store: FileStore,
  files: StoredFile[],
  signal?: AbortSignal,
): Promise<StoredFile> {
  const candidates = files.flatMap((file) => {
    const match = METADATA.exec(file.path);
    return match === null ? [] : [{ file, version: Number(match[1] ?? match[2]) }];
  });
  if (candidates.length === 0) throw new IcebergMetadataError('the metadata folder holds no *.metadata.json');
  const hint = files.find((f) => f.path.endsWith('/version-hint.text') || f.path === 'version-hint.text');
  if (hint !== undefined) {
    const text = new TextDecoder().decode(await store.read(hint.path, 0, hint.size, signal)).trim();
    const hinted = /^\d+$/.test(text)
      ? candidates.find((c) => c.version === Number(text) && /(^|\/)v\d+\./.test(c.file.path))
      : candidates.find((c) => c.file.path.endsWith(`/${text}`));
    if (hinted !== undefined) return hinted.file;
  }
  return candidates.reduce((best, c) => (c.version > best.version ? c : best)).file;
}

export function parseTableMetadata(metadata: Record<string, unknown>, path: string): IcebergTable {
  const formatVersion = metadata['format-version'];
  if (typeof formatVersion !== 'number') throw new IcebergMetadataError(`${path} has no format-version`);
  const schema = currentSchema(metadata, path);
  const fields = schema.fields as IcebergField[];
  const names = new Map<number, string>(fields.map((f) => [f.id, f.name]));
  const identifierIds = Array.isArray(schema['identifier-field-ids']) ? schema['identifier-field-ids'] : [];
  return {
    formatVersion,
    uuid: typeof metadata['table-uuid'] === 'string' ? metadata['table-uuid'] : null,
    location: typeof metadata.location === 'string' ? metadata.location : null,
    fields,
    identifierFields: identifierIds.flatMap((id) => names.get(Number(id)) ?? []),
    partitioning: partitionFields(metadata).flatMap((f) => {
      const source = names.get(Number(f['source-id']));
      const transform = typeof f.transform === 'string' ? f.transform : 'identity';
      return source === undefined || transform === 'void' ? [] : [{ source, transform }];
    }),
    properties: Object.fromEntries(
      Object.entries((metadata.properties ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    ),
    metadataFile: path,
  };
}

function currentSchema(metadata: Record<string, unknown>, path: string): Record<string, unknown> {
  const schemas = metadata.schemas;
  if (Array.isArray(schemas) && schemas.length > 0) {
    const id = metadata['current-schema-id'];
    const current = (schemas as Record<string, unknown>[]).find((s) => s['schema-id'] === id);
    if (current !== undefined && Array.isArray(current.fields)) return current;
    throw new IcebergMetadataError(`${path}: current-schema-id ${String(id)} is not among its schemas`);
  }
  const v1 = metadata.schema as Record<string, unknown> | undefined;
  if (v1 !== undefined && Array.isArray(v1.fields)) return v1;
  throw new IcebergMetadataError(`${path} has no schema`);
}

function partitionFields(metadata: Record<string, unknown>): Record<string, unknown>[] {
  const specs = metadata['partition-specs'];
  if (Array.isArray(specs)) {
    const spec = (specs as Record<string, unknown>[]).find(
      (s) => s['spec-id'] === metadata['default-spec-id'],
    );
    return Array.isArray(spec?.fields) ? (spec.fields as Record<string, unknown>[]) : [];
  }
  return Array.isArray(metadata['partition-spec'])
    ? (metadata['partition-spec'] as Record<string, unknown>[])
    : [];
}

/** How a partition field reads in `partition_cols`: the column for identity, `day(ts)` otherwise. */
export function partitionText(field: IcebergPartitionField): string {
  return field.transform === 'identity' ? field.source : `${field.transform}(${field.source})`;
}
