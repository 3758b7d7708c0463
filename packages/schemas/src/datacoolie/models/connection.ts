// `Connection` (reference §1.3): one endpoint with one format, shared by many dataflows.
import {
  asInputObject,
  displayValue,
  isPlainObject,
  isUsableIdentifier,
  nameToUuid,
  parseJsonObject,
  pyTypeName,
  requireField,
  toBoolean,
  type JsonObject,
} from '../coerce.js';
import { CONNECTION_TYPE_FORMATS, type ConnectionType } from '../constants.js';
import { ConfigurationError } from '../errors.js';

export interface Connection {
  connection_id: string;
  workspace_id: string | null;
  name: string;
  connection_type: string;
  format: string;
  catalog: string | null;
  database: string | null;
  configure: JsonObject;
  /** Secret store → the `configure` fields whose values are secret names in that store. */
  secrets_ref: Record<string, string[]> | null;
  is_active: boolean;
}

/** Loose connection input: a DataCoolie document item or API payload (unknown keys are dropped). */
export type ConnectionInput = Partial<Record<keyof Connection, unknown>> & Record<string, unknown>;

const CONNECTION_TYPE_NAMES = Object.keys(CONNECTION_TYPE_FORMATS).sort();

function isConnectionType(value: unknown): value is ConnectionType {
  return typeof value === 'string' && Object.hasOwn(CONNECTION_TYPE_FORMATS, value);
}

function parseSecretsRef(value: unknown): Record<string, string[]> | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' && !isPlainObject(value)) {
    throw new ConfigurationError(`secrets_ref must be a str or dict, got ${pyTypeName(value)}`);
  }
  const parsed = parseJsonObject(value);
  if (Object.keys(parsed).length === 0) return null;
  const owners = new Map<string, string>();
  const result: Record<string, string[]> = {};
  for (const [source, fields] of Object.entries(parsed)) {
    const list = typeof fields === 'string' ? [fields] : fields;
    if (!Array.isArray(list) || !list.every((field) => typeof field === 'string')) {
      throw new ConfigurationError(`secrets_ref['${source}'] must be a list of configure field names`);
    }
    for (const field of list) {
      const owner = owners.get(field);
      if (owner !== undefined && owner !== source) {
        throw new ConfigurationError(
          `Field '${field}' appears in both secrets_ref sources '${owner}' and '${source}'. ` +
            'Each configure field must be listed under exactly one source.',
        );
      }
      owners.set(field, source);
    }
    result[source] = [...list];
  }
  return result;
}

function validateTypeAndFormat(connectionType: unknown, format: string): void {
  if (!isConnectionType(connectionType)) {
    throw new ConfigurationError(
      `Unknown connection_type '${String(connectionType)}'. Valid types: ${CONNECTION_TYPE_NAMES.join(', ')}`,
    );
  }
  const allowed = CONNECTION_TYPE_FORMATS[connectionType];
  if (!allowed.includes(format as never)) {
    const allowedText =
      allowed.length === 0 ? 'none (streaming is not yet supported)' : [...allowed].sort().join(', ');
    throw new ConfigurationError(
      `Format '${format}' is not valid for connection_type '${connectionType}'. Allowed: ${allowedText}`,
    );
  }
}

function nonEmpty(configure: JsonObject, key: string): boolean {
  const value = configure[key];
  return value !== null && value !== undefined && displayValue(value).trim() !== '';
}

function validateDatabaseAuth(name: string, configure: JsonObject): void {
  const authType = configure['auth_type'];
  if (authType === null || authType === undefined || authType === '') return;
  if (authType === 'service_principal') {
    const missing = ['username', 'password', 'tenant_id'].filter((key) => !nonEmpty(configure, key));
    if (missing.length > 0) {
      throw new ConfigurationError(
        `auth_type 'service_principal' requires configure fields: ${missing.join(', ')} on connection '${name}'`,
      );
    }
  } else if (authType === 'access_token' && !nonEmpty(configure, 'token')) {
    throw new ConfigurationError(
      `auth_type 'access_token' requires 'token' in configure on connection '${name}'`,
    );
  }
  const host = configure['host'];
  if (authType === 'password' && typeof host === 'string' && host.includes('.fabric.microsoft.com')) {
    throw new ConfigurationError(
      `Fabric SQL endpoint '${host}' on connection '${name}' requires Entra authentication; auth_type 'password' is not supported`,
    );
  }
}

function liftFromConfigure(current: unknown, configure: JsonObject, key: string): string | null {
  if (typeof current === 'string' && current !== '') return current;
  if (key in configure) {
    const value = configure[key];
    return value === null || value === undefined ? null : displayValue(value);
  }
  return typeof current === 'string' ? current : null;
}

// Connections built here: passed where a connection is expected, they are kept as they are (not
// copied), so dataflows that share one endpoint share one object, as the reference's models do.
const builtConnections = new WeakSet<Connection>();

export function isBuiltConnection(value: unknown): value is Connection {
  return typeof value === 'object' && value !== null && builtConnections.has(value as Connection);
}

/** Validates and coerces loose input into a Connection (construction validates, as upstream). */
export function createConnection(value: unknown): Connection {
  if (isBuiltConnection(value)) return value;
  const input = asInputObject(value, 'Connection');
  const name = requireField(input, 'name');
  const rawId = input['connection_id'];
  const connectionId = isUsableIdentifier(rawId)
    ? rawId
    : isUsableIdentifier(name)
      ? nameToUuid(name)
      : rawId;
  if (!isUsableIdentifier(name)) {
    throw new ConfigurationError('Connection.name must be a non-empty string', { field: 'name' });
  }
  const rawFormat = 'format' in input ? input['format'] : 'parquet';
  const format = typeof rawFormat === 'string' ? rawFormat.trim().toLowerCase() : rawFormat;
  if (typeof format !== 'string') {
    throw new ConfigurationError(`Connection.format must be a string, got ${pyTypeName(format)}`);
  }
  const secretsRef = parseSecretsRef(input['secrets_ref']);
  const configure = parseJsonObject(input['configure']);
  let connectionType: string;
  // Presence of the key, not its value, decides whether the type was authored (reference §1.1.5).
  if ('connection_type' in input) {
    validateTypeAndFormat(input['connection_type'], format);
    connectionType = input['connection_type'] as string;
  } else {
    const derived = (Object.keys(CONNECTION_TYPE_FORMATS) as ConnectionType[]).find((type) =>
      CONNECTION_TYPE_FORMATS[type].includes(format as never),
    );
    connectionType = derived ?? 'file';
  }
  if (connectionType === 'database') validateDatabaseAuth(name, configure);
  const isActive = input['is_active'] ?? true;
  if (typeof isActive !== 'boolean') {
    throw new ConfigurationError('Connection.is_active must be a boolean', { field: 'is_active' });
  }
  const workspaceId = input['workspace_id'] ?? null;
  const connection: Connection = {
    connection_id: typeof connectionId === 'string' ? connectionId : '',
    workspace_id: workspaceId === null ? null : displayValue(workspaceId),
    name,
    connection_type: connectionType,
    format,
    catalog: liftFromConfigure(input['catalog'], configure, 'catalog'),
    database: liftFromConfigure(input['database'], configure, 'database'),
    configure,
    secrets_ref: secretsRef,
    is_active: isActive,
  };
  builtConnections.add(connection);
  return connection;
}

/** `use_schema_hint` of a connection's `configure` (default true). */
export function usesSchemaHint(connection: Pick<Connection, 'configure'>): boolean {
  const value = connection.configure['use_schema_hint'];
  if (value === undefined) return true;
  return toBoolean(value) ?? true;
}

/** `refresh_from_configure`: re-copies `database`/`catalog` from `configure` (after secret resolution). */
export function refreshFromConfigure(connection: Connection): void {
  for (const key of ['catalog', 'database'] as const) {
    if (key in connection.configure) {
      const value = connection.configure[key];
      connection[key] = value === null || value === undefined ? null : displayValue(value);
    }
  }
}
