// Where DataCoolie finds a dataset through a connection (reference §8.3): `(schema_name, table)`
// computed by one convention for dataflow sources, destinations and schema-hint keys alike —
// otherwise hints never attach.
import { casefold, type Connection } from '@aide/schemas/datacoolie';

export interface DatasetForAddress {
  id: string;
  kind: string;
  system_id: string;
  details: Record<string, unknown>;
}

export interface DatasetAddress {
  schema_name: string | null;
  table: string;
}

export type AddressResult = { ok: true; address: DatasetAddress } | { ok: false; reason: string };

function fail(reason: string): AddressResult {
  return { ok: false, reason };
}

const trimSlashes = (path: string) => path.replace(/\/+$/, '');

function sameFormat(datasetFormat: unknown, connection: Connection): boolean {
  return typeof datasetFormat === 'string' && casefold(datasetFormat.trim()) === casefold(connection.format);
}

/** A path below the connection's `base_path`: the folders between are the schema, the leaf the table. */
function addressPath(path: string, connection: Connection): AddressResult {
  const base = connection.configure['base_path'];
  if (typeof base !== 'string' || base.trim() === '') {
    return fail(`connection '${connection.name}' has no base_path to address path datasets`);
  }
  const root = trimSlashes(base.trim());
  const full = trimSlashes(path.trim());
  if (!full.startsWith(`${root}/`)) {
    return fail(`path '${path}' is not below the connection's base_path '${base}'`);
  }
  const segments = full
    .slice(root.length + 1)
    .split('/')
    .filter((s) => s !== '');
  const table = segments.pop();
  if (table === undefined) return fail(`path '${path}' names the base_path itself, not a table`);
  return { ok: true, address: { schema_name: segments.length > 0 ? segments.join('/') : null, table } };
}

/** The address of a dataset through a connection, or why the connection cannot reach it. */
export function addressDataset(dataset: DatasetForAddress, connection: Connection): AddressResult {
  const d = dataset.details;
  const type = connection.connection_type;
  switch (dataset.kind) {
    case 'rdbms': {
      if (type !== 'database')
        return fail(`an rdbms dataset is read through a database connection, not ${type}`);
      const catalog = d['catalog_name'];
      if (
        typeof catalog === 'string' &&
        connection.database !== null &&
        casefold(catalog) !== casefold(connection.database)
      ) {
        return fail(`the dataset is in database '${catalog}', the connection in '${connection.database}'`);
      }
      return { ok: true, address: { schema_name: String(d['schema_name']), table: String(d['table_name']) } };
    }
    case 'hive':
      if (type !== 'lakehouse' && type !== 'file') {
        return fail(`a hive dataset is read through a lakehouse or file connection, not ${type}`);
      }
      if (!sameFormat(d['file_format'], connection)) {
        return fail(
          `the table's format '${String(d['file_format'])}' is not the connection's '${connection.format}'`,
        );
      }
      return { ok: true, address: { schema_name: String(d['db_name']), table: String(d['table_name']) } };
    case 'storage':
    case 'sftp':
      if (type !== 'file' && type !== 'lakehouse') {
        return fail(`a ${dataset.kind} dataset is read through a file or lakehouse connection, not ${type}`);
      }
      if (!sameFormat(d['file_format'], connection)) {
        return fail(
          `the dataset's format '${String(d['file_format'])}' is not the connection's '${connection.format}'`,
        );
      }
      return addressPath(String(d['path']), connection);
    default:
      return fail(`${dataset.kind} datasets cannot be read or written by DataCoolie (no streaming format)`);
  }
}

/** The schema-hint key of an address: `(connection_id, casefold(schema), casefold(table))`. */
export function hintKeyOf(connectionId: string, address: DatasetAddress): string {
  const schema = address.schema_name?.trim() ?? '';
  return JSON.stringify([
    connectionId,
    schema === '' ? null : casefold(schema),
    casefold(address.table.trim()),
  ]);
}
