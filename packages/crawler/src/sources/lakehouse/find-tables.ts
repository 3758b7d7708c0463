// Where the tables of a lakehouse location are: a folder holding `_delta_log/` is a Delta table, one
// holding `metadata/*.metadata.json` an Iceberg table. Delta wins when a folder holds both (Delta
// UniForm writes Iceberg metadata beside its log; the log is the table's truth). Folders under a
// table are its data, never tables of their own.
import type { StoredFile } from '../files/file-store.js';

export interface FoundTable {
  format: 'delta' | 'iceberg';
  /** The table's folder relative to the store's root ('' when the root is the table). */
  root: string;
  /** The files of its `_delta_log/` or `metadata/` folder. */
  files: StoredFile[];
}

const DELTA_LOG = /^(?:(.*)\/)?_delta_log\/[^/]+$/;
const ICEBERG_METADATA = /^(?:(.*)\/)?metadata\/[^/]+$/;
const ICEBERG_MARKER = /(?:metadata\.json(?:\.gz)?|version-hint\.text)$/;

export function findTables(files: readonly StoredFile[]): FoundTable[] {
  const delta = new Map<string, StoredFile[]>();
  const iceberg = new Map<string, StoredFile[]>();
  for (const file of files) {
    const log = DELTA_LOG.exec(file.path);
    if (log !== null) {
      push(delta, log[1] ?? '', file);
      continue;
    }
    const meta = ICEBERG_METADATA.exec(file.path);
    if (meta !== null && ICEBERG_MARKER.test(file.path)) push(iceberg, meta[1] ?? '', file);
  }
  const tables: FoundTable[] = [
    ...[...delta].map(([root, found]) => ({ format: 'delta' as const, root, files: found })),
    ...[...iceberg]
      .filter(([root]) => !delta.has(root))
      .map(([root, found]) => ({ format: 'iceberg' as const, root, files: found })),
  ];
  const roots = tables.map((t) => t.root);
  return tables
    .filter((t) => !roots.some((other) => other !== t.root && isUnder(t.root, other)))
    .sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
}

function push(map: Map<string, StoredFile[]>, key: string, file: StoredFile): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [file]);
  else list.push(file);
}

function isUnder(path: string, folder: string): boolean {
  return folder === '' ? path !== '' : path.startsWith(`${folder}/`);
}

/**
 * A table's database and name from its folder: `sales.db/orders` → (`sales`, `orders`), as Hive
 * warehouses lay tables out; a table at the top of the location is in `default` (Hive keeps the default
 * database's tables at the warehouse root), or in the location's database when it is one (`ops.db`); the location itself
 * as a table is named after its last path segment.
 */
export function tableName(root: string, locationName: string): { db: string; table: string } {
  const segments = root === '' ? [locationName] : root.split('/');
  const table = segments[segments.length - 1];
  const parent =
    segments.length > 1
      ? segments[segments.length - 2]
      : locationName.endsWith('.db') && root !== ''
        ? locationName
        : 'default';
  return { db: parent.replace(/\.db$/, ''), table };
}
