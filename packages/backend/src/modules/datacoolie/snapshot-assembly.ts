// The pure half of a workspace snapshot: registry rows in, DataCoolie metadata out (reference §8.2–§8.4).
// What no longer makes valid DataCoolie metadata (a profile or dataflow changed under rules checked at
// write time, say through its system or dataset) is left out and listed in `excluded`, so that one
// bad row never stops a pipeline's start-up.
import type {
  DataCoolieConnection,
  DataCoolieExclusion,
  DataCoolieSnapshotDataflow,
  SnapshotHintGroup,
  SnapshotHintTuple,
} from '@aide/schemas';
import { casefold, type Connection, DataCoolieError, type TypeSystem } from '@aide/schemas/datacoolie';
import { exportConnection } from './connection-export.js';
import type {
  HintColumn,
  HintTableRow,
  ScopedProfile,
  SnapshotDataflowRow,
} from './datacoolie-scope.repository.js';
import { dataflowDocument, exportDataflow } from './dataflow-export.js';
import { addressDataset, type AddressResult, type DatasetForAddress, hintKeyOf } from './dataset-address.js';
import { flavorDialect, hintTypeOf, hintTypeSystem } from './schema-hint-types.js';

export interface SnapshotRows {
  profiles: ReadonlyMap<string, ScopedProfile>;
  dataflows: readonly SnapshotDataflowRow[];
  datasets: ReadonlyMap<string, DatasetForAddress>;
  hintTables: readonly HintTableRow[];
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
 * A dataflow with its ends addressed and named by connection id. Its JSON objects are the stored
 * ones: DataCoolie's models (run here to check them, and by the provider) fill in their defaults.
 */
function snapshotDataflow(
  row: SnapshotDataflowRow,
  source: { schema_name: string | null; table: string | null },
  destination: { schema_name: string | null; table: string },
): DataCoolieSnapshotDataflow {
  return dataflowDocument(
    row,
    { connection_id: row.source_connection_id, schema_name: source.schema_name, table: source.table },
    {
      connection_id: row.destination_connection_id,
      schema_name: destination.schema_name,
      table: destination.table,
    },
  );
}

function exportConnections(rows: SnapshotRows, excluded: DataCoolieExclusion[]): Map<string, Connection> {
  const connections = new Map<string, Connection>();
  for (const scoped of rows.profiles.values()) {
    try {
      connections.set(scoped.profile.id, exportConnection(scoped));
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
): DataCoolieSnapshotDataflow[] {
  const out: DataCoolieSnapshotDataflow[] = [];
  const address = (id: string | null, connection: Connection, role: string): AddressResult | null => {
    if (id === null) return null;
    const dataset = rows.datasets.get(id);
    return dataset
      ? addressDataset(dataset, connection)
      : { ok: false, reason: `its ${role} dataset is deleted` };
  };
  for (const row of rows.dataflows) {
    const exclude = (reason: string) =>
      excluded.push({ kind: 'dataflow', id: row.id, name: row.name, reason });
    const source = connections.get(row.source_connection_id);
    const destination = connections.get(row.destination_connection_id);
    if (!source || !destination) {
      exclude(`its ${source ? 'destination' : 'source'} connection is excluded`);
      continue;
    }
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
    out.push(snapshotDataflow(row, sourceAddress ?? { schema_name: null, table: null }, to.address));
  }
  return out;
}

/**
 * One hint group per source table (reference §8.4): the bound columns of the dataset's current
 * version, typed in the connection's hint type system. Columns without a DataCoolie type give no
 * hint; a column repeated case-insensitively, or a second dataset on one key, is excluded.
 */
function exportHints(
  rows: SnapshotRows,
  connections: ReadonlyMap<string, Connection>,
  excluded: DataCoolieExclusion[],
): SnapshotHintGroup[] {
  const groups: SnapshotHintGroup[] = [];
  const keys = new Set<string>();
  const typeOf = memoizedHintTypes();
  for (const table of rows.hintTables) {
    const connection = connections.get(table.connection_id);
    const dataset = rows.datasets.get(table.dataset_id);
    if (!connection || !dataset) continue;
    const address = addressDataset(dataset, connection);
    if (!address.ok) continue;
    const key = hintKeyOf(connection.connection_id, address.address);
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
    const system = hintTypeSystem(connection.configure);
    const dialect = flavorDialect(table.flavor_code);
    const seen = new Set<string>();
    const hints: SnapshotHintTuple[] = [];
    for (const column of table.columns) {
      const hint = typeOf(dialect, system, column);
      if (hint === null) continue;
      const folded = casefold(column[0]);
      if (seen.has(folded)) {
        excluded.push({
          kind: 'schema_hint',
          id: dataset.id,
          name: column[0],
          reason: 'the column name repeats another of the table case-insensitively',
        });
        continue;
      }
      seen.add(folded);
      hints.push(hint);
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
  const dataflows = exportDataflows(rows, connections, excluded);
  const schema_hints = exportHints(rows, connections, excluded);
  return { connections: [...connections.values()], dataflows, schema_hints, excluded };
}
