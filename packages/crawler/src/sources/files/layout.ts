// Which files form which dataset. A file's format comes from its name (or its magic bytes when the
// name says nothing); the folder holding it is its table, after the trailing Hive-style `key=value`
// folders, which become partition columns. Files at the root without partition folders are datasets
// of their own. Names starting with `_` or `.` (`_SUCCESS`, `.part-0.crc`, `_temporary/`) are skipped,
// as Hive and Spark skip them.
import type { SourceProblem } from '../../model.js';
import { compareText } from '../../normalise/type-log.js';
import type { FileFormat } from './file-schema.js';
import type { StoredFile } from './file-store.js';

const EXTENSIONS: Record<string, FileFormat> = {
  parquet: 'parquet',
  parq: 'parquet',
  pq: 'parquet',
  avro: 'avro',
  csv: 'csv',
  tsv: 'csv',
  psv: 'csv',
  tab: 'csv',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  json: 'jsonl',
};
const PARTITION = /^([^=]+)=(.*)$/;
/** Hive's name for the partition of null values. */
export const NULL_PARTITION = '__HIVE_DEFAULT_PARTITION__';

/** The format a file name announces; 'skip' for hidden and bookkeeping files; null when the name does not tell. */
export function formatOfName(path: string): FileFormat | 'skip' | null {
  if (path.split('/').some((part) => part.startsWith('_') || part.startsWith('.'))) return 'skip';
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const match = /\.([a-z0-9]+)(\.gz)?$/.exec(name);
  if (match === null) return null;
  const format = EXTENSIONS[match[1]];
  // Gzip applies to text formats; Parquet and Avro compress inside the file.
  if (format === undefined || (match[2] !== undefined && (format === 'parquet' || format === 'avro')))
    return null;
  return format;
}

/** The format of a file whose name does not tell, from its first four bytes. */
export function formatOfMagic(head: Uint8Array): FileFormat | null {
  const magic = Buffer.from(head.subarray(0, 4)).toString('latin1');
  return magic === 'PAR1' ? 'parquet' : magic === 'Obj\x01' ? 'avro' : null;
}

export interface DataFile {
  file: StoredFile;
  format: FileFormat;
  /** The partition folders' keys and raw values, outermost first. */
  partitions: { key: string; value: string }[];
}

export interface DatasetGroup {
  /** The registry name: the table folder relative to the root, or the file path. */
  name: string;
  object_name: string;
  /** The dataset's location relative to the root: the folder, the file, or '' for the root itself. */
  location: string;
  format: FileFormat;
  partition_by: string[];
  files: DataFile[];
}

/** The table a file belongs to: its folder without the trailing `key=value` folders. */
function place(
  path: string,
  rootName: string,
): { table: string; location: string; key: string; partitions: DataFile['partitions'] } {
  const folders = path.split('/').slice(0, -1);
  const partitions: DataFile['partitions'] = [];
  while (folders.length > 0) {
    const match = PARTITION.exec(folders[folders.length - 1]);
    if (match === null) break;
    partitions.unshift({ key: match[1], value: match[2] });
    folders.pop();
  }
  const atRoot = folders.length === 0;
  const table = atRoot && partitions.length === 0 ? path : atRoot ? rootName : folders.join('/');
  return { table, location: atRoot && partitions.length > 0 ? '' : table, key: table, partitions };
}

/** Groups files into datasets, in code-point order of their names; files that do not fit are problems. */
export function groupFiles(
  files: { file: StoredFile; format: FileFormat }[],
  rootName: string,
): { groups: DatasetGroup[]; problems: SourceProblem[] } {
  const byKey = new Map<string, DatasetGroup>();
  const problems: SourceProblem[] = [];
  const placed = files.map(({ file, format }) => ({ file, format, ...place(file.path, rootName) }));
  // A table's partition keys are those most of its files have (the first such layout on a tie).
  const layouts = new Map<string, Map<string, number>>();
  for (const { key, partitions } of placed) {
    const counts = layouts.get(key) ?? new Map<string, number>();
    const keys = partitions.map((p) => p.key).join('/');
    counts.set(keys, (counts.get(keys) ?? 0) + 1);
    layouts.set(key, counts);
  }
  for (const { file, format, table, location, key, partitions } of placed) {
    const keys = partitions.map((p) => p.key);
    const expected = [...(layouts.get(key) ?? [])].reduce((best, entry) =>
      entry[1] > best[1] ? entry : best,
    )[0];
    if (keys.join('/') !== expected) {
      problems.push({
        path: file.path,
        reason: `partition folders (${keys.join(', ') || 'none'}) differ from those of the other files of dataset ${table} (${expected.split('/').join(', ') || 'none'}): file left out`,
      });
      continue;
    }
    let group = byKey.get(`${key}\u0000${format}`);
    if (group === undefined) {
      group = { name: table, object_name: table, location, format, partition_by: keys, files: [] };
      byKey.set(`${key}\u0000${format}`, group);
    }
    group.files.push({ file, format, partitions });
  }
  const groups = [...byKey.values()];
  // A folder holding several formats: one dataset per format, told apart by the format in the name.
  const formats = new Map<string, FileFormat[]>();
  for (const group of groups)
    formats.set(group.object_name, [...(formats.get(group.object_name) ?? []), group.format]);
  for (const group of groups) {
    const here = formats.get(group.object_name) ?? [];
    if (here.length < 2) continue;
    group.name = `${group.object_name}.${group.format}`;
    if (here[0] === group.format) {
      problems.push({
        path: group.object_name,
        reason: `files of several formats (${here.join(', ')}): one dataset each, named ${group.object_name}.<format>`,
      });
    }
  }
  return { groups: groups.sort((a, b) => compareText(a.name, b.name)), problems };
}
