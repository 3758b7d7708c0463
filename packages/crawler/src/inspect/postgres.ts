// PostgreSQL introspection: six pg_catalog queries whatever the table count (server and schemas,
// relations, columns, types, constraints, indexes), in one REPEATABLE READ snapshot shared by three
// connections (relations, constraints and indexes on the second; the columns in two halves, on the
// first and the third). Rows name their table by oid, and what repeats across columns (native type
// texts) is read once per distinct value. pg_catalog, not information_schema: the latter hides the
// constraints of tables a SELECT-only role does not own.
import type { Catalog } from '../connection/catalog.js';
import type { ForeignKey, InspectedTable, ReferentialAction, TableKind } from '../model.js';
import { PostgresTypeMapper } from '../normalise/postgres.js';
import { TableSet } from './assemble.js';
import { ColumnSet, queryColumns, queryTypes } from './postgres-columns.js';
import type { DialectInspection, InspectDialect } from './dialect.js';
import {
  globToLike,
  relationFilter,
  schemaFilter,
  type ParsedFilters,
  type PatternMatcher,
  type SqlCondition,
} from './filters.js';

const LIKE: PatternMatcher = {
  match: (column) => `${column} LIKE ? ESCAPE '!'`,
  pattern: globToLike,
};

const NOT_SYSTEM_SCHEMA = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
  AND n.nspname NOT LIKE 'pg!_temp!_%' ESCAPE '!' AND n.nspname NOT LIKE 'pg!_toast!_temp!_%' ESCAPE '!'`;

const KINDS: Record<string, TableKind> = {
  r: 'table',
  p: 'partitioned_table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
};

const ACTIONS: Record<string, ReferentialAction> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

// An empty search_path (for the transaction) makes every name the server prints schema-qualified, as
// pg_dump does: the output does not depend on the role's search_path. JIT off: the catalog queries'
// cost estimates pass its thresholds on large catalogs, and compiling them took longer than running
// them (2.8 of 3.4 s at 1,000 tables). work_mem: the column list is sorted in memory, not on disk.
// Transaction-local: set on each connection.
const SETTINGS = `pg_catalog.set_config('search_path', '', true) AS search_path,
  pg_catalog.set_config('jit', 'off', true) AS jit,
  pg_catalog.set_config('work_mem', '64MB', true) AS work_mem`;

/** `WITH rel AS (…)`: the selected relations (partitions only when listed as tables). */
function selectedRelations(filters: ParsedFilters): SqlCondition {
  const where = relationFilter(filters, { schema: 'n.nspname', table: 'c.relname' }, LIKE);
  return {
    sql: `rel AS (
      SELECT c.oid, n.nspname, c.relname
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND ${NOT_SYSTEM_SCHEMA}
        ${filters.includePartitions ? '' : 'AND NOT c.relispartition'}
        AND ${where.sql})`,
    bindings: where.bindings,
  };
}

interface ServerRow {
  database: string;
  version: string;
  schemas: string[];
}

interface RelationRow {
  oid: number;
  schema: string;
  name: string;
  relkind: string;
  selected: boolean;
  comment: string | null;
  /** The comments of its columns, `[attnum, text]` (selected relations only). */
  column_comments: [number, string][] | null;
  view_definition: string | null;
  partition_key: string | null;
  partition_bound: string | null;
  parent_schema: string | null;
  parent_name: string | null;
  root_schema: string | null;
  root_name: string | null;
}

/** A constraint; its own columns by attnum (named from the columns query), referenced ones by name. */
interface ConstraintRow {
  relid: number;
  name: string;
  contype: 'p' | 'u' | 'f' | 'c';
  keys: number[] | null;
  ref_schema: string | null;
  ref_table: string | null;
  ref_columns: string[] | null;
  on_update: string;
  on_delete: string;
  check_expression: string | null;
}

interface IndexRow {
  relid: number;
  name: string;
  unique: boolean;
  method: string;
  columns: (string | null)[];
  key_parts: string[];
  include: string[];
  predicate: string | null;
  definition: string;
}

export const inspectPostgres: InspectDialect = async (
  catalog,
  filters,
  types,
): Promise<DialectInspection> => {
  const rel = selectedRelations(filters);
  const schemas = schemaFilter(filters, 'n.nspname', LIKE);
  const [server] = await catalog.query<ServerRow>(
    `SELECT ${SETTINGS},
       pg_catalog.current_database() AS database,
       pg_catalog.current_setting('server_version') AS version,
       ARRAY(SELECT n.nspname::text FROM pg_catalog.pg_namespace n
             WHERE ${NOT_SYSTEM_SCHEMA} AND ${schemas.sql}) AS schemas`,
    schemas.bindings,
  );
  // The relations, constraints and indexes are read on a second connection in the same snapshot, and
  // half the tables' columns on a third, while this one reads the other half (the columns are most of
  // the server's time, deparsed and aggregated by one backend each), then their types (issue 23 §6).
  const besides = catalog.alongside(`SELECT ${SETTINGS}`, async (side) => ({
    relations: await queryRelations(side, rel),
    constraints: await queryConstraints(side, rel),
    indexes: await queryIndexes(side, rel),
  }));
  const otherHalf = catalog.alongside(`SELECT ${SETTINGS}`, (side) => queryColumns(side, rel, 1));
  // Awaited below; if the columns fail first, theirs is the error reported (withCatalog ends these).
  besides.catch(() => undefined);
  otherHalf.catch(() => undefined);
  // Each half becomes column records as it arrives, while the other is still read; the types of the
  // first half are read meanwhile too, and those the second half adds (most often none) after it.
  const columns = new ColumnSet();
  columns.add(await queryColumns(catalog, rel, 0));
  const firstTypes = queryTypes(catalog, columns);
  firstTypes.catch(() => undefined);
  columns.add(await otherHalf);
  const typeRows = [...(await firstTypes), ...(await queryTypes(catalog, columns, true))];
  const { relations, constraints, indexes } = await besides;

  const tables = new TableSet();
  const byOid = new Map<number, InspectedTable>();
  for (const row of relations.filter((r) => r.selected)) {
    const table = tables.add(row.schema, row.name, KINDS[row.relkind], row.comment);
    byOid.set(row.oid, table);
    table.view_definition = row.view_definition?.trim() ?? null;
    table.partition_key = row.partition_key;
    if (row.parent_schema !== null && row.parent_name !== null) {
      table.partition_of = { schema: row.parent_schema, name: row.parent_name, bound: row.partition_bound };
    }
  }
  for (const row of relations) {
    if (row.root_schema === null || row.root_name === null) continue;
    tables.get(row.root_schema, row.root_name)?.partitions.push({
      schema: row.schema,
      name: row.name,
      parent: { schema: row.parent_schema!, name: row.parent_name! },
      kind: KINDS[row.relkind],
      bound: row.partition_bound,
    });
  }

  for (const row of relations)
    if (row.column_comments !== null) columns.comment(row.oid, row.column_comments);
  const mapper = new PostgresTypeMapper(typeRows);
  columns.attach(byOid, mapper, types);
  const namesOf = columns.namesOf;

  for (const row of constraints) {
    const table = byOid.get(row.relid);
    if (table === undefined) continue;
    const names = namesOf.get(row.relid) ?? [];
    const columns = (row.keys ?? []).flatMap((attnum) => {
      const name = names[attnum];
      return name === undefined ? [] : [name];
    });
    switch (row.contype) {
      case 'p':
        table.primary_key = { name: row.name, columns };
        break;
      case 'u':
        table.unique_constraints.push({ name: row.name, columns });
        break;
      case 'f':
        table.foreign_keys.push(foreignKey(row, columns));
        break;
      case 'c':
        table.check_constraints.push({ name: row.name, expression: row.check_expression ?? '' });
        break;
    }
  }

  for (const row of indexes) {
    const table = byOid.get(row.relid);
    if (table === undefined) continue;
    const plain = row.columns.every((c) => c !== null);
    table.indexes.push({
      name: row.name,
      unique: row.unique,
      method: row.method,
      columns: plain ? (row.columns as string[]) : null,
      expression: plain ? null : row.key_parts.join(', '),
      include: row.include,
      predicate: row.predicate,
      definition: row.definition,
    });
  }

  return {
    server: { product: 'PostgreSQL', version: server.version },
    database: server.database,
    schemas: server.schemas,
    tables: tables.sorted(),
  };
};

function foreignKey(row: ConstraintRow, columns: string[]): ForeignKey {
  return {
    name: row.name,
    columns,
    referenced: { schema: row.ref_schema!, table: row.ref_table!, columns: row.ref_columns ?? [] },
    on_update: ACTIONS[row.on_update] ?? 'NO ACTION',
    on_delete: ACTIONS[row.on_delete] ?? 'NO ACTION',
  };
}

/** The selected relations, plus every partition of a selected partitioned table (with its root). */
function queryRelations(catalog: Catalog, rel: SqlCondition): Promise<RelationRow[]> {
  return catalog.query<RelationRow>(
    `WITH ${rel.sql}
     SELECT c.oid, n.nspname AS schema, c.relname AS name, c.relkind::text AS relkind,
       c.oid IN (SELECT oid FROM rel) AS selected,
       ds.description AS comment,
       -- Column comments, one index lookup per relation (per column, in the columns query, it cost ~0.2 s
       -- of server CPU at 10,000 tables). A subquery, not col_description(): that runs a query per column.
       CASE WHEN c.oid IN (SELECT oid FROM rel) THEN (
         SELECT json_agg(json_build_array(cd.objsubid, cd.description)) FROM pg_catalog.pg_description cd
         WHERE cd.objoid = c.oid AND cd.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass
           AND cd.objsubid > 0) END AS column_comments,
       CASE WHEN c.relkind IN ('v', 'm') THEN pg_catalog.pg_get_viewdef(c.oid) END AS view_definition,
       CASE WHEN c.relkind = 'p' THEN pg_catalog.pg_get_partkeydef(c.oid) END AS partition_key,
       CASE WHEN c.relispartition THEN pg_catalog.pg_get_expr(c.relpartbound, c.oid) END AS partition_bound,
       pn.nspname AS parent_schema, p.relname AS parent_name,
       rn.nspname AS root_schema, root.relname AS root_name
     FROM pg_catalog.pg_class c
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_catalog.pg_inherits i ON c.relispartition AND i.inhrelid = c.oid
     LEFT JOIN pg_catalog.pg_class p ON p.oid = i.inhparent
     LEFT JOIN pg_catalog.pg_namespace pn ON pn.oid = p.relnamespace
     LEFT JOIN pg_catalog.pg_class root ON c.relispartition AND root.oid = pg_catalog.pg_partition_root(c.oid)
     LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = root.relnamespace
     -- A join, not obj_description(): that function runs a query per relation.
     LEFT JOIN pg_catalog.pg_description ds ON ds.objoid = c.oid
       AND ds.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass AND ds.objsubid = 0
     WHERE c.oid IN (SELECT oid FROM rel)
        OR (c.relispartition AND root.oid IN (SELECT oid FROM rel))`,
    rel.bindings,
  );
}

/**
 * Primary keys, unique, foreign-key and check constraints, columns in key order. An FK to a
 * partitioned table is one constraint: the per-partition clones PostgreSQL adds are left out.
 */
function queryConstraints(catalog: Catalog, rel: SqlCondition): Promise<ConstraintRow[]> {
  return catalog.query<ConstraintRow>(
    `WITH ${rel.sql}
     SELECT con.conrelid AS relid, con.conname AS name, con.contype::text AS contype,
       con.conkey::int2[] AS keys,
       fn.nspname AS ref_schema, fc.relname AS ref_table,
       CASE WHEN con.contype = 'f' THEN ARRAY(
         SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
         JOIN pg_catalog.pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
         ORDER BY k.ord) END AS ref_columns,
       con.confupdtype::text AS on_update, con.confdeltype::text AS on_delete,
       CASE WHEN con.contype = 'c' THEN pg_catalog.pg_get_expr(con.conbin, con.conrelid) END AS check_expression
     FROM rel r
     JOIN pg_catalog.pg_constraint con ON con.conrelid = r.oid
     LEFT JOIN pg_catalog.pg_class fc ON fc.oid = con.confrelid
     LEFT JOIN pg_catalog.pg_namespace fn ON fn.oid = fc.relnamespace
     WHERE con.contype IN ('p', 'u', 'f', 'c')
       AND NOT (con.conparentid <> 0 AND coalesce(fc.relispartition, false))`,
    rel.bindings,
  );
}

/** Indexes, except those backing a primary key or unique constraint (reported as constraints). */
function queryIndexes(catalog: Catalog, rel: SqlCondition): Promise<IndexRow[]> {
  return catalog.query<IndexRow>(
    `WITH ${rel.sql}
     SELECT i.indrelid AS relid, ic.relname AS name, i.indisunique AS unique,
       am.amname::text AS method,
       ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
             LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
             WHERE k.ord <= i.indnkeyatts ORDER BY k.ord) AS columns,
       ARRAY(SELECT pg_catalog.pg_get_indexdef(i.indexrelid, k, true)
             FROM generate_series(1, i.indnkeyatts) k ORDER BY k) AS key_parts,
       ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
             JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
             WHERE k.ord > i.indnkeyatts ORDER BY k.ord) AS include,
       pg_catalog.pg_get_expr(i.indpred, i.indrelid, true) AS predicate,
       pg_catalog.pg_get_indexdef(i.indexrelid) AS definition
     FROM rel r
     JOIN pg_catalog.pg_index i ON i.indrelid = r.oid
     JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
     JOIN pg_catalog.pg_am am ON am.oid = ic.relam
     WHERE NOT EXISTS (
       SELECT 1 FROM pg_catalog.pg_constraint con
       WHERE con.conindid = i.indexrelid AND con.conrelid = i.indrelid AND con.contype IN ('p', 'u'))`,
    rel.bindings,
  );
}
