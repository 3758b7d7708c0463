// MySQL 8 / MariaDB introspection: the catalog rows (mysql-catalog.ts: information_schema, one query
// per kind of object, whatever the table count), then the tables assembled from them, one kind of
// object after the other. With a URL naming a database and no --schemas, only that database is read.
import type { Index, ReferentialAction } from '../model.js';
import { mapMysqlType } from '../normalise/mysql.js';
import type { TypeLog } from '../normalise/type-log.js';
import { groupRows, TableSet } from './assemble.js';
import type { InspectDialect } from './dialect.js';
import type { ParsedFilters } from './filters.js';
import {
  type CheckRow,
  type ColumnRow,
  type IndexRow,
  type KeyRow,
  type PartitionRow,
  readMysqlCatalog,
  type ServerRow,
  type TableRow,
  type ViewRow,
} from './mysql-catalog.js';

const orNull = (text: string | null | undefined): string | null =>
  text === null || text === undefined || text === '' ? null : text;

/** A column's, constraint's or index's key within the inspection: schema, table and name. */
const objectKey = (schema: string, table: string, name: string): string =>
  `${schema}\u0000${table}\u0000${name}`;

export const inspectMysql: InspectDialect = async (catalog, requested, types, target) => {
  const [server] = await catalog.query<ServerRow>('SELECT VERSION() AS version');
  const mariadb = /mariadb/i.test(server.version);
  const database = target.mysql?.database;
  // A URL naming a database means that database, unless --schemas says otherwise.
  const filters: ParsedFilters =
    requested.schemas.length === 0 && database !== undefined
      ? { ...requested, schemas: [database] }
      : requested;
  const rows = await readMysqlCatalog(catalog, filters, mariadb, server.version);

  const tables = addTables(rows.tables, rows.views);
  const jsonColumns = addColumns(tables, rows.columns, rows.checks, types);
  const keyNames = addKeys(tables, rows.keys);
  addIndexes(tables, rows.indexes, keyNames);
  addChecks(tables, rows.checks, jsonColumns);
  addPartitions(tables, rows.partitions);

  return {
    server: { product: mariadb ? 'MariaDB' : 'MySQL', version: server.version },
    database: database ?? '',
    schemas: rows.schemas.map((row) => row.name),
    tables: tables.sorted(),
  };
};

/** The tables and views, with the views' definitions. */
function addTables(tableRows: readonly TableRow[], views: readonly ViewRow[]): TableSet {
  const tables = new TableSet();
  for (const row of tableRows) {
    const view = row.type === 'VIEW';
    const partitioned = /\bpartitioned\b/i.test(row.options ?? '');
    tables.add(
      row.schema,
      row.name,
      view ? 'view' : partitioned ? 'partitioned_table' : 'table',
      view ? null : orNull(row.comment),
    );
  }
  for (const row of views) {
    const table = tables.get(row.schema, row.name);
    if (table !== undefined) table.view_definition = orNull(row.definition);
  }
  return tables;
}

/**
 * The columns of every table, typed; returns the keys of the columns typed json. MariaDB's JSON
 * columns: longtext with the check json_valid(`column`) it adds itself.
 */
function addColumns(
  tables: TableSet,
  columns: readonly ColumnRow[],
  checkRows: readonly CheckRow[],
  types: TypeLog,
): Set<string> {
  const jsonChecks = new Set(
    checkRows
      .filter((c) => c.clause === `json_valid(\`${c.name}\`)`)
      .map((c) => objectKey(c.schema, c.table, c.name)),
  );
  const jsonColumns = new Set<string>();
  let previous: { table: unknown; ordinal: number } = { table: null, ordinal: 0 };
  for (const row of columns) {
    const table = tables.get(row.schema, row.table);
    if (table === undefined) continue;
    const ordinal = previous.table === table ? previous.ordinal + 1 : 1;
    previous = { table, ordinal };
    const columnKey = objectKey(row.schema, row.table, row.name);
    const type = types.record(
      row.column_type,
      mapMysqlType({ ...row, json_checked: jsonChecks.has(columnKey) }),
    );
    if (type?.data_type === 'json') jsonColumns.add(columnKey);
    const extra = row.extra ?? '';
    const generated = /\b(VIRTUAL|STORED|PERSISTENT) GENERATED\b/i.exec(extra);
    table.columns.push({
      name: row.name,
      ordinal,
      native_type: row.column_type,
      type,
      nullable: row.nullable === 'YES',
      // MariaDB prints the absent default of a nullable column as the text NULL.
      default: generated !== null || row.column_default === 'NULL' ? null : row.column_default,
      comment: orNull(row.comment),
      identity: /\bauto_increment\b/i.test(extra) ? 'by_default' : null,
      generated:
        generated === null
          ? null
          : { expression: row.generation_expression ?? '', stored: !/^virtual$/i.test(generated[1]) },
      collation: row.collation,
      domain: null,
      on_update: /\bon update (\S+)/i.exec(extra)?.[1] ?? null,
    });
  }
  return jsonColumns;
}

/**
 * Primary keys, unique constraints and foreign keys. PK and unique constraints are also indexes in
 * MySQL: they are reported once, as constraints; returns their keys, for addIndexes to leave out.
 */
function addKeys(tables: TableSet, keyRows: readonly KeyRow[]): Set<string> {
  const keyNames = new Set<string>();
  for (const rows of groupRows(keyRows, (r) => [r.schema, r.table, r.name, r.type])) {
    const first = rows[0];
    const table = tables.get(first.schema, first.table);
    if (table === undefined) continue;
    const keyColumns = rows.map((r) => r.column_name);
    if (first.type === 'FOREIGN KEY') {
      table.foreign_keys.push({
        name: first.name,
        columns: keyColumns,
        referenced: {
          schema: first.ref_schema ?? first.schema,
          table: first.ref_table ?? '',
          columns: rows.map((r) => r.ref_column ?? ''),
        },
        on_update: (first.update_rule ?? 'NO ACTION') as ReferentialAction,
        on_delete: (first.delete_rule ?? 'NO ACTION') as ReferentialAction,
      });
      continue;
    }
    keyNames.add(objectKey(first.schema, first.table, first.name));
    if (first.type === 'PRIMARY KEY') table.primary_key = { name: first.name, columns: keyColumns };
    else table.unique_constraints.push({ name: first.name, columns: keyColumns });
  }
  return keyNames;
}

/** The indexes that are not a key constraint's. */
function addIndexes(tables: TableSet, indexRows: readonly IndexRow[], keyNames: ReadonlySet<string>): void {
  for (const parts of groupRows(indexRows, (r) => [r.schema, r.table, r.name])) {
    const first = parts[0];
    if (keyNames.has(objectKey(first.schema, first.table, first.name))) continue;
    tables.get(first.schema, first.table)?.indexes.push(indexOf(parts));
  }
}

/** Check constraints, but not the json_valid check MariaDB adds to a JSON column itself. */
function addChecks(tables: TableSet, checkRows: readonly CheckRow[], jsonColumns: ReadonlySet<string>): void {
  for (const row of checkRows) {
    const key = objectKey(row.schema, row.table, row.name);
    if (jsonColumns.has(key) && row.clause === `json_valid(\`${row.name}\`)`) continue;
    tables.get(row.schema, row.table)?.check_constraints.push({ name: row.name, expression: row.clause });
  }
}

/** Each partitioned table's key and partitions, subpartitions under their partition. */
function addPartitions(tables: TableSet, partitions: readonly PartitionRow[]): void {
  for (const row of partitions) {
    const table = tables.get(row.schema, row.table);
    if (table === undefined) continue;
    if (table.partition_key === null) table.partition_key = `${row.method} (${row.expression ?? ''})`;
    if (table.partitions.every((existing) => existing.name !== row.partition)) {
      table.partitions.push({
        schema: row.schema,
        name: row.partition,
        parent: { schema: row.schema, name: row.table },
        kind: row.subpartition === null ? 'table' : 'partitioned_table',
        bound: partitionBound(row.method, row.description),
      });
    }
    if (row.subpartition !== null) {
      table.partitions.push({
        schema: row.schema,
        name: row.subpartition,
        parent: { schema: row.schema, name: row.partition },
        kind: 'table',
        bound: null,
      });
    }
  }
}

/** An index from its STATISTICS rows (in SEQ_IN_INDEX order); prefix and functional parts are expressions. */
function indexOf(parts: IndexRow[]): Index {
  const first = parts[0];
  const plain = parts.every((p) => p.column_name !== null && p.sub_part === null);
  const text = parts.map((p) =>
    p.column_name === null
      ? `(${p.expression ?? ''})`
      : p.sub_part === null
        ? p.column_name
        : `${p.column_name}(${p.sub_part})`,
  );
  return {
    name: first.name,
    unique: Number(first.non_unique) === 0,
    method: first.method === null ? null : first.method.toLowerCase(),
    columns: plain ? parts.map((p) => p.column_name!) : null,
    expression: plain ? null : text.join(', '),
    include: [],
    predicate: null,
    definition: null,
  };
}

function partitionBound(method: string, description: string | null): string | null {
  if (description === null) return null;
  if (/^RANGE/i.test(method)) return `VALUES LESS THAN (${description})`;
  if (/^LIST/i.test(method)) return `VALUES IN (${description})`;
  return null;
}
