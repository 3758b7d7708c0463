// The system a document's connection is made over (ported from the provider's former client-side
// importer): the one the request names, else the one its endpoint matches, else the one whose code is
// the connection's name. Never guessed: no match or several is a problem saying how to choose.
import { type Connection, databaseFamilyOf } from '@aide/schemas/datacoolie';
import type { ImportSystem } from './datacoolie-import.repository.js';

function endpointCandidates(connection: Connection, systems: readonly ImportSystem[]): ImportSystem[] {
  const c = connection.configure;
  const extra = (s: ImportSystem) => s.extra ?? {};
  if (connection.connection_type === 'database') {
    return systems.filter(
      (s) =>
        s.kind_code === 'rdbms' &&
        (c['database_type'] === undefined || databaseFamilyOf(s.flavor_code) === c['database_type']) &&
        c['host'] !== undefined &&
        extra(s)['host'] === c['host'] &&
        (c['port'] === undefined ||
          extra(s)['port'] === undefined ||
          Number(extra(s)['port']) === Number(c['port'])),
    );
  }
  const base = typeof c['base_path'] === 'string' ? c['base_path'].replace(/\/+$/, '') : null;
  return systems.filter((s) => {
    const root = extra(s)['base_path'];
    return typeof root === 'string' && base !== null && `${base}/`.startsWith(`${root.replace(/\/+$/, '')}/`);
  });
}

/** The system of a connection, or why none can be chosen. */
export function matchSystem(
  connection: Connection,
  systems: readonly ImportSystem[],
  named: Readonly<Record<string, string>>,
): ImportSystem | string {
  const choice = named[connection.name];
  if (choice !== undefined) {
    const found = systems.find((s) => s.id === choice.toLowerCase() || s.code === choice);
    return found ?? `no system '${choice}' (named in systems)`;
  }
  let candidates = endpointCandidates(connection, systems);
  if (candidates.length === 0) candidates = systems.filter((s) => s.code === connection.name);
  if (candidates.length === 1) return candidates[0];
  const how = `name its system in the request's systems ({"${connection.name}": "<system code>"}; CLI: --system ${connection.name}=<system code>)`;
  return candidates.length === 0
    ? `no system matches the connection: ${how}`
    : `several systems match the connection (${candidates.map((s) => s.code).join(', ')}): ${how}`;
}
