// The pure half of a workspace snapshot: registry rows in, DataCoolie metadata out (reference §8.2–§8.4).
// What no longer makes valid DataCoolie metadata (a profile or dataflow changed under rules checked at
// write time, say through its system or dataset) is left out and listed in `excluded`, so that one
// bad row never stops a pipeline's start-up.
import {
  type DataCoolieConnection,
  type DataCoolieExclusion,
  type DataCoolieSnapshotDataflow,
  SNAPSHOT_HINT_FIELDS,
  type SnapshotHintGroup,
  type SnapshotHintTuple,
} from '@aide/schemas';
import { casefold, type Connection, DataCoolieError, type TypeSystem } from '@aide/schemas/datacoolie';
import { exportConnection } from './connection-export.js';
import type {
  DeclaredHintGroupRow,
  HintColumn,
  HintOverrideRow,
  HintTableRow,
  PinnedHintVersionRow,
  ScopedProfile,
  SnapshotDataflowRow,
} from './datacoolie-scope.repository.js';
import { dataflowDocument, exportDataflow } from './dataflow-export.js';
import { addressDataset, type AddressResult, type DatasetForAddress, hintKeyOf } from './dataset-address.js';
import { flavorDialect, hintTypeOf, hintTypeSystem } from './schema-hint-types.js';

export interface SnapshotRows {
  /** What `workspace_id` says in connections and dataflows: the workspace's code (ADR 0050). */
  workspaceCode: string;
  profiles: ReadonlyMap<string, ScopedProfile>;
  dataflows: readonly SnapshotDataflowRow[];
  datasets: ReadonlyMap<string, DatasetForAddress>;
  hintTables: readonly HintTableRow[];
  /** The schema versions dataflows pin their hints to (exported inline in their transform). */
  pinnedVersions?: readonly PinnedHintVersionRow[];
  /** format, default_value and is_active per dataset column (ADR 0030). */
  overrides?: readonly HintOverrideRow[];
  /** The hint groups documents declared (ADR 0050), in document order. */
  declaredHints?: readonly DeclaredHintGroupRow[];
}

/** Overrides by dataset id, then by case-folded column name. */
type Overrides = ReadonlyMap<string, ReadonlyMap<string, HintOverrideRow>>;

function overridesByDataset(rows: readonly HintOverrideRow[]): Overrides {
  const byDataset = new Map<string, Map<string, HintOverrideRow>>();
  for (const row of rows) {
    let columns = byDataset.get(row.dataset_id);
    if (!columns) byDataset.set(row.dataset_id, (columns = new Map<string, HintOverrideRow>()));
    columns.set(casefold(row.column_name), row);
  }
  return byDataset;
}

type HintTypes = ReturnType<typeof memoizedHintTypes>;

/**
 * The hint tuples of a version's columns typed in a connection's hint type system, with the dataset's
 * overrides applied. Columns without a DataCoolie type give no hint; a column repeating another
 * case-insensitively is left out and named in `repeated`.
 */
function hintTuples(
  columns: readonly HintColumn[],
  flavorCode: string,
  connection: Connection,
  overrides: ReadonlyMap<string, HintOverrideRow> | undefined,
  typeOf: HintTypes,
): { hints: SnapshotHintTuple[]; repeated: string[] } {
  const system = hintTypeSystem(connection.configure);
  const dialect = flavorDialect(flavorCode);
  const seen = new Set<string>();
  const hints: SnapshotHintTuple[] = [];
  const repeated: string[] = [];
  for (const column of columns) {
    const hint = typeOf(dialect, system, column);
    if (hint === null) continue;
    const folded = casefold(column[0]);
    if (seen.has(folded)) {
      repeated.push(column[0]);
      continue;
    }
    seen.add(folded);
    const override = overrides?.get(folded);
    if (override) {
      hint[2] = override.format;
      hint[5] = override.default_value;
      hint[7] = override.is_active;
    }
    hints.push(hint);
  }
  return { hints, repeated };
}

/**
 * The hints of the schema version a dataflow pins (reference §8.4–§8.5), as the objects of
 * `transform.schema_hints`: inline hints win over the provider's groups, so the pinned version is what
 * the dataflow's run uses.
 */
function pinnedTransform(
  row: SnapshotDataflowRow,
  source: Connection,
  pinned: ReadonlyMap<string, PinnedHintVersionRow>,
  overrides: Overrides,
  typeOf: HintTypes,
): SnapshotDataflowRow['transform'] {
  const version = row.pinned_hint_schema_version_id && pinned.get(row.pinned_hint_schema_version_id);
  if (!version) return row.transform;
  const { hints } = hintTuples(
    version.columns,
    version.flavor_code,
    source,
    overrides.get(version.dataset_id),
    typeOf,
  );
  if (hints.length === 0) return row.transform;
  return {
    ...row.transform,
    schema_hints: hints.map((tuple) =>
      Object.fromEntries(SNAPSHOT_HINT_FIELDS.map((field, i) => [field, tuple[i]])),
    ),
  };
}

export interface SnapshotContent {
  connections: DataCoolieConnection[];
  dataflows: DataCoolieSnapshotDataflow[];
  schema_hints: SnapshotHintGroup[];
  excluded: DataCoolieExclusion[];
}

const reasonOf = (error: unknown): string => {
  if (error instanceof DataCoolieError) return error.message;
  throw error;
};

/**
 * A dataflow with its ends addressed and named by the connection id DataCoolie sees. Its JSON objects
 * are the stored ones: DataCoolie's models (run here to check them, and by the provider) fill in their
 * defaults.
 */
function snapshotDataflow(
  row: SnapshotDataflowRow,
  workspaceId: string,
  source: { connection: Connection; schema_name: string | null; table: string | null },
  destination: { connection: Connection; schema_name: string | null; table: string },
): DataCoolieSnapshotDataflow {
  return dataflowDocument(
    row,
    {
      connection_id: source.connection.connection_id,
      schema_name: source.schema_name,
      table: source.table,
    },
    {
      connection_id: destination.connection.connection_id,
      schema_name: destination.schema_name,
      table: destination.table,
    },
    row.partition_columns,
    workspaceId,
  );
}

function exportConnections(rows: SnapshotRows, excluded: DataCoolieExclusion[]): Map<string, Connection> {
  const connections = new Map<string, Connection>();
  for (const scoped of rows.profiles.values()) {
    try {
      connections.set(scoped.profile.id, exportConnection(scoped, rows.workspaceCode));
    } catch (error) {
      excluded.push({
        kind: 'connection',
        id: scoped.profile.id,
        name: scoped.profile.name,
        reason: reasonOf(error),
      });
    }
  }
  return connections;
}

function exportDataflows(
  rows: SnapshotRows,
  connections: ReadonlyMap<string, Connection>,
  excluded: DataCoolieExclusion[],
  overrides: Overrides,
  typeOf: HintTypes,
): DataCoolieSnapshotDataflow[] {
  const out: DataCoolieSnapshotDataflow[] = [];
  const pinned = new Map((rows.pinnedVersions ?? []).map((v) => [v.schema_version_id, v]));
  const address = (id: string | null, connection: Connection, role: string): AddressResult | null => {
    if (id === null) return null;
    const dataset = rows.datasets.get(id);
    return dataset
      ? addressDataset(dataset, connection)
      : { ok: false, reason: `its ${role} dataset is deleted` };
  };
  for (const stored of rows.dataflows) {
    const exclude = (reason: string) =>
      excluded.push({ kind: 'dataflow', id: stored.id, name: stored.name, reason });
    const source = connections.get(stored.source_connection_id);
    const destination = connections.get(stored.destination_connection_id);
    if (!source || !destination) {
      exclude(`its ${source ? 'destination' : 'source'} connection is excluded`);
      continue;
    }
    const row = stored.pinned_hint_schema_version_id
      ? { ...stored, transform: pinnedTransform(stored, source, pinned, overrides, typeOf) }
      : stored;
    const from = address(row.source_dataset_id, source, 'source');
    const to = address(row.destination_dataset_id, destination, 'destination')!;
    if (from?.ok === false || !to.ok) {
      exclude(from?.ok === false ? from.reason : (to as { reason: string }).reason);
      continue;
    }
    const sourceAddress = from?.address ?? null;
    try {
      exportDataflow(row, { source, sourceAddress, destination, destinationAddress: to.address });
    } catch (error) {
      exclude(reasonOf(error));
      continue;
    }
    out.push(
      snapshotDataflow(
        row,
        rows.workspaceCode,
        { connection: source, ...(sourceAddress ?? { schema_name: null, table: null }) },
        { connection: destination, ...to.address },
      ),
    );
  }
  return out;
}

/**
 * The hint groups documents declared (ADR 0050), as written and in document order, for the connections
 * exported; their keys go into `keys`.
 */
function declaredHints(
  rows: SnapshotRows,
  connections: ReadonlyMap<string, Connection>,
  excluded: DataCoolieExclusion[],
  keys: Set<string>,
): SnapshotHintGroup[] {
  const groups: SnapshotHintGroup[] = [];
  for (const group of rows.declaredHints ?? []) {
    const connection = connections.get(group.profile_id);
    if (!connection) {
      excluded.push({
        kind: 'schema_hint',
        id: group.profile_id,
        name: group.table_name,
        reason: 'its connection is excluded',
      });
      continue;
    }
    if (group.hints.length === 0) continue;
    keys.add(
      hintKeyOf(connection.connection_id, { schema_name: group.schema_name, table: group.table_name }),
    );
    groups.push({
      connection_id: connection.connection_id,
      schema_name: group.schema_name,
      table_name: group.table_name,
      hints: group.hints,
    });
  }
  return groups;
}

/**
 * The declared groups, then one derived group per source table of a profile made in AIDE (reference
 * §8.4): the bound columns of the dataset's current version, typed in the connection's hint type
 * system. A declared group wins a key both have. Columns without a DataCoolie type give no hint; a
 * column repeated case-insensitively, or a second dataset on one key, is excluded.
 */
function exportHints(
  rows: SnapshotRows,
  connections: ReadonlyMap<string, Connection>,
  excluded: DataCoolieExclusion[],
  overrides: Overrides,
  typeOf: HintTypes,
): SnapshotHintGroup[] {
  const keys = new Set<string>();
  const groups = declaredHints(rows, connections, excluded, keys);
  const declared = new Set(keys);
  for (const table of rows.hintTables) {
    const connection = connections.get(table.connection_id);
    const dataset = rows.datasets.get(table.dataset_id);
    if (!connection || !dataset) continue;
    const address = addressDataset(dataset, connection);
    if (!address.ok) continue;
    const key = hintKeyOf(connection.connection_id, address.address);
    if (declared.has(key)) continue;
    if (keys.has(key)) {
      excluded.push({
        kind: 'schema_hint',
        id: dataset.id,
        name: address.address.table,
        reason: `another source table of connection ${connection.connection_id} has the same schema-hint key`,
      });
      continue;
    }
    keys.add(key);
    const { hints, repeated } = hintTuples(
      table.columns,
      table.flavor_code,
      connection,
      overrides.get(dataset.id),
      typeOf,
    );
    for (const name of repeated) {
      excluded.push({
        kind: 'schema_hint',
        id: dataset.id,
        name,
        reason: 'the column name repeats another of the table case-insensitively',
      });
    }
    if (hints.length > 0) {
      groups.push({
        connection_id: connection.connection_id,
        schema_name: address.address.schema_name,
        table_name: address.address.table,
        hints,
      });
    }
  }
  return groups;
}

/** Hint tuples of columns; the type mapping is computed once per (dialect, system, code, params). */
function memoizedHintTypes() {
  const types = new Map<string, ReturnType<typeof hintTypeOf>>();
  return (dialect: string, system: TypeSystem, [name, position, deprecated, code, params]: HintColumn) => {
    if (code === null) return null;
    const key = `${dialect}\u0000${system}\u0000${code}\u0000${params === null ? '' : JSON.stringify(params)}`;
    let type = types.get(key);
    if (type === undefined) {
      type = hintTypeOf(dialect, code, params, system);
      types.set(key, type);
    }
    if (type === null) return null;
    const tuple: SnapshotHintTuple = [
      name,
      type.data_type,
      null,
      type.precision,
      type.scale,
      null,
      position + 1,
      !deprecated,
    ];
    return tuple;
  };
}

export function assembleSnapshot(rows: SnapshotRows): SnapshotContent {
  const excluded: DataCoolieExclusion[] = [];
  const connections = exportConnections(rows, excluded);
  const overrides = overridesByDataset(rows.overrides ?? []);
  const typeOf = memoizedHintTypes();
  const dataflows = exportDataflows(rows, connections, excluded, overrides, typeOf);
  const schema_hints = exportHints(rows, connections, excluded, overrides, typeOf);
  return { connections: [...connections.values()], dataflows, schema_hints, excluded };
}
