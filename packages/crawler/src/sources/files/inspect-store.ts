// A FileStore read into the inspection model: files listed, grouped into datasets (layout.ts), each
// file's schema read by its format's reader (footer, header or a bounded sample), merged per dataset
// (merge.ts), partition columns added, placement filled. What cannot be read is a problem; the crawl goes on.
import { interruption, throwIfInterrupted } from '../../errors.js';
import { parseFilters, tableSelected } from '../../inspect/filters.js';
import {
  type InspectedColumn,
  type InspectedDatabase,
  type InspectedTable,
  type InspectionFilters,
  type SourceProblem,
} from '../../model.js';
import { TypeLog } from '../../normalise/type-log.js';
import { readAvro } from './avro.js';
import { readCsv } from './csv.js';
import type { FileFormat, FileSchema } from './file-schema.js';
import type { FileStore, StoredFile } from './file-store.js';
import { readJsonLines } from './jsonl.js';
import { formatOfMagic, formatOfName, groupFiles, type DatasetGroup } from './layout.js';
import { SchemaMerger } from './merge.js';
import { partitionColumns } from './partitions.js';
import { readParquet } from './parquet.js';
import { sourceInspection } from '../inspection.js';
import { emptyColumn, emptyTable } from '../../inspect/assemble.js';

const READERS: Record<
  FileFormat,
  (store: FileStore, file: StoredFile, signal?: AbortSignal) => Promise<FileSchema>
> = {
  parquet: readParquet,
  avro: readAvro,
  csv: readCsv,
  jsonl: readJsonLines,
};

export interface InspectFileStoreOptions {
  filters: InspectionFilters;
  signal?: AbortSignal;
  /** The dataset kind: `storage` (file://, s3://) or `sftp`. */
  kind: 'storage' | 'sftp';
  /** The inspection's dialect: the calling driver's name. */
  source: string;
  /** Files read at once (default 16; fewer for a remote store that limits sessions). */
  concurrency?: number;
}

/** Reads a store into an inspection: one dataset per table folder or root file, every column typed in the files flavor. */
export async function inspectFileStore(
  store: FileStore,
  options: InspectFileStoreOptions,
): Promise<InspectedDatabase> {
  const { signal } = options;
  const problems: SourceProblem[] = [];
  const files: { file: StoredFile; format: FileFormat }[] = [];
  for await (const file of store.list(signal)) {
    const named = formatOfName(file.path);
    if (named === 'skip') continue;
    const format = named ?? (await sniff(store, file, signal));
    if (format === null)
      problems.push({
        path: file.path,
        reason: 'not a Parquet, Avro, CSV or JSON-lines file (by its name and first bytes)',
      });
    else files.push({ file, format });
  }
  const rootName = decodeURIComponent(store.display.replace(/\/+$/, '').split('/').pop() ?? '') || 'root';
  const grouped = groupFiles(files, rootName);
  problems.push(...grouped.problems);
  const filters = parseFilters(options.filters);
  const types = new TypeLog();
  const tables: InspectedTable[] = [];
  for (const group of grouped.groups) {
    if (!tableSelected(filters, '', group.name)) continue;
    const table = await readDataset(store, group, options, problems, types);
    if (table !== null) tables.push(table);
  }
  return sourceInspection({
    dialect: options.source,
    flavor: options.kind === 'sftp' ? 'sftp_files' : 'storage_files',
    server: { product: 'Files', version: '' },
    database: store.display,
    filters: options.filters,
    tables,
    types,
    problems,
    reads: 0,
  });
}

async function sniff(store: FileStore, file: StoredFile, signal?: AbortSignal): Promise<FileFormat | null> {
  if (file.size < 4) return null;
  return formatOfMagic(await store.read(file.path, 0, 4, signal));
}

async function readDataset(
  store: FileStore,
  group: DatasetGroup,
  options: InspectFileStoreOptions,
  problems: SourceProblem[],
  types: TypeLog,
): Promise<InspectedTable | null> {
  const merger = new SchemaMerger(group.format === 'csv' || group.format === 'jsonl');
  const compressions = new Set<string>();
  const read: DatasetGroup['files'] = [];
  const batch = options.concurrency ?? 16;
  for (let start = 0; start < group.files.length; start += batch) {
    const slice = group.files.slice(start, start + batch);
    // Read in parallel, merged in file order: the outcome does not depend on timing.
    const results = await Promise.all(
      slice.map(({ file }) => readFile(store, group.format, file, options.signal)),
    );
    results.forEach((result, index) => {
      const { file } = slice[index];
      if (result instanceof Error) {
        problems.push({ path: file.path, reason: result.message });
        return;
      }
      read.push(slice[index]);
      compressions.add(result.compression);
      problems.push(...result.notes.map((reason) => ({ path: file.path, reason })));
      problems.push(...merger.add(file.path, result.columns));
    });
  }
  if (read.length === 0) return null;
  const fileColumns = [...merger.result(), ...partitionColumns(group, read, merger.result(), problems)];
  const columns: InspectedColumn[] = fileColumns.map((column, index) => ({
    ...emptyColumn(column.name, index + 1, column.native_type),
    type: types.record(
      column.native_type,
      column.type === null ? null : { type: column.type, approximate: column.approximate === true },
    ),
    nullable: column.nullable,
  }));
  const single = group.location === group.files[0].file.path;
  const location =
    group.location === '' ? '' : `/${group.location.split('/').map(encodeURIComponent).join('/')}`;
  const attributes: Record<string, unknown> = {
    path: `${store.display.replace(/\/+$/, '')}${location}${single ? '' : '/'}`,
    file_format: group.format,
    compression: [...compressions].sort().join(','),
  };
  if (options.kind === 'storage') attributes.partition_by = group.partition_by;
  else attributes.archive = null;
  return {
    ...emptyTable('', group.name, 'table', null),
    placement: { kind: options.kind, object_name: group.object_name, attributes },
    columns,
    partition_key: group.partition_by.length === 0 ? null : group.partition_by.join(', '),
  };
}

/** A file's schema, or the Error that says why it could not be read; an interruption is thrown. */
async function readFile(
  store: FileStore,
  format: FileFormat,
  file: StoredFile,
  signal?: AbortSignal,
): Promise<FileSchema | Error> {
  try {
    return await READERS[format](store, file, signal);
  } catch (error) {
    if (signal?.aborted === true) throw interruption(signal);
    throwIfInterrupted(signal);
    return error instanceof Error ? error : new Error(String(error));
  }
}
