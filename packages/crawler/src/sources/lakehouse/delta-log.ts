// The schema of a Delta table from its transaction log (`_delta_log`): the newest `metaData` action (and
// the newest `protocol` seen on the way). Commits are read newest first and the walk stops at the first
// `metaData`, so a long log costs a few small reads; only when the JSON commits holding it were cleaned up
// is the newest checkpoint read (its `metaData`/`protocol` columns). Data files are never opened.
// Protocol: https://github.com/delta-io/delta/blob/master/PROTOCOL.md#delta-log-entries
import type { FileStore, StoredFile } from '../files/file-store.js';
import type { SparkField } from './spark-types.js';

export interface DeltaMetadata {
  id: string | null;
  name: string | null;
  description: string | null;
  provider: string;
  fields: SparkField[];
  partitionColumns: string[];
  configuration: Record<string, string>;
}

export interface DeltaProtocol {
  minReaderVersion: number;
  minWriterVersion: number;
  readerFeatures?: string[];
  writerFeatures?: string[];
}

export interface DeltaSnapshot {
  /** The table's latest version (commit or checkpoint). */
  version: number;
  metadata: DeltaMetadata;
  /** The newest protocol among the commits read (null when none of them changed it). */
  protocol: DeltaProtocol | null;
}

const COMMIT = /(^|\/)(\d{20})\.json$/;
const CHECKPOINT = /(^|\/)(\d{20})\.checkpoint(?:\.\d{10}\.\d{10}|\.[0-9a-f-]{36})?\.parquet$/;

/** Why a Delta log cannot be read: reported as a problem of the table, never thrown past it. */
export class DeltaLogError extends Error {}

/**
 * Reads the newest metadata of the table whose `_delta_log` files are `logFiles` (paths relative to the
 * store's root).
 */
export async function readDeltaSnapshot(
  store: FileStore,
  logFiles: StoredFile[],
  signal?: AbortSignal,
): Promise<DeltaSnapshot> {
  const commits = versioned(logFiles, COMMIT).sort((a, b) => b.version - a.version);
  const checkpoints = versioned(logFiles, CHECKPOINT).sort((a, b) => b.version - a.version);
  if (commits.length === 0 && checkpoints.length === 0) {
    throw new DeltaLogError('the _delta_log folder holds no commit and no checkpoint');
  }
  const latest = Math.max(commits[0]?.version ?? -1, checkpoints[0]?.version ?? -1);
  let metadata: DeltaMetadata | null = null;
  let protocol: DeltaProtocol | null = null;
  let oldestRead = Infinity;
  for (const commit of commits) {
    const actions = await readCommit(store, commit.file, signal);
    metadata ??= actions.metadata;
    protocol ??= actions.protocol;
    oldestRead = commit.version;
    if (metadata !== null) break;
  }
  if (metadata === null) {
    // The commits that carried it are gone: the newest checkpoint at or below the oldest commit read
    // holds the table's state then.
    const checkpoint = checkpoints.find((c) => c.version <= oldestRead);
    if (checkpoint !== undefined) {
      const parts = checkpoints.filter((c) => c.version === checkpoint.version);
      const state = await readCheckpoint(store, parts, signal);
      metadata ??= state.metadata;
      protocol ??= state.protocol;
    }
  }
  if (metadata === null) throw new DeltaLogError('no metaData action found in the commits or checkpoints');
  return { version: latest, metadata, protocol };
}

interface Versioned {
  version: number;
  file: StoredFile;
}

function versioned(files: StoredFile[], pattern: RegExp): Versioned[] {
  return files.flatMap((file) => {
    const match = pattern.exec(file.path);
    return match === null ? [] : [{ version: Number(match[2]), file }];
  });
}

interface Actions {
  metadata: DeltaMetadata | null;
  protocol: DeltaProtocol | null;
}

async function readCommit(store: FileStore, file: StoredFile, signal?: AbortSignal): Promise<Actions> {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(
    await store.read(file.path, 0, file.size, signal),
  );
  const actions: Actions = { metadata: null, protocol: null };
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let action: Record<string, unknown>;
    try {
      action = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new DeltaLogError(`${file.path} line ${index + 1} is not JSON`);
    }
    if (action.metaData !== undefined) actions.metadata = parseMetadata(action.metaData, file.path);
    if (action.protocol !== undefined) actions.protocol = parseProtocol(action.protocol, file.path);
  });
  return actions;
}

async function readCheckpoint(store: FileStore, parts: Versioned[], signal?: AbortSignal): Promise<Actions> {
  const { parquetReadObjects } = await import('hyparquet');
  const actions: Actions = { metadata: null, protocol: null };
  for (const { file } of parts) {
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({
        file: {
          byteLength: file.size,
          slice: async (start, end) => {
            const bytes = await store.read(file.path, start, end, signal);
            return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
          },
        },
        columns: ['metaData', 'protocol'],
      });
    } catch (error) {
      throw new DeltaLogError(`checkpoint ${file.path} cannot be read: ${(error as Error).message}`);
    }
    for (const row of rows) {
      if (row.metaData !== null && row.metaData !== undefined)
        actions.metadata ??= parseMetadata(row.metaData, file.path);
      if (row.protocol !== null && row.protocol !== undefined)
        actions.protocol ??= parseProtocol(row.protocol, file.path);
    }
  }
  return actions;
}

function parseMetadata(raw: unknown, path: string): DeltaMetadata {
  const m = raw as Record<string, unknown>;
  if (typeof m.schemaString !== 'string') throw new DeltaLogError(`${path}: metaData without a schemaString`);
  let schema: { type?: unknown; fields?: unknown };
  try {
    schema = JSON.parse(m.schemaString) as typeof schema;
  } catch {
    throw new DeltaLogError(`${path}: metaData.schemaString is not JSON`);
  }
  if (schema.type !== 'struct' || !Array.isArray(schema.fields)) {
    throw new DeltaLogError(`${path}: metaData.schemaString is not a struct type`);
  }
  const format = (m.format ?? {}) as { provider?: unknown };
  return {
    id: typeof m.id === 'string' ? m.id : null,
    name: typeof m.name === 'string' ? m.name : null,
    description: typeof m.description === 'string' ? m.description : null,
    provider: typeof format.provider === 'string' ? format.provider : 'parquet',
    fields: schema.fields as SparkField[],
    partitionColumns: Array.isArray(m.partitionColumns) ? m.partitionColumns.map(String) : [],
    configuration: stringRecord(m.configuration),
  };
}

function parseProtocol(raw: unknown, path: string): DeltaProtocol {
  const p = raw as Record<string, unknown>;
  if (typeof p.minReaderVersion !== 'number' || typeof p.minWriterVersion !== 'number') {
    throw new DeltaLogError(`${path}: protocol without reader/writer versions`);
  }
  return {
    minReaderVersion: p.minReaderVersion,
    minWriterVersion: p.minWriterVersion,
    ...(Array.isArray(p.readerFeatures) ? { readerFeatures: p.readerFeatures.map(String) } : {}),
    ...(Array.isArray(p.writerFeatures) ? { writerFeatures: p.writerFeatures.map(String) } : {}),
  };
}

/** Delta's `configuration` is a map of strings; a checkpoint reads it back as an object or as pairs. */
function stringRecord(raw: unknown): Record<string, string> {
  if (raw instanceof Map) return Object.fromEntries([...raw].map(([k, v]) => [String(k), String(v)]));
  if (raw === null || typeof raw !== 'object') return {};
  return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}
