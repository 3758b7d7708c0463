// The metadata snapshot (reference §2.8): either a complete validated scope or empty. Indexes are built
// before the swap, so a reader never sees a mix of two snapshots; there is no per-item seeding.
import type { Connection, DataFlow } from '@aide/schemas/datacoolie';
import type { SchemaHintGroups } from './schema-hints.js';

interface Snapshot {
  readonly connections: readonly Connection[];
  readonly dataflows: readonly DataFlow[];
  readonly connectionsById: ReadonlyMap<string, Connection>;
  readonly connectionsByName: ReadonlyMap<string, readonly Connection[]>;
  readonly dataflowsById: ReadonlyMap<string, DataFlow>;
  readonly schemaHints: SchemaHintGroups;
}

const EMPTY: Snapshot = {
  connections: [],
  dataflows: [],
  connectionsById: new Map(),
  connectionsByName: new Map(),
  dataflowsById: new Map(),
  schemaHints: new Map(),
};

export class MetadataCache {
  private snapshot: Snapshot = EMPTY;

  /** Replaces the whole cache with a new scope (already validated and normalized). */
  publishSnapshot(connections: Connection[], dataflows: DataFlow[], schemaHints: SchemaHintGroups): void {
    const connectionsById = new Map<string, Connection>();
    const connectionsByName = new Map<string, Connection[]>();
    for (const connection of connections) {
      connectionsById.set(connection.connection_id, connection);
      const named = connectionsByName.get(connection.name);
      if (named) named.push(connection);
      else connectionsByName.set(connection.name, [connection]);
    }
    const dataflowsById = new Map<string, DataFlow>();
    for (const dataflow of dataflows) {
      if (dataflow.dataflow_id !== null) dataflowsById.set(dataflow.dataflow_id, dataflow);
    }
    this.snapshot = {
      connections,
      dataflows,
      connectionsById,
      connectionsByName,
      dataflowsById,
      schemaHints,
    };
  }

  clear(): void {
    this.snapshot = EMPTY;
  }

  get isEmpty(): boolean {
    return this.snapshot === EMPTY;
  }

  get connections(): readonly Connection[] {
    return this.snapshot.connections;
  }

  get dataflows(): readonly DataFlow[] {
    return this.snapshot.dataflows;
  }

  get schemaHints(): SchemaHintGroups {
    return this.snapshot.schemaHints;
  }

  connectionById(connectionId: string): Connection | undefined {
    return this.snapshot.connectionsById.get(connectionId);
  }

  connectionsNamed(name: string): readonly Connection[] {
    return this.snapshot.connectionsByName.get(name) ?? [];
  }

  dataflowById(dataflowId: string): DataFlow | undefined {
    return this.snapshot.dataflowsById.get(dataflowId);
  }
}
