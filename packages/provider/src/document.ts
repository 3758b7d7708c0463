// DataCoolie metadata documents (reference §6.1): JSON or YAML mappings with `connections`,
// `dataflows` and `schema_hints` sections. Dataflows reference connections by `connection_name` (or
// inline `connection` objects); hint groups by `connection_id` or `connection_name`.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  isPlainObject,
  isUsableIdentifier,
  type JsonObject,
  ConfigurationError,
  DataCoolieError,
  MetadataError,
  createConnection,
  type Connection,
  createDataflow,
  type DataFlow,
  createSchemaHint,
} from '@aide/schemas/datacoolie';
import type { SchemaHintGroup } from './schema-hints.js';

/** A parsed document and where it came from (a file path, or a label used in error messages). */
export interface MetadataDocumentSource {
  document: unknown;
  source?: string;
}

/** The models a set of documents describes. */
export interface LoadedMetadata {
  connections: Connection[];
  dataflows: DataFlow[];
  schemaHints: SchemaHintGroup[];
}

const SECTIONS = ['connections', 'dataflows', 'schema_hints'] as const;
type Section = (typeof SECTIONS)[number];

export type MetadataDocumentFormat = 'json' | 'yaml';

/** Parses document text; YAML is a superset of JSON, so `yaml` reads both. */
export function parseMetadataText(
  text: string,
  format: MetadataDocumentFormat = 'yaml',
  source = '<text>',
): unknown {
  try {
    return format === 'json' ? (JSON.parse(text) as unknown) : (parseYaml(text) as unknown);
  } catch (error) {
    throw new MetadataError(`Cannot parse metadata config: ${source}`, {}, { cause: error });
  }
}

/** Reads one `.json`, `.yaml` or `.yml` document. */
export async function readMetadataFile(path: string): Promise<MetadataDocumentSource> {
  const extension = extname(path).toLowerCase();
  if (!['.json', '.yaml', '.yml'].includes(extension)) {
    throw new MetadataError(`Unsupported metadata file type: ${path} (supported: .json, .yaml, .yml)`);
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new MetadataError(`Cannot read metadata config: ${path}`, {}, { cause: error });
  }
  return { document: parseMetadataText(text, extension === '.json' ? 'json' : 'yaml', path), source: path };
}

function sectionsOf({
  document,
  source = '<document>',
}: MetadataDocumentSource): Partial<Record<Section, unknown[]>> {
  let root: unknown = document;
  if (isPlainObject(root) && isPlainObject(root['metadata'])) root = root['metadata'];
  if (!isPlainObject(root)) throw new MetadataError('Metadata document must contain a mapping at root level');
  const present = SECTIONS.filter((section) => section in root);
  if (present.length === 0) {
    throw new MetadataError(
      `Metadata document must contain a connections, dataflows, or schema_hints section: ${source}`,
    );
  }
  const sections: Partial<Record<Section, unknown[]>> = {};
  for (const section of present) {
    const items = root[section] ?? [];
    if (!Array.isArray(items))
      throw new MetadataError(`Metadata section '${section}' must be a list: ${source}`);
    sections[section] = items;
  }
  return sections;
}

interface Located<T> {
  item: T;
  index: number;
  source: string;
}

function causeText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class ConnectionDirectory {
  private readonly byName = new Map<string, Connection[]>();
  readonly ids = new Set<string>();

  constructor(connections: readonly Connection[]) {
    for (const connection of connections) this.add(connection);
  }

  add(connection: Connection): void {
    this.ids.add(connection.connection_id);
    const named = this.byName.get(connection.name) ?? [];
    if (!named.some((other) => other.connection_id === connection.connection_id)) named.push(connection);
    this.byName.set(connection.name, named);
  }

  byNameOrNull(name: string): Connection | null {
    const named = this.byName.get(name) ?? [];
    if (named.length > 1) throw new MetadataError(`Connection name is ambiguous: ${name}; use connection_id`);
    return named[0] ?? null;
  }
}

function resolveEndpoint(
  input: unknown,
  role: 'source' | 'destination',
  label: string,
  directory: ConnectionDirectory,
): unknown {
  if (!isPlainObject(input)) return input;
  const hasName = 'connection_name' in input;
  const hasInline = 'connection' in input;
  if (hasName && hasInline) {
    throw new MetadataError(
      `Dataflow '${label}' ${role} cannot define both 'connection_name' and 'connection'`,
    );
  }
  if (!hasName && !hasInline) {
    throw new MetadataError(`Dataflow '${label}' ${role} must have 'connection_name' or 'connection'`);
  }
  if (hasInline) return input;
  const name = input['connection_name'];
  const connection = typeof name === 'string' ? directory.byNameOrNull(name) : null;
  if (connection === null) throw new MetadataError(`Connection not found: ${String(name)}`);
  const { connection_name: _ignored, ...rest } = input;
  return { ...rest, connection };
}

function loadDataflow({ item, index, source }: Located<unknown>, directory: ConnectionDirectory): DataFlow {
  const input: JsonObject = isPlainObject(item) ? item : {};
  const label = [input['dataflow_id'], input['name']].find(isUsableIdentifier) ?? String(index);
  const resolvedSource = resolveEndpoint(input['source'], 'source', label, directory);
  const resolvedDestination = resolveEndpoint(input['destination'], 'destination', label, directory);
  let dataflow: DataFlow;
  try {
    dataflow = createDataflow({ ...input, source: resolvedSource, destination: resolvedDestination });
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new MetadataError(
      `Invalid dataflow definition '${label}' at index ${index} (source: ${source}): ${causeText(error)}`,
      error.details,
      { cause: error },
    );
  }
  // Dataflows that name one connection share its model (createDataflow keeps built connections).
  return dataflow;
}

function loadHintGroup(
  { item, index, source }: Located<unknown>,
  directory: ConnectionDirectory,
): SchemaHintGroup {
  if (!isPlainObject(item))
    throw new MetadataError(`Schema hint group ${index} must be a mapping (source: ${source})`);
  const id = item['connection_id'];
  const name = item['connection_name'];
  let connectionId: string | null = null;
  if (isUsableIdentifier(id)) connectionId = directory.ids.has(id) ? id : null;
  else if (typeof name === 'string') connectionId = directory.byNameOrNull(name)?.connection_id ?? null;
  if (connectionId === null) {
    throw new MetadataError(
      `Schema hint group ${index} references unknown connection: ${String(isUsableIdentifier(id) ? id : name)} (source: ${source})`,
    );
  }
  const table = item['table_name'];
  const rawHints = item['hints'] ?? [];
  if (!Array.isArray(rawHints))
    throw new MetadataError(`Schema hint group ${index} hints must be a list (source: ${source})`);
  const hints = rawHints.map((hint) => {
    try {
      return createSchemaHint(hint);
    } catch (error) {
      if (!(error instanceof DataCoolieError)) throw error;
      throw new MetadataError(
        `Invalid schema hint for ${String(table)}: ${causeText(error)}`,
        error.details,
        {
          cause: error,
        },
      );
    }
  });
  return {
    connection_id: connectionId,
    schema_name: (item['schema_name'] ?? null) as string | null,
    table_name: table as string,
    hints,
  };
}

/**
 * Maps documents to models. Sections of several documents are concatenated in order; references are
 * resolved within the whole set. Identity checks (duplicate ids, conflicting inline connections) are
 * left to the provider's initialization, which reports them with the reference's messages.
 */
export function loadMetadataDocuments(documents: readonly MetadataDocumentSource[]): LoadedMetadata {
  const located: Record<Section, Located<unknown>[]> = { connections: [], dataflows: [], schema_hints: [] };
  for (const document of documents) {
    const sections = sectionsOf(document);
    for (const section of SECTIONS) {
      sections[section]?.forEach((item, index) =>
        located[section].push({ item, index, source: document.source ?? '<document>' }),
      );
    }
  }
  const connections = located.connections.map(({ item, source }) => {
    try {
      return createConnection(item);
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      const name = isPlainObject(item) ? String(item['name']) : String(item);
      // The reference's message names the connection only; its cause (DataCoolie's own reason, e.g.
      // "Format 'csv' is not valid for connection_type 'lakehouse'") is kept in the text, as for dataflows.
      throw new MetadataError(
        `Invalid connection definition: ${name} (source: ${source}): ${causeText(error)}`,
        error.details,
        { cause: error },
      );
    }
  });
  const directory = new ConnectionDirectory(connections);
  const dataflows = located.dataflows.map((entry) => loadDataflow(entry, directory));
  // Inline dataflow connections may carry hint groups too.
  for (const dataflow of dataflows) {
    for (const connection of [dataflow.source.connection, dataflow.destination.connection]) {
      if (!directory.ids.has(connection.connection_id)) directory.ids.add(connection.connection_id);
    }
  }
  const schemaHints = located.schema_hints.map((entry) => loadHintGroup(entry, directory));
  return { connections, dataflows, schemaHints };
}

/** One document (a parsed mapping). */
export function loadMetadataDocument(document: unknown, source?: string): LoadedMetadata {
  return loadMetadataDocuments([source === undefined ? { document } : { document, source }]);
}

/**
 * The `description` each connection of the documents gave (null where it gave none), in the order
 * `loadMetadataDocuments` returns the connections. DataCoolie's models drop the key; the registry keeps
 * it (ADR 0050), so an import carries it beside the model.
 */
export function connectionDescriptions(documents: readonly MetadataDocumentSource[]): (string | null)[] {
  return documents.flatMap((document) =>
    (sectionsOf(document).connections ?? []).map((item) =>
      isPlainObject(item) && typeof item['description'] === 'string' ? item['description'] : null,
    ),
  );
}
