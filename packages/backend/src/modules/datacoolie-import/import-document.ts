// The import request read as DataCoolie reads a document (ADR 0050): each connection, dataflow and hint
// through DataCoolie's own models (a dataflow's ends get their connection object back by id), then the
// provider's start-up rules (unique ids, known connections, unique hint columns). What DataCoolie
// refuses becomes a problem carrying DataCoolie's own message.
import type {
  DataCoolieConnection,
  DataCoolieImportProblem,
  DataCoolieImportRequest,
  DataCoolieSnapshotDataflow,
} from '@aide/schemas';
import {
  casefold,
  type Connection,
  createConnection,
  createDataflow,
  createSchemaHint,
  type DataFlow,
  DataCoolieError,
  type SchemaHint,
} from '@aide/schemas/datacoolie';

export interface DocumentConnection {
  /** As the request wrote it (configure with its secret fields, in order; description). */
  written: DataCoolieConnection;
  built: Connection;
}

export interface DocumentDataflow {
  written: DataCoolieSnapshotDataflow;
  built: DataFlow;
  datacoolie_id: string;
  name: string;
}

export interface DocumentHintGroup {
  connection_id: string;
  schema_name: string | null;
  table_name: string;
  hints: SchemaHint[];
}

export interface ImportDocument {
  connections: DocumentConnection[];
  dataflows: DocumentDataflow[];
  hintGroups: DocumentHintGroup[];
}

type Request = Required<Pick<DataCoolieImportRequest, 'connections' | 'dataflows' | 'schema_hints'>>;

/** Runs `build`; a DataCoolie error becomes a problem (its message verbatim), anything else throws. */
function underDataCoolie<T>(
  problems: DataCoolieImportProblem[],
  kind: DataCoolieImportProblem['kind'],
  name: string,
  build: () => T,
): T | null {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof DataCoolieError)) throw error;
    problems.push({ kind, name, reason: error.message, code: null });
    return null;
  }
}

function readConnections(request: Request, problems: DataCoolieImportProblem[]): DocumentConnection[] {
  const seen = new Set<string>();
  const out: DocumentConnection[] = [];
  for (const written of request.connections) {
    const { description: _description, ...model } = written;
    const built = underDataCoolie(problems, 'connection', written.name, () => createConnection(model));
    if (built === null) continue;
    if (seen.has(built.connection_id)) {
      const reason = `Duplicate connection_id in metadata: ${built.connection_id}`;
      problems.push({ kind: 'connection', name: written.name, reason, code: null });
      continue;
    }
    seen.add(built.connection_id);
    if (built.connection_type === 'streaming') {
      const reason = 'streaming connections have no format DataCoolie can run';
      problems.push({ kind: 'connection', name: written.name, reason, code: null });
      continue;
    }
    out.push({ written, built });
  }
  return out;
}

function readDataflows(
  request: Request,
  connections: ReadonlyMap<string, DocumentConnection>,
  problems: DataCoolieImportProblem[],
): DocumentDataflow[] {
  const seen = new Set<string>();
  const out: DocumentDataflow[] = [];
  for (const written of request.dataflows) {
    const label = written.name ?? written.dataflow_id;
    const source = connections.get(written.source.connection_id);
    const destination = connections.get(written.destination.connection_id);
    if (!source || !destination) {
      const [role, id] = source
        ? ['destination', written.destination.connection_id]
        : ['source', written.source.connection_id];
      // An unknown id, or a connection already refused (its own problem says why).
      if (!request.connections.some((c) => c.connection_id === id)) {
        const reason = `Dataflow ${label} ${role} references unknown connection: ${id}`;
        problems.push({ kind: 'dataflow', name: label, reason, code: null });
      }
      continue;
    }
    const { connection_id: _s, ...sourceRest } = written.source;
    const { connection_id: _d, ...destinationRest } = written.destination;
    const built = underDataCoolie(problems, 'dataflow', label, () =>
      createDataflow({
        ...written,
        source: { ...sourceRest, connection: source.built },
        destination: { ...destinationRest, connection: destination.built },
      }),
    );
    if (built === null) continue;
    if (built.dataflow_id === null) {
      const reason = `Dataflow '${label}' must define a non-empty dataflow_id or name`;
      problems.push({ kind: 'dataflow', name: label, reason, code: null });
      continue;
    }
    if (seen.has(built.dataflow_id)) {
      const reason = `Duplicate dataflow_id in metadata: ${built.dataflow_id}`;
      problems.push({ kind: 'dataflow', name: label, reason, code: null });
      continue;
    }
    seen.add(built.dataflow_id);
    out.push({ written, built, datacoolie_id: built.dataflow_id, name: built.name ?? built.dataflow_id });
  }
  return out;
}

/** Hint groups keyed as DataCoolie keys them; groups whose keys differ only by case are merged. */
function readHintGroups(
  request: Request,
  connections: ReadonlyMap<string, DocumentConnection>,
  problems: DataCoolieImportProblem[],
): DocumentHintGroup[] {
  const groups = new Map<string, DocumentHintGroup>();
  for (const written of request.schema_hints) {
    const schema = written.schema_name?.trim() ? written.schema_name.trim() : null;
    const table = written.table_name.trim();
    const connection = connections.get(written.connection_id);
    const label = `${connection?.built.name ?? written.connection_id}: ${schema === null ? '' : `${schema}.`}${table}`;
    if (table === '') {
      problems.push({
        kind: 'schema_hint_group',
        name: label,
        reason: 'table_name must be a non-empty string',
        code: null,
      });
      continue;
    }
    if (!connection) {
      if (!request.connections.some((c) => c.connection_id === written.connection_id)) {
        const reason = `Schema hint references unknown connection: ${written.connection_id}`;
        problems.push({ kind: 'schema_hint_group', name: label, reason, code: null });
      }
      continue;
    }
    const connectionId = connection.built.connection_id;
    const key = JSON.stringify([connectionId, schema === null ? null : casefold(schema), casefold(table)]);
    const group = groups.get(key) ?? {
      connection_id: connectionId,
      schema_name: schema,
      table_name: table,
      hints: [],
    };
    groups.set(key, group);
    for (const hint of written.hints) {
      const built = underDataCoolie(problems, 'schema_hint', `${label}.${hint.column_name}`, () =>
        createSchemaHint(hint),
      );
      if (built === null) continue;
      if (group.hints.some((h) => casefold(h.column_name) === casefold(built.column_name))) {
        const reason = `Duplicate schema hint column in metadata: ('${written.connection_id}', ${schema === null ? 'None' : `'${schema}'`}, '${table}', '${built.column_name}')`;
        problems.push({ kind: 'schema_hint', name: `${label}.${built.column_name}`, reason, code: null });
        continue;
      }
      group.hints.push(built);
    }
  }
  return [...groups.values()];
}

/** The request as DataCoolie loads it, and every problem DataCoolie's rules find in it. */
export function readDocument(request: Request, problems: DataCoolieImportProblem[]): ImportDocument {
  const connections = readConnections(request, problems);
  const byId = new Map(connections.map((c) => [c.built.connection_id, c]));
  // Dataflows and hints name their connection by the id the request wrote.
  for (const c of connections) byId.set(c.written.connection_id, c);
  return {
    connections,
    dataflows: readDataflows(request, byId, problems),
    hintGroups: readHintGroups(request, byId, problems),
  };
}
