// A registry snapshot (`GET /workspaces/{id}/datacoolie/snapshot`) as DataCoolie models: dataflows get
// their connections expanded from the snapshot's list (an unknown id is a MetadataError, as in
// DataCoolie's APIProvider), hint tuples become SchemaHint models.
import type { DataCoolieSnapshot } from '@aide/schemas';
import {
  type Connection,
  createConnection,
  createDataflow,
  createSchemaHint,
  type DataFlow,
  MetadataError,
  type SchemaHint,
} from '@aide/schemas/datacoolie';
import type { BulkLoadResult } from '../base-provider.js';
import type { SchemaHintGroup } from '../schema-hints.js';

/** The parts of a snapshot the models are built from (pages of one snapshot, concatenated). */
export type SnapshotScope = Pick<
  DataCoolieSnapshot,
  'connections' | 'dataflows' | 'schema_hints' | 'hint_fields'
>;

function connectionsById(scope: SnapshotScope): Map<string, Connection> {
  const byId = new Map<string, Connection>();
  scope.connections.forEach((item, index) => {
    try {
      const connection = createConnection(item);
      // Duplicates are the base validation's to report; the first one expands dataflows.
      if (!byId.has(connection.connection_id)) byId.set(connection.connection_id, connection);
    } catch (error) {
      throw new MetadataError(`Invalid connection response item at index ${index}`, {}, { cause: error });
    }
  });
  return byId;
}

function hintsOf(fields: readonly string[]): (tuple: readonly unknown[]) => SchemaHint {
  return (tuple) => {
    const input: Record<string, unknown> = {};
    fields.forEach((field, i) => (input[field] = tuple[i]));
    return createSchemaHint(input);
  };
}

/** The snapshot's complete scope as models; connections are shared by the dataflows that use them. */
export function snapshotModels(scope: SnapshotScope): BulkLoadResult {
  const byId = connectionsById(scope);
  const connectionOf = (dataflowId: string, role: 'source' | 'destination', id: unknown): Connection => {
    const connection = typeof id === 'string' ? byId.get(id) : undefined;
    if (!connection) {
      throw new MetadataError(`Dataflow ${dataflowId} references unknown ${role} connection: ${String(id)}`);
    }
    return connection;
  };
  const dataflows: DataFlow[] = scope.dataflows.map((item) => {
    const { connection_id: sourceId, ...source } = item.source;
    const { connection_id: destinationId, ...destination } = item.destination;
    return createDataflow({
      ...item,
      source: { ...source, connection: connectionOf(item.dataflow_id, 'source', sourceId) },
      destination: {
        ...destination,
        connection: connectionOf(item.dataflow_id, 'destination', destinationId),
      },
    });
  });
  const hint = hintsOf(scope.hint_fields);
  const schemaHints: SchemaHintGroup[] = scope.schema_hints.map((group, index) => {
    if (!byId.has(group.connection_id)) {
      throw new MetadataError(
        `Schema hint references unknown connection: ${group.connection_id} (${group.schema_name ?? ''}.${group.table_name})`,
      );
    }
    try {
      return { ...group, hints: group.hints.map(hint) };
    } catch (error) {
      throw new MetadataError(`Invalid schema hint response item at index ${index}`, {}, { cause: error });
    }
  });
  return { connections: [...byId.values()], dataflows, schemaHints };
}
