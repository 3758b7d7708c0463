// The dataset a connection reaches at `(schema, table)` (ported from the provider's former importer):
// an rdbms table `schema.table`, a hive table of the system's catalog, or a path below the
// connection's base_path; other kinds hold nothing DataCoolie reads or writes.
import type { CreateDataset } from '@aide/schemas';
import type { Connection } from '@aide/schemas/datacoolie';
import type { ImportSystem } from './datacoolie-import.repository.js';

/** `<connection>: <schema>.<table>` (or `<connection>: <table>`): how plan items name a table. */
export function tableLabel(connection: string, schema: string | null, table: string): string {
  return `${connection}: ${schema === null ? '' : `${schema}.`}${table}`;
}

/** The body that creates the dataset (its object name finds it), or why the table has none. */
export function datasetBodyFor(
  connection: Connection,
  system: ImportSystem,
  schema: string | null,
  table: string,
): CreateDataset | string {
  const common = { system_id: system.id };
  if (connection.connection_type === 'database') {
    if (schema === null) return 'a database table needs its schema_name';
    return {
      kind: 'rdbms',
      ...common,
      object_name: `${schema}.${table}`,
      schema_name: schema,
      table_name: table,
    };
  }
  if (system.kind_code === 'hive') {
    if (schema === null) return 'a hive table needs its database (schema_name)';
    const uri = system.extra?.['catalog_uri'] ?? system.extra?.['uri'];
    if (typeof uri !== 'string') return `hive system '${system.code}' has no catalog_uri in its extra`;
    return {
      kind: 'hive',
      ...common,
      catalog_uri: uri,
      object_name: `${schema}.${table}`,
      db_name: schema,
      table_name: table,
      file_format: connection.format,
    };
  }
  if (system.kind_code === 'storage' || system.kind_code === 'sftp') {
    const base = connection.configure['base_path'];
    if (typeof base !== 'string' || base.trim() === '') {
      return `connection '${connection.name}' has no base_path to place the table under`;
    }
    const path = [base.replace(/\/+$/, ''), ...(schema === null ? [] : [schema]), table].join('/');
    return {
      kind: system.kind_code,
      ...common,
      object_name: path,
      path,
      file_format: connection.format,
    };
  }
  return `a ${system.kind_code} system holds no tables DataCoolie reads or writes`;
}
