// The information_schema queries of the MySQL 8 / MariaDB inspection (mysql.ts): one query per kind
// of object, whatever the table count, each filtered on its (schema, table) columns.
import type { Catalog } from '../connection/catalog.js';
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

export interface ServerRow {
  version: string;
}
export interface TableRow {
  schema: string;
  name: string;
  type: string;
  comment: string | null;
  options: string | null;
}
export interface ColumnRow {
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
export interface IndexRow {
  schema: string;
  table: string;
  name: string;
  non_unique: number | string;
  column_name: string | null;
  sub_part: number | string | null;
  method: string | null;
  expression: string | null;
}
export interface KeyRow {
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
export interface CheckRow {
  schema: string;
  table: string;
  name: string;
  clause: string;
}
export interface ViewRow {
  schema: string;
  name: string;
  definition: string | null;
}
export interface PartitionRow {
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

/** Every catalog row an inspection reads, the server's version first. */
export interface MysqlCatalogRows {
  schemas: { name: string }[];
  tables: TableRow[];
  columns: ColumnRow[];
  indexes: IndexRow[];
  keys: KeyRow[];
  checks: CheckRow[];
  views: ViewRow[];
  partitions: PartitionRow[];
}

/** The catalog rows of the tables `filters` selects, one query after the other (in this order). */
export async function readMysqlCatalog(
  catalog: Catalog,
  filters: ParsedFilters,
  mariadb: boolean,
  version: string,
): Promise<MysqlCatalogRows> {
  const schemas = await querySchemas(catalog, filters);
  const tables = await queryTables(catalog, filters);
  const columns = await queryColumns(catalog, filters);
  const indexes = await queryIndexes(catalog, filters, mariadb);
  const keys = await queryKeys(catalog, filters);
  const checks = await queryChecks(catalog, filters, mariadb, version);
  const views = await queryViews(catalog, filters);
  const partitions = await queryPartitions(catalog, filters);
  return { schemas, tables, columns, indexes, keys, checks, views, partitions };
}

/** The schemas selected (system schemas excluded). */
function querySchemas(catalog: Catalog, filters: ParsedFilters): Promise<{ name: string }[]> {
  const schemaWhere = schemaFilter(filters, 'SCHEMA_NAME', LIKE);
  return catalog.query<{ name: string }>(
    `SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA
     WHERE SCHEMA_NAME NOT IN ${SYSTEM_SCHEMAS} AND ${schemaWhere.sql}`,
    schemaWhere.bindings,
  );
}

/** Tables and views. */
function queryTables(catalog: Catalog, filters: ParsedFilters): Promise<TableRow[]> {
  const t = tablesWhere(filters, 't.TABLE_SCHEMA', 't.TABLE_NAME');
  return catalog.query<TableRow>(
    `SELECT t.TABLE_SCHEMA AS \`schema\`, t.TABLE_NAME AS name, t.TABLE_TYPE AS type,
       t.TABLE_COMMENT AS comment, t.CREATE_OPTIONS AS options
     FROM information_schema.TABLES t
     WHERE t.TABLE_TYPE IN ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED') AND ${t.sql}`,
    t.bindings,
  );
}

/** Columns, in ordinal order per table. */
function queryColumns(catalog: Catalog, filters: ParsedFilters): Promise<ColumnRow[]> {
  const t = tablesWhere(filters, 't.TABLE_SCHEMA', 't.TABLE_NAME');
  return catalog.query<ColumnRow>(
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
}

/** Index parts, in SEQ_IN_INDEX order (MariaDB has no functional index parts). */
function queryIndexes(catalog: Catalog, filters: ParsedFilters, mariadb: boolean): Promise<IndexRow[]> {
  const s = tablesWhere(filters, 's.TABLE_SCHEMA', 's.TABLE_NAME');
  return catalog.query<IndexRow>(
    `SELECT s.TABLE_SCHEMA AS \`schema\`, s.TABLE_NAME AS \`table\`, s.INDEX_NAME AS name,
       s.NON_UNIQUE AS non_unique, s.COLUMN_NAME AS column_name, s.SUB_PART AS sub_part,
       s.INDEX_TYPE AS method, ${mariadb ? 'NULL' : 's.EXPRESSION'} AS expression
     FROM information_schema.STATISTICS s
     WHERE ${s.sql}
     ORDER BY s.TABLE_SCHEMA, s.TABLE_NAME, s.INDEX_NAME, s.SEQ_IN_INDEX`,
    s.bindings,
  );
}

/** Primary key, unique and foreign key columns, in key order, with a foreign key's rules. */
function queryKeys(catalog: Catalog, filters: ParsedFilters): Promise<KeyRow[]> {
  const tc = tablesWhere(filters, 'tc.TABLE_SCHEMA', 'tc.TABLE_NAME');
  return catalog.query<KeyRow>(
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
}

/** View definitions. */
function queryViews(catalog: Catalog, filters: ParsedFilters): Promise<ViewRow[]> {
  const v = tablesWhere(filters, 'v.TABLE_SCHEMA', 'v.TABLE_NAME');
  return catalog.query<ViewRow>(
    `SELECT v.TABLE_SCHEMA AS \`schema\`, v.TABLE_NAME AS name, v.VIEW_DEFINITION AS definition
     FROM information_schema.VIEWS v WHERE ${v.sql}`,
    v.bindings,
  );
}

/** Partitions and subpartitions, in partition order. */
function queryPartitions(catalog: Catalog, filters: ParsedFilters): Promise<PartitionRow[]> {
  const p = tablesWhere(filters, 'p.TABLE_SCHEMA', 'p.TABLE_NAME');
  return catalog.query<PartitionRow>(
    `SELECT p.TABLE_SCHEMA AS \`schema\`, p.TABLE_NAME AS \`table\`, p.PARTITION_NAME AS \`partition\`,
       p.SUBPARTITION_NAME AS subpartition, p.PARTITION_METHOD AS method, p.PARTITION_EXPRESSION AS expression,
       p.PARTITION_DESCRIPTION AS description, p.SUBPARTITION_METHOD AS sub_method,
       p.SUBPARTITION_EXPRESSION AS sub_expression
     FROM information_schema.PARTITIONS p
     WHERE p.PARTITION_NAME IS NOT NULL AND ${p.sql}
     ORDER BY p.TABLE_SCHEMA, p.TABLE_NAME, p.PARTITION_ORDINAL_POSITION, p.SUBPARTITION_ORDINAL_POSITION`,
    p.bindings,
  );
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
