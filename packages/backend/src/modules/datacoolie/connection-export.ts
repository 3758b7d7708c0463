// A connection profile as the DataCoolie connection it exports (reference §8.2): the system's kind and
// flavor give the derived `configure` (database type, host and port, base path), the profile's own
// `configure` overrides it, and credential references fill secret fields with secret *names* plus
// `secrets_ref`. Secret values are never stored, so they are never exported.
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

/** The connection document of a profile (reference §1.10 shape), validated by DataCoolie's rules. */
export function exportConnection(input: ProfileExportInput): Connection {
  const { profile, secrets } = input;
  const configure: JsonObject = { ...derivedConfigure(input), ...structuredClone(profile.configure) };
  configure['use_schema_hint'] = profile.use_schema_hint;
  const secretsRef: Record<string, string[]> = {};
  for (const secret of secrets) {
    configure[secret.configure_field] = secret.path;
    (secretsRef[secret.provider] ??= []).push(secret.configure_field);
  }
  return createConnection({
    connection_id: profile.id,
    workspace_id: profile.workspace_id,
    name: profile.name,
    connection_type: profile.connection_type,
    format: profile.format,
    catalog: profile.catalog,
    database: profile.database,
    configure,
    secrets_ref: Object.keys(secretsRef).length > 0 ? secretsRef : null,
    is_active: profile.is_active,
  });
}
