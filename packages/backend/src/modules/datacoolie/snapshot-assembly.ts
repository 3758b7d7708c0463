// The pure half of a workspace snapshot: registry rows in, DataCoolie metadata out (reference §8.2–§8.4).
// What no longer makes valid DataCoolie metadata (a profile or dataflow changed under rules checked at
// write time, say through its system or dataset) is left out and listed in `excluded`, so that one
// bad row never stops a pipeline's start-up.
import type {
  DataCoolieConnection,
  DataCoolieExclusion,
  DataCoolieSchemaHint,
  DataCoolieSchemaHintGroup,
  DataCoolieSnapshotDataflow,
} from '@aide/schemas';
import { casefold, type Connection, DataCoolieError, type DataFlow } from '@aide/schemas/datacoolie';
import { exportConnection } from './connection-export.js';
import type { HintColumnRow, ScopedProfile } from './datacoolie-scope.repository.js';
import { type DataflowRow, exportDataflow } from './dataflow-export.js';
import { addressDataset, type DatasetForAddress, hintKeyOf } from './dataset-address.js';
import { flavorDialect, hintTypeOf, hintTypeSystem } from './schema-hint-types.js';

export interface SnapshotRows {
  profiles: ReadonlyMap<string, ScopedProfile>;
  dataflows: readonly (DataflowRow & {
    source_connection_id: string;
    source_dataset_id: string | null;
    destination_connection_id: string;
    destination_dataset_id: string;
  })[];
  datasets: ReadonlyMap<string, DatasetForAddress>;
  hintColumns: readonly HintColumnRow[];
}

export interface SnapshotContent {
  connections: DataCoolieConnection[];
  dataflows: DataCoolieSnapshotDataflow[];
  schema_hints: DataCoolieSchemaHintGroup[];
  excluded: DataCoolieExclusion[];
}

const reasonOf = (error: unknown): string => {
  if (error instanceof DataCoolieError) return error.message;
  throw error;
};

/** A dataflow document whose ends name their connections by id. */
function snapshotDataflow(dataflow: DataFlow): DataCoolieSnapshotDataflow {
  const { source, destination } = dataflow;
  return {
    dataflow_id: dataflow.dataflow_id!,
    workspace_id: dataflow.workspace_id,
    name: dataflow.name,
    description: dataflow.description,
    stage: dataflow.stage,
    group_number: dataflow.group_number,
    execution_order: dataflow.execution_order,
    processing_mode: dataflow.processing_mode,
    is_active: dataflow.is_active,
    source: {
      connection_id: source.connection.connection_id,
      schema_name: source.schema_name,
      table: source.table,
      query: source.query,
      python_function: source.python_function,
      watermark_columns: source.watermark_columns,
      filter_expression: source.filter_expression,
      configure: source.configure,
    },
    destination: {
      connection_id: destination.connection.connection_id,
      schema_name: destination.schema_name,
      table: destination.table,
      load_type: destination.load_type,
      merge_keys: destination.merge_keys,
      partition_columns: destination.partition_columns.map((p) => ({
        column: p.column,
        expression: p.expression ?? null,
      })),
      configure: destination.configure,
    },
    transform: dataflow.transform as unknown as Record<string, unknown>,
    configure: dataflow.configure,
  };
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
  for (const row of rows.dataflows) {
    const exclude = (reason: string) =>
      excluded.push({ kind: 'dataflow', id: row.id, name: row.name, reason });
    const source = connections.get(row.source_connection_id);
    const destination = connections.get(row.destination_connection_id);
    if (!source || !destination) {
      exclude(`its ${source ? 'destination' : 'source'} connection is excluded`);
      continue;
    }
    const addresses = [row.source_dataset_id, row.destination_dataset_id].map((id, i) => {
      if (id === null) return null;
      const dataset = rows.datasets.get(id);
      if (!dataset)
        return { ok: false as const, reason: `its ${i === 0 ? 'source' : 'destination'} dataset is deleted` };
      return addressDataset(dataset, i === 0 ? source : destination);
    });
    const failed = addresses.find((a) => a !== null && !a.ok);
    if (failed && !failed.ok) {
      exclude(failed.reason);
      continue;
    }
    try {
      const [sourceAddress, destinationAddress] = addresses.map((a) => (a?.ok ? a.address : null));
      out.push(
        snapshotDataflow(
          exportDataflow(row, {
            source,
            sourceAddress: sourceAddress ?? null,
            destination,
            destinationAddress: destinationAddress!,
          }),
        ),
      );
    } catch (error) {
      exclude(reasonOf(error));
    }
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
): DataCoolieSchemaHintGroup[] {
  const groups = new Map<string, DataCoolieSchemaHintGroup & { dataset_id: string; seen: Set<string> }>();
  for (const column of rows.hintColumns) {
    const connection = connections.get(column.connection_id);
    const dataset = rows.datasets.get(column.dataset_id);
    if (!connection || !dataset) continue;
    const address = addressDataset(dataset, connection);
    if (!address.ok) continue;
    const key = hintKeyOf(connection.connection_id, address.address);
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        connection_id: connection.connection_id,
        schema_name: address.address.schema_name,
        table_name: address.address.table,
        hints: [],
        dataset_id: dataset.id,
        seen: new Set(),
      };
      groups.set(key, group);
    } else if (group.dataset_id !== dataset.id) {
      if (!group.seen.has(`dataset:${dataset.id}`)) {
        group.seen.add(`dataset:${dataset.id}`);
        excluded.push({
          kind: 'schema_hint',
          id: dataset.id,
          name: address.address.table,
          reason: `another source table of connection ${connection.connection_id} has the same schema-hint key`,
        });
      }
      continue;
    }
    const hint = hintOf(column, connection);
    if (hint === null) continue;
    const folded = casefold(hint.column_name);
    if (group.seen.has(folded)) {
      excluded.push({
        kind: 'schema_hint',
        id: dataset.id,
        name: hint.column_name,
        reason: 'the column name repeats another of the table case-insensitively',
      });
      continue;
    }
    group.seen.add(folded);
    group.hints.push(hint);
  }
  return [...groups.values()]
    .filter((g) => g.hints.length > 0)
    .map(({ connection_id, schema_name, table_name, hints }) => ({
      connection_id,
      schema_name,
      table_name,
      hints,
    }));
}

function hintOf(column: HintColumnRow, connection: Connection): DataCoolieSchemaHint | null {
  if (column.type_code === null || column.flavor_code === null || column.nested) return null;
  const type = hintTypeOf(
    flavorDialect(column.flavor_code),
    column.type_code,
    column.type_params,
    hintTypeSystem(connection.configure),
  );
  if (type === null) return null;
  return {
    column_name: column.column_name,
    data_type: type.data_type,
    format: null,
    precision: type.precision,
    scale: type.scale,
    default_value: null,
    ordinal_position: column.position + 1,
    is_active: column.origin !== 'deprecated',
  };
}

export function assembleSnapshot(rows: SnapshotRows): SnapshotContent {
  const excluded: DataCoolieExclusion[] = [];
  const connections = exportConnections(rows, excluded);
  const dataflows = exportDataflows(rows, connections, excluded);
  const schema_hints = exportHints(rows, connections, excluded);
  return { connections: [...connections.values()], dataflows, schema_hints, excluded };
}
