// A connection profile as the DataCoolie connection it exports (reference §8.2): the system's kind and
// flavor give the derived `configure` (database type, host and port, base path), the profile's own
// `configure` overrides it, and credential references fill secret fields with secret *names* plus
// `secrets_ref`. Secret values are never stored, so they are never exported. A profile imported from a
// DataCoolie document (`as_written`, ADR 0050) derives nothing: its configure is served as written.
import { SECRET_CONFIGURE_KEYS } from '@aide/schemas';
import {
  type Connection,
  createConnection,
  databaseFamilyOf,
  type JsonObject,
} from '@aide/schemas/datacoolie';

export interface ProfileRow {
  id: string;
  workspace_id: string;
  name: string;
  connection_type: string;
  format: string;
  catalog: string | null;
  database: string | null;
  configure: JsonObject;
  use_schema_hint: boolean;
  is_active: boolean;
  /** The connection_id DataCoolie sees (ADR 0050); the profile id when absent. */
  datacoolie_id?: string;
  /** Served as `description` when present and not null. */
  description?: string | null;
  /** Served exactly as a document wrote it (ADR 0050); absent: false. */
  as_written?: boolean;
  /** For `as_written`: every configure key in the document's order, secret fields included. */
  configure_keys?: string[] | null;
}

/** What a profile's export needs of its system. */
export interface ProfileSystem {
  extra: JsonObject | null;
  flavor_code: string;
  kind_code: string;
}

/** A secret field of a profile with the credential reference that names the secret. */
export interface ProfileSecretRef {
  configure_field: string;
  provider: string;
  path: string;
}

export interface ProfileExportInput {
  profile: ProfileRow;
  system: ProfileSystem;
  secrets: readonly ProfileSecretRef[];
}

/** The connection types a system kind can serve (§8.2's flavor table). */
const KIND_CONNECTION_TYPES: Readonly<Record<string, readonly string[]>> = {
  rdbms: ['database', 'api', 'function'],
  storage: ['file', 'lakehouse', 'api', 'function'],
  hive: ['lakehouse', 'file', 'api', 'function'],
  sftp: ['file', 'api', 'function'],
  // DataCoolie has no streaming format: a Kafka system is reachable only through a custom function.
  kafka: ['function'],
};

/** Whether a system of kind `kindCode` can back a connection of `connectionType`. */
export function connectionTypeFitsKind(connectionType: string, kindCode: string): boolean {
  const allowed = KIND_CONNECTION_TYPES[kindCode] ?? ['api', 'function'];
  return allowed.includes(connectionType);
}

const SYSTEM_ENDPOINT_KEYS = ['host', 'port', 'url', 'driver', 'base_path'] as const;

/** The configure a system implies, before the profile's overrides. */
function derivedConfigure({ profile, system }: ProfileExportInput): JsonObject {
  const configure: JsonObject = {};
  const extra = system.extra ?? {};
  for (const key of SYSTEM_ENDPOINT_KEYS) {
    if (extra[key] !== undefined && extra[key] !== null) configure[key] = extra[key];
  }
  if (profile.connection_type === 'database') {
    const databaseType = databaseFamilyOf(system.flavor_code);
    if (databaseType !== null) {
      configure['database_type'] = databaseType;
      configure['schema_hint_type_system'] = databaseType;
    }
  }
  return configure;
}

/**
 * Secret-bearing configure keys given as values: a profile holds secret names only through credential
 * references. Returns the offending keys (empty when none).
 */
export function inlineSecretKeys(configure: JsonObject, secretFields: readonly string[]): string[] {
  const fromRefs = new Set(secretFields);
  return Object.keys(configure).filter(
    (key) => (SECRET_CONFIGURE_KEYS as readonly string[]).includes(key.toLowerCase()) || fromRefs.has(key),
  );
}

/**
 * The configure of an `as_written` profile: the keys in the document's order (`configure_keys`), each
 * secret field filled with its secret's name at its place, nothing derived. Keys the order does not
 * name (none, when the import wrote the profile) follow in their stored order.
 */
function asWrittenConfigure(profile: ProfileRow, secrets: readonly ProfileSecretRef[]): JsonObject {
  const stored = structuredClone(profile.configure);
  const secretNames = new Map(secrets.map((s) => [s.configure_field, s.path]));
  const keys = new Set([...(profile.configure_keys ?? []), ...Object.keys(stored), ...secretNames.keys()]);
  const entries: [string, unknown][] = [];
  for (const key of keys) {
    if (secretNames.has(key)) entries.push([key, secretNames.get(key)]);
    else if (Object.hasOwn(stored, key)) entries.push([key, stored[key]]);
  }
  // fromEntries defines own properties: any key a document wrote (even `__proto__`) stays a key.
  return Object.fromEntries<unknown>(entries);
}

/** The configure of a profile made in AIDE: derived from its system, overridden by its own. */
function derivedProfileConfigure(input: ProfileExportInput): JsonObject {
  const configure: JsonObject = { ...derivedConfigure(input), ...structuredClone(input.profile.configure) };
  configure['use_schema_hint'] = input.profile.use_schema_hint;
  for (const secret of input.secrets) configure[secret.configure_field] = secret.path;
  return configure;
}

/**
 * The connection document of a profile (reference §1.10 shape), validated by DataCoolie's rules.
 * `workspaceId` is what its `workspace_id` says (the workspace's code in served documents).
 */
export function exportConnection(
  input: ProfileExportInput,
  workspaceId: string = input.profile.workspace_id,
): Connection {
  const { profile, secrets } = input;
  const configure = profile.as_written
    ? asWrittenConfigure(profile, secrets)
    : derivedProfileConfigure(input);
  // Stores in the order their first field comes, each store's fields in order (secrets by position).
  const secretsRef: Record<string, string[]> = {};
  for (const secret of secrets) (secretsRef[secret.provider] ??= []).push(secret.configure_field);
  const connection = createConnection({
    connection_id: profile.datacoolie_id ?? profile.id,
    workspace_id: workspaceId,
    name: profile.name,
    connection_type: profile.connection_type,
    format: profile.format,
    catalog: profile.catalog,
    database: profile.database,
    configure,
    secrets_ref: Object.keys(secretsRef).length > 0 ? secretsRef : null,
    is_active: profile.is_active,
  });
  // Not a field of DataCoolie's model (which ignores it); kept on the built object, whose identity
  // dataflows built with it share.
  if (profile.description !== undefined && profile.description !== null) {
    Object.assign(connection, { description: profile.description });
  }
  return connection;
}
