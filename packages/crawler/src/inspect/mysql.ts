// MySQL 8 / MariaDB introspection: information_schema, one query per kind of object (server,
// schemas, tables, columns, indexes, key constraints, checks, views, partitions) whatever the table
// count. With a URL naming a database and no --schemas, only that database is read.
import type { Catalog } from '../connection/catalog.js';
import type { Index, ReferentialAction } from '../model.js';
import { mapMysqlType } from '../normalise/mysql.js';
import { groupRows, TableSet } from './assemble.js';
import type { InspectDialect } from './dialect.js';
import {
  globToLike,
  relationFilter,
  schemaFilter,
  type ParsedFilters,
  type PatternMatcher,
  type SqlCondition,
} from './filters.js';

// information_schema is case-insensitive (utf8mb3_general_ci); names are matched exactly.
const LIKE: PatternMatcher = {
  match: (column) => `CONVERT(${column} USING utf8mb4) COLLATE utf8mb4_bin LIKE ? ESCAPE '!'`,
  pattern: globToLike,
};

const SYSTEM_SCHEMAS = `('information_schema', 'mysql', 'performance_schema', 'sys')`;

/** The filter on a query's (schema, table) columns, system schemas excluded. */
function tablesWhere(filters: ParsedFilters, schema: string, table: string): SqlCondition {
  const where = relationFilter(filters, { schema, table }, LIKE);
  return { sql: `${schema} NOT IN ${SYSTEM_SCHEMAS} AND ${where.sql}`, bindings: where.bindings };
}

interface ServerRow {
  version: string;
}
interface TableRow {
  schema: string;
  name: string;
  type: string;
  comment: string | null;
  options: string | null;
}
interface ColumnRow {
  schema: string;
  table: string;
  name: string;
  column_type: string;
  data_type: string;
  nullable: string;
  column_default: string | null;
  extra: string | null;
  generation_expression: string | null;
  character_maximum_length: number | string | null;
  numeric_precision: number | string | null;
  numeric_scale: number | string | null;
  datetime_precision: number | string | null;
  collation: string | null;
  comment: string | null;
}
interface IndexRow {
  schema: string;
  table: string;
  name: string;
  non_unique: number | string;
  column_name: string | null;
  sub_part: number | string | null;
  method: string | null;
  expression: string | null;
}
interface KeyRow {
  schema: string;
  table: string;
  name: string;
  type: 'PRIMARY KEY' | 'UNIQUE' | 'FOREIGN KEY';
  column_name: string;
  ref_schema: string | null;
  ref_table: string | null;
  ref_column: string | null;
  update_rule: string | null;
  delete_rule: string | null;
}
interface CheckRow {
  schema: string;
  table: string;
  name: string;
  clause: string;
}
interface ViewRow {
  schema: string;
  name: string;
  definition: string | null;
}
interface PartitionRow {
  schema: string;
  table: string;
  partition: string;
  subpartition: string | null;
  method: string;
  expression: string | null;
  description: string | null;
  sub_method: string | null;
  sub_expression: string | null;
}

const orNull = (text: string | null | undefined): string | null =>
  text === null || text === undefined || text === '' ? null : text;

export const inspectMysql: InspectDialect = async (catalog, requested, types, target) => {
  const [server] = await catalog.query<ServerRow>('SELECT VERSION() AS version');
  const mariadb = /mariadb/i.test(server.version);
  const database = target.mysql?.database;
  // A URL naming a database means that database, unless --schemas says otherwise.
  const filters: ParsedFilters =
    requested.schemas.length === 0 && database !== undefined
      ? { ...requested, schemas: [database] }
      : requested;

  const schemaWhere = schemaFilter(filters, 'SCHEMA_NAME', LIKE);
  const schemas = await catalog.query<{ name: string }>(
    `SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA
     WHERE SCHEMA_NAME NOT IN ${SYSTEM_SCHEMAS} AND ${schemaWhere.sql}`,
    schemaWhere.bindings,
  );
  const t = tablesWhere(filters, 't.TABLE_SCHEMA', 't.TABLE_NAME');
  const tableRows = await catalog.query<TableRow>(
    `SELECT t.TABLE_SCHEMA AS \`schema\`, t.TABLE_NAME AS name, t.TABLE_TYPE AS type,
       t.TABLE_COMMENT AS comment, t.CREATE_OPTIONS AS options
     FROM information_schema.TABLES t
     WHERE t.TABLE_TYPE IN ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED') AND ${t.sql}`,
    t.bindings,
  );
  const columns = await catalog.query<ColumnRow>(
    `SELECT c.TABLE_SCHEMA AS \`schema\`, c.TABLE_NAME AS \`table\`, c.COLUMN_NAME AS name,
       c.COLUMN_TYPE AS column_type, c.DATA_TYPE AS data_type, c.IS_NULLABLE AS nullable,
       c.COLUMN_DEFAULT AS column_default, c.EXTRA AS extra, c.GENERATION_EXPRESSION AS generation_expression,
       c.CHARACTER_MAXIMUM_LENGTH AS character_maximum_length, c.NUMERIC_PRECISION AS numeric_precision,
       c.NUMERIC_SCALE AS numeric_scale, c.DATETIME_PRECISION AS datetime_precision,
       c.COLLATION_NAME AS collation, c.COLUMN_COMMENT AS comment
     FROM information_schema.COLUMNS c
     JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
     WHERE ${t.sql}
     ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME, c.ORDINAL_POSITION`,
    t.bindings,
  );
  const s = tablesWhere(filters, 's.TABLE_SCHEMA', 's.TABLE_NAME');
  const indexRows = await catalog.query<IndexRow>(
    `SELECT s.TABLE_SCHEMA AS \`schema\`, s.TABLE_NAME AS \`table\`, s.INDEX_NAME AS name,
       s.NON_UNIQUE AS non_unique, s.COLUMN_NAME AS column_name, s.SUB_PART AS sub_part,
       s.INDEX_TYPE AS method, ${mariadb ? 'NULL' : 's.EXPRESSION'} AS expression
     FROM information_schema.STATISTICS s
     WHERE ${s.sql}
     ORDER BY s.TABLE_SCHEMA, s.TABLE_NAME, s.INDEX_NAME, s.SEQ_IN_INDEX`,
    s.bindings,
  );
  const tc = tablesWhere(filters, 'tc.TABLE_SCHEMA', 'tc.TABLE_NAME');
  const keyRows = await catalog.query<KeyRow>(
    `SELECT tc.TABLE_SCHEMA AS \`schema\`, tc.TABLE_NAME AS \`table\`, tc.CONSTRAINT_NAME AS name,
       tc.CONSTRAINT_TYPE AS type, k.COLUMN_NAME AS column_name,
       k.REFERENCED_TABLE_SCHEMA AS ref_schema, k.REFERENCED_TABLE_NAME AS ref_table,
       k.REFERENCED_COLUMN_NAME AS ref_column, rc.UPDATE_RULE AS update_rule, rc.DELETE_RULE AS delete_rule
     FROM information_schema.TABLE_CONSTRAINTS tc
     JOIN information_schema.KEY_COLUMN_USAGE k ON k.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA
       AND k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME AND k.TABLE_SCHEMA = tc.TABLE_SCHEMA AND k.TABLE_NAME = tc.TABLE_NAME
     LEFT JOIN information_schema.REFERENTIAL_CONSTRAINTS rc ON rc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA
       AND rc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME AND rc.TABLE_NAME = tc.TABLE_NAME
     WHERE tc.CONSTRAINT_TYPE IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY') AND ${tc.sql}
     ORDER BY tc.TABLE_SCHEMA, tc.TABLE_NAME, tc.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
    tc.bindings,
  );
  const checkRows = await queryChecks(catalog, filters, mariadb, server.version);
  const v = tablesWhere(filters, 'v.TABLE_SCHEMA', 'v.TABLE_NAME');
  const views = await catalog.query<ViewRow>(
    `SELECT v.TABLE_SCHEMA AS \`schema\`, v.TABLE_NAME AS name, v.VIEW_DEFINITION AS definition
     FROM information_schema.VIEWS v WHERE ${v.sql}`,
    v.bindings,
  );
  const p = tablesWhere(filters, 'p.TABLE_SCHEMA', 'p.TABLE_NAME');
  const partitions = await catalog.query<PartitionRow>(
    `SELECT p.TABLE_SCHEMA AS \`schema\`, p.TABLE_NAME AS \`table\`, p.PARTITION_NAME AS \`partition\`,
       p.SUBPARTITION_NAME AS subpartition, p.PARTITION_METHOD AS method, p.PARTITION_EXPRESSION AS expression,
       p.PARTITION_DESCRIPTION AS description, p.SUBPARTITION_METHOD AS sub_method,
       p.SUBPARTITION_EXPRESSION AS sub_expression
     FROM information_schema.PARTITIONS p
     WHERE p.PARTITION_NAME IS NOT NULL AND ${p.sql}
     ORDER BY p.TABLE_SCHEMA, p.TABLE_NAME, p.PARTITION_ORDINAL_POSITION, p.SUBPARTITION_ORDINAL_POSITION`,
    p.bindings,
  );

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

  // MariaDB's JSON columns: longtext with the check json_valid(`column`) it adds itself.
  const jsonChecks = new Set(
    checkRows
      .filter((c) => c.clause === `json_valid(\`${c.name}\`)`)
      .map((c) => `${c.schema}\u0000${c.table}\u0000${c.name}`),
  );
  const jsonColumns = new Set<string>();
  let previous: { table: unknown; ordinal: number } = { table: null, ordinal: 0 };
  for (const row of columns) {
    const table = tables.get(row.schema, row.table);
    if (table === undefined) continue;
    const ordinal = previous.table === table ? previous.ordinal + 1 : 1;
    previous = { table, ordinal };
    const columnKey = `${row.schema}\u0000${row.table}\u0000${row.name}`;
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

  // PK and unique constraints are also indexes in MySQL: they are reported once, as constraints.
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
    keyNames.add(`${first.schema}\u0000${first.table}\u0000${first.name}`);
    if (first.type === 'PRIMARY KEY') table.primary_key = { name: first.name, columns: keyColumns };
    else table.unique_constraints.push({ name: first.name, columns: keyColumns });
  }

  for (const parts of groupRows(indexRows, (r) => [r.schema, r.table, r.name])) {
    const first = parts[0];
    if (keyNames.has(`${first.schema}\u0000${first.table}\u0000${first.name}`)) continue;
    tables.get(first.schema, first.table)?.indexes.push(indexOf(parts));
  }

  for (const row of checkRows) {
    const key = `${row.schema}\u0000${row.table}\u0000${row.name}`;
    if (jsonColumns.has(key) && row.clause === `json_valid(\`${row.name}\`)`) continue;
    tables.get(row.schema, row.table)?.check_constraints.push({ name: row.name, expression: row.clause });
  }

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

  return {
    server: { product: mariadb ? 'MariaDB' : 'MySQL', version: server.version },
    database: database ?? '',
    schemas: schemas.map((row) => row.name),
    tables: tables.sorted(),
  };
};

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

/** Check constraints: MariaDB names their table; MySQL 8.0.16+ needs TABLE_CONSTRAINTS for it. */
function queryChecks(
  catalog: Catalog,
  filters: ParsedFilters,
  mariadb: boolean,
  version: string,
): Promise<CheckRow[]> {
  if (mariadb) {
    const cc = tablesWhere(filters, 'cc.CONSTRAINT_SCHEMA', 'cc.TABLE_NAME');
    return catalog.query<CheckRow>(
      `SELECT cc.CONSTRAINT_SCHEMA AS \`schema\`, cc.TABLE_NAME AS \`table\`, cc.CONSTRAINT_NAME AS name,
         cc.CHECK_CLAUSE AS clause
       FROM information_schema.CHECK_CONSTRAINTS cc WHERE ${cc.sql}`,
      cc.bindings,
    );
  }
  const [major = 0, minor = 0, patch = 0] = version.split(/[.-]/).map(Number);
  if (major * 10_000 + minor * 100 + patch < 80_016) return Promise.resolve([]);
  const tc = tablesWhere(filters, 'tc.TABLE_SCHEMA', 'tc.TABLE_NAME');
  return catalog.query<CheckRow>(
    `SELECT tc.TABLE_SCHEMA AS \`schema\`, tc.TABLE_NAME AS \`table\`, tc.CONSTRAINT_NAME AS name,
       cc.CHECK_CLAUSE AS clause
     FROM information_schema.TABLE_CONSTRAINTS tc
     JOIN information_schema.CHECK_CONSTRAINTS cc ON cc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA
       AND cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME
     WHERE tc.CONSTRAINT_TYPE = 'CHECK' AND ${tc.sql}`,
    tc.bindings,
  );
}
