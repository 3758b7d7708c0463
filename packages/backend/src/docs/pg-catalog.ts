import type { DataSource } from 'typeorm';

/** The schema the registry's tables live in. */
export const CATALOG_SCHEMA = 'public';

/** TypeORM's bookkeeping table: not part of the data model. */
const EXCLUDED_TABLES = ['typeorm_migrations'];

/** A table, view or materialized view. */
export interface CatalogTable {
  name: string;
  kind: 'table' | 'view' | 'materialized_view';
  comment: string | null;
}

/** A column, in `attnum` order within its table. */
export interface CatalogColumn {
  table: string;
  name: string;
  /** `format_type` with the type modifier, e.g. `character varying(255)`, `text[]`. */
  fullType: string;
  /** `format_type` of the type (of the element type for an array) without modifier, e.g. `character varying`. */
  baseType: string;
  isArray: boolean;
  notNull: boolean;
  /** Default or generation expression, as `pg_get_expr` prints it. */
  expression: string | null;
  identity: boolean;
  generated: boolean;
  comment: string | null;
}

/** One key of an index: a column, or an expression (then `column` is null). */
export interface CatalogIndexKey {
  column: string | null;
  expression: string | null;
}

/** An index, including those behind PRIMARY KEY and UNIQUE constraints. */
export interface CatalogIndex {
  table: string;
  name: string;
  unique: boolean;
  primary: boolean;
  partial: boolean;
  method: string;
  keys: CatalogIndexKey[];
  /** `pg_get_indexdef`: the full CREATE INDEX statement. */
  definition: string;
}

/** A foreign key; `columns[i]` references `refColumns[i]`. */
export interface CatalogForeignKey {
  table: string;
  name: string;
  columns: string[];
  refSchema: string;
  refTable: string;
  refColumns: string[];
}

/** A CHECK constraint. */
export interface CatalogCheck {
  table: string;
  name: string;
  expression: string;
}

/** An enum type with its labels in declaration order. */
export interface CatalogEnum {
  name: string;
  values: string[];
}

/** Everything the data model is built from. Every list is sorted by name (code-unit order). */
export interface Catalog {
  tables: CatalogTable[];
  columns: CatalogColumn[];
  indexes: CatalogIndex[];
  foreignKeys: CatalogForeignKey[];
  checks: CatalogCheck[];
  enums: CatalogEnum[];
}

const RELKINDS: Record<string, CatalogTable['kind']> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized_view',
};

// The relations of the schema, for every query below ($1 = schema, $2 = excluded table names).
const RELATIONS = `
  SELECT c.oid, c.relname, c.relkind
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition
    AND c.relname <> ALL ($2::text[])`;

const TABLES_SQL = `
  WITH rel AS (${RELATIONS})
  SELECT relname AS name, relkind AS kind, obj_description(oid, 'pg_class') AS comment FROM rel`;

const COLUMNS_SQL = `
  WITH rel AS (${RELATIONS})
  SELECT rel.relname AS "table", a.attname AS name,
         format_type(a.atttypid, a.atttypmod) AS "fullType",
         format_type(CASE WHEN t.typcategory = 'A' THEN t.typelem ELSE a.atttypid END, NULL) AS "baseType",
         t.typcategory = 'A' AS "isArray", a.attnotnull AS "notNull",
         pg_get_expr(d.adbin, d.adrelid) AS expression,
         a.attidentity <> '' AS identity, a.attgenerated <> '' AS generated,
         col_description(rel.oid, a.attnum) AS comment
  FROM rel
  JOIN pg_attribute a ON a.attrelid = rel.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  ORDER BY a.attnum`;

// INCLUDE columns (beyond indnkeyatts) are not keys and are left out.
const INDEXES_SQL = `
  WITH rel AS (${RELATIONS})
  SELECT rel.relname AS "table", ic.relname AS name, ix.indisunique AS "unique", ix.indisprimary AS "primary",
         ix.indpred IS NOT NULL AS partial, am.amname AS method, pg_get_indexdef(ix.indexrelid) AS definition,
         (SELECT json_agg(json_build_object(
                   'column', a.attname,
                   'expression', CASE WHEN k.attnum = 0 THEN pg_get_indexdef(ix.indexrelid, k.ord::int, true) END)
                 ORDER BY k.ord)
            FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
            LEFT JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum AND k.attnum > 0
           WHERE k.ord <= ix.indnkeyatts) AS keys
  FROM rel
  JOIN pg_index ix ON ix.indrelid = rel.oid
  JOIN pg_class ic ON ic.oid = ix.indexrelid
  JOIN pg_am am ON am.oid = ic.relam`;

const FOREIGN_KEYS_SQL = `
  WITH rel AS (${RELATIONS})
  SELECT rel.relname AS "table", con.conname AS name, rn.nspname AS "refSchema", rc.relname AS "refTable",
         (SELECT json_agg(json_build_array(sa.attname, ra.attname) ORDER BY k.ord)
            FROM unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(src, ref, ord)
            JOIN pg_attribute sa ON sa.attrelid = con.conrelid AND sa.attnum = k.src
            JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = k.ref) AS pairs
  FROM rel
  JOIN pg_constraint con ON con.conrelid = rel.oid AND con.contype = 'f'
  JOIN pg_class rc ON rc.oid = con.confrelid
  JOIN pg_namespace rn ON rn.oid = rc.relnamespace`;

const CHECKS_SQL = `
  WITH rel AS (${RELATIONS})
  SELECT rel.relname AS "table", con.conname AS name, pg_get_expr(con.conbin, con.conrelid) AS expression
  FROM rel JOIN pg_constraint con ON con.conrelid = rel.oid AND con.contype = 'c'`;

const ENUMS_SQL = `
  SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS "values"
  FROM pg_type t
  JOIN pg_namespace n ON n.oid = t.typnamespace
  JOIN pg_enum e ON e.enumtypid = t.oid
  WHERE n.nspname = $1
  GROUP BY t.typname`;

/** Code-unit order: unlike SQL ORDER BY or localeCompare, independent of the server's and the host's locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byTableThenName<T extends { table: string; name: string }>(a: T, b: T): number {
  return compareNames(a.table, b.table) || compareNames(a.name, b.name);
}

/** Reads the data model of `schema` from a migrated database's pg_catalog. */
export async function readCatalog(dataSource: DataSource, schema = CATALOG_SCHEMA): Promise<Catalog> {
  const params = [schema, EXCLUDED_TABLES];
  const [tables, columns, indexes, foreignKeys, checks, enums] = await Promise.all([
    dataSource.query<{ name: string; kind: string; comment: string | null }[]>(TABLES_SQL, params),
    dataSource.query<CatalogColumn[]>(COLUMNS_SQL, params),
    dataSource.query<(Omit<CatalogIndex, 'keys'> & { keys: CatalogIndexKey[] })[]>(INDEXES_SQL, params),
    dataSource.query<(Omit<CatalogForeignKey, 'columns' | 'refColumns'> & { pairs: [string, string][] })[]>(
      FOREIGN_KEYS_SQL,
      params,
    ),
    dataSource.query<CatalogCheck[]>(CHECKS_SQL, params),
    dataSource.query<CatalogEnum[]>(ENUMS_SQL, [schema]),
  ]);
  return {
    tables: tables
      .map((t) => ({ name: t.name, kind: RELKINDS[t.kind] ?? 'table', comment: t.comment }))
      .sort((a, b) => compareNames(a.name, b.name)),
    // A stable sort: the columns stay in attnum order within a table.
    columns: columns.sort((a, b) => compareNames(a.table, b.table)),
    indexes: indexes.sort(byTableThenName),
    foreignKeys: foreignKeys
      .map(({ pairs, ...fk }) => ({
        ...fk,
        columns: pairs.map(([column]) => column),
        refColumns: pairs.map(([, ref]) => ref),
      }))
      .sort(byTableThenName),
    checks: checks.sort(byTableThenName),
    enums: enums.sort((a, b) => compareNames(a.name, b.name)),
  };
}
