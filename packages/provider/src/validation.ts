// The invariants checked before a snapshot is published (reference §3), in the reference's order.
import { isUsableIdentifier, MetadataError, type Connection, type DataFlow } from '@aide/schemas/datacoolie';
import { normalizeSchemaHintGroups, type SchemaHintGroup } from './schema-hints.js';

function checkDataflowConnection(
  dataflowId: string,
  role: 'source' | 'destination',
  connection: Connection,
  knownNames: Map<string, string>,
): void {
  const context = `Dataflow ${dataflowId} ${role}`;
  const id: unknown = connection.connection_id;
  const name: unknown = connection.name;
  if (!isUsableIdentifier(id))
    throw new MetadataError(`${context} connection must have a non-empty connection_id`);
  if (!isUsableIdentifier(name)) throw new MetadataError(`${context} connection must have a non-empty name`);
  const known = knownNames.get(id);
  if (known === undefined) {
    // An inline connection: known for the rest of the validation, never published.
    knownNames.set(id, name);
  } else if (known !== name) {
    throw new MetadataError(
      `${context} connection ${id} has conflicting name '${name}'; expected '${known}'`,
    );
  }
}

/**
 * Validates identity and references of a bulk-loaded scope and returns its normalized schema-hint
 * groups. Throws MetadataError on the first violation.
 */
export function validateInitializedScope(
  connections: readonly Connection[],
  dataflows: readonly DataFlow[],
  schemaHints: Iterable<SchemaHintGroup>,
): Map<string, SchemaHintGroup> {
  const knownNames = new Map<string, string>();
  for (const connection of connections) {
    if (knownNames.has(connection.connection_id)) {
      throw new MetadataError(`Duplicate connection_id in metadata: ${connection.connection_id}`);
    }
    knownNames.set(connection.connection_id, connection.name);
  }
  const dataflowIds = new Set<string>();
  for (const dataflow of dataflows) {
    const id: unknown = dataflow.dataflow_id;
    if (!isUsableIdentifier(id) && !isUsableIdentifier(dataflow.name)) {
      const label = dataflow.dataflow_id || dataflow.name || '?';
      throw new MetadataError(`Dataflow '${label}' must define a non-empty dataflow_id or name`);
    }
    const dataflowId = isUsableIdentifier(id) ? id : String(dataflow.name);
    if (dataflowIds.has(dataflowId))
      throw new MetadataError(`Duplicate dataflow_id in metadata: ${dataflowId}`);
    dataflowIds.add(dataflowId);
    checkDataflowConnection(dataflowId, 'source', dataflow.source.connection, knownNames);
    checkDataflowConnection(dataflowId, 'destination', dataflow.destination.connection, knownNames);
  }
  const groups = [...schemaHints];
  for (const group of groups) {
    const id: unknown = group.connection_id;
    // Unusable ids are reported by the key normalization below, with its own message.
    if (isUsableIdentifier(id) && !knownNames.has(id.trim())) {
      throw new MetadataError(`Schema hint references unknown connection: ${id}`);
    }
  }
  return normalizeSchemaHintGroups(groups);
}
