// A registry workspace as a DataCoolie JSON metadata document (reference §6.1): what a team gets back
// from `aide-provider export`, loadable unchanged by DataCoolie's FileProvider or by
// `InMemoryMetadataProvider`. Dataflows and hint groups name their connections (`connection_name`:
// names are unique in a workspace); connection ids, dataflow ids (the watermark keys) and secret
// *names* with `secrets_ref` are kept; secret values are never in the registry, so never here. A
// connection's `description` is written when it has one (DataCoolie ignores the key): the document
// re-imports as a no-op.
import type { DataFlow, JsonObject } from '@aide/schemas/datacoolie';
import type { AideClient } from '@aide/sdk';
import { validateInitializedScope } from '../validation.js';
import { readWorkspaceSnapshot } from './aide-provider.js';

/** A DataCoolie metadata document, as `JSON.stringify` writes it. */
export interface DataCoolieDocument {
  connections: JsonObject[];
  dataflows: JsonObject[];
  schema_hints: JsonObject[];
}

/** Plain JSON of a model (models are plain data: this drops nothing but `undefined`). */
const plain = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value)) as JsonObject;

function dataflowEntry(dataflow: DataFlow): JsonObject {
  const { connection: source, ...sourceRest } = dataflow.source;
  const { connection: destination, ...destinationRest } = dataflow.destination;
  return plain({
    ...dataflow,
    source: { connection_name: source.name, ...sourceRest },
    destination: { connection_name: destination.name, ...destinationRest },
  });
}

/**
 * The workspace's complete scope (active and inactive) read in one snapshot, checked with the
 * provider's own start-up validation, as a document.
 */
export async function exportWorkspaceDocument(
  client: AideClient,
  workspace: string,
): Promise<DataCoolieDocument> {
  const snapshot = (await readWorkspaceSnapshot(client, workspace))!;
  const { connections, dataflows, schemaHints } = snapshot.models;
  const description = (id: string) => {
    const text = snapshot.descriptions.get(id);
    return text === undefined ? {} : { description: text };
  };
  validateInitializedScope(connections, dataflows, schemaHints);
  const names = new Map(connections.map((c) => [c.connection_id, c.name]));
  return {
    connections: connections.map((c) => plain({ ...c, ...description(c.connection_id) })),
    dataflows: dataflows.map(dataflowEntry),
    schema_hints: schemaHints.map(({ connection_id, schema_name, table_name, hints }) =>
      plain({ connection_name: names.get(connection_id), schema_name, table_name, hints }),
    ),
  };
}
