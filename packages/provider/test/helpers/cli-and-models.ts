// Shared by the provider's CLI tests: the CLI run in-process against the test backend, and the models
// DataCoolie loads from a document, as served from a workspace, in a form two documents compare by.
import { main, type Io } from '../../src/cli/program.js';
import type { LoadedMetadata, SchemaHintGroup } from '../../src/index.js';
import { backend } from './backend.js';

export const USER_CREDENTIALS = {
  AIDE_METASTORE_USER: backend.username,
  AIDE_METASTORE_PASSWORD: backend.password,
};

/** `aide-provider <args>` in this process, its output captured (the registry's URL and a user's login). */
export async function cli(
  args: string[],
  credentials: Record<string, string> = USER_CREDENTIALS,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { AIDE_METASTORE_URL: backend.baseUrl, ...credentials },
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

export const byName = <T extends { name: string | null }>(a: T, b: T) =>
  String(a.name).localeCompare(String(b.name));

/** A hint group's identity: its connection, schema and table. */
export const groupKey = (g: Pick<SchemaHintGroup, 'connection_id' | 'schema_name' | 'table_name'>) =>
  JSON.stringify([g.connection_id, g.schema_name, g.table_name]);

/**
 * The models as JSON (key order counts) with the workspace code the registry gives them; connections
 * and dataflows by name (an export lists them in the registry's order, not the document's). Hint groups
 * keep their order unless `sortHints` (by `groupKey`), where their order is not what is compared.
 */
export function modelsAsServed(
  { connections, dataflows, schemaHints }: LoadedMetadata,
  workspace: string,
  { sortHints = false }: { sortHints?: boolean } = {},
): string {
  const connection = (c: LoadedMetadata['connections'][number]) => ({ ...c, workspace_id: workspace });
  return JSON.stringify({
    connections: connections.map(connection).sort(byName),
    dataflows: dataflows
      .map((d) => ({
        ...d,
        workspace_id: workspace,
        source: { ...d.source, connection: connection(d.source.connection) },
        destination: { ...d.destination, connection: connection(d.destination.connection) },
      }))
      .sort(byName),
    schemaHints: sortHints
      ? [...schemaHints].sort((a, b) => groupKey(a).localeCompare(groupKey(b)))
      : schemaHints,
  });
}
