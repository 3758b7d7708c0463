// PostgreSQL introspection: six pg_catalog queries whatever the table count (server and schemas,
// relations, columns, types, constraints, indexes), in one REPEATABLE READ snapshot shared by two
// connections (relations, constraints and indexes on the second, while the first reads the columns). Rows name their
// table by oid, and what repeats across columns (native type texts) is read once per distinct value. pg_catalog, not
// information_schema: the latter hides the constraints of tables a SELECT-only role does not own.
import type { Catalog } from '../connection/catalog.js';
import type { ForeignKey, InspectedTable, ReferentialAction, TableKind } from '../model.js';
import { PostgresTypeMapper, type PgTypeInfo } from '../normalise/postgres.js';
import { TableSet } from './assemble.js';
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
  view_definition: string | null;
  partition_key: string | null;
  partition_bound: string | null;
  parent_schema: string | null;
  parent_name: string | null;
  root_schema: string | null;
  root_name: string | null;
}

/** A column; its native type text comes with its type (see `queryTypes`). */
interface ColumnRow {
  relid: number;
  attnum: number;
  name: string;
  type_oid: string;
  typmod: number;
  ndims: number;
  not_null: boolean;
  default: string | null;
  generated: string | null;
  /** Null where the column is not generated / not an identity (fewer strings to parse). */
  attgenerated: string | null;
  attidentity: string | null;
  comment: string | null;
  collation: string | null;
}

/** A column as the columns query sends it: the values of a ColumnRow but `relid`, in this order. */
type ColumnTuple = [
  attnum: number,
  name: string,
  type_oid: string,
  typmod: number,
  ndims: number,
  not_null: boolean,
  default_: string | null,
  generated: string | null,
  attgenerated: string | null,
  attidentity: string | null,
  comment: string | null,
  collation: string | null,
];

/** A table's columns, one JSON array of tuples per table. */
interface TableColumnsRow {
  relid: number;
  columns: ColumnTuple[];
}

function columnRows(tables: readonly TableColumnsRow[]): ColumnRow[] {
  const rows: ColumnRow[] = [];
  for (const { relid, columns } of tables) {
    for (const c of columns) {
      rows.push({
        relid,
        attnum: c[0],
        name: c[1],
        type_oid: c[2],
        typmod: c[3],
        ndims: c[4],
        not_null: c[5],
        default: c[6],
        generated: c[7],
        attgenerated: c[8],
        attidentity: c[9],
        comment: c[10],
        collation: c[11],
      });
    }
  }
  return rows;
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
  // The relations, constraints and indexes are read on a second connection in the same snapshot
  // while this one reads the columns (most of the server's time) and their types (issue 23 §6).
  const besides = catalog.alongside(`SELECT ${SETTINGS}`, async (side) => ({
    relations: await queryRelations(side, rel),
    constraints: await queryConstraints(side, rel),
    indexes: await queryIndexes(side, rel),
  }));
  // Awaited below; if the columns fail first, theirs is the error reported (withCatalog ends this).
  besides.catch(() => undefined);
  // Not sorted, nor named by table: 200,000 rows sort faster per table in JavaScript, and a table oid
  // parses faster than its schema and name. One row per table with its columns as one JSON array of
  // tuples: JSON.parse reads it at a third of the driver's cost of 200,000 rows of 13 fields, and the
  // query is no slower (issue 23 §6). Native type texts come with the types.
  const tableColumns = await catalog.query<TableColumnsRow>(
    `WITH ${rel.sql}
     SELECT a.attrelid AS relid, json_agg(json_build_array(a.attnum, a.attname,
       a.atttypid::text, a.atttypmod, a.attndims, a.attnotnull,
       -- A default holds no column reference, so it is deparsed without its table (relation 0): with
       -- the table, pg_get_expr opens it for each default (~0.4 s of the query's 1.5 s at 10,000 tables).
       CASE WHEN a.attgenerated = '' THEN pg_catalog.pg_get_expr(d.adbin, 0) END,
       CASE WHEN a.attgenerated <> '' THEN pg_catalog.pg_get_expr(d.adbin, d.adrelid) END,
       NULLIF(a.attgenerated, '')::text, NULLIF(a.attidentity, '')::text,
       ds.description,
       CASE WHEN a.attcollation <> t.typcollation THEN co.collname::text END)) AS columns
     FROM rel r
     JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
     JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
     LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation
     -- A join, not col_description(): that function runs a query per column.
     LEFT JOIN pg_catalog.pg_description ds ON ds.objoid = a.attrelid
       AND ds.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass AND ds.objsubid = a.attnum
     GROUP BY a.attrelid`,
    rel.bindings,
  );
  const columns = columnRows(tableColumns);
  const typeRows = await queryTypes(catalog, columns);
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

  const mapper = new PostgresTypeMapper(new Map(typeRows.map((t) => [t.oid, t])));
  // Each table's column names by attnum (for the constraints); ordinals hold attnums until every
  // column is read, then count visible columns (attnum has gaps where columns were dropped).
  const namesOf = new Map<number, string[]>();
  for (const row of columns) {
    const table = byOid.get(row.relid);
    if (table === undefined) continue;
    const native = mapper.nativeType(row.type_oid, row.typmod);
    table.columns.push({
      name: row.name,
      ordinal: row.attnum,
      native_type: native,
      type: types.record(native, mapper.map(row.type_oid, row.typmod, row.ndims)),
      nullable: !row.not_null,
      default: row.default,
      comment: row.comment,
      identity: row.attidentity === 'a' ? 'always' : row.attidentity === 'd' ? 'by_default' : null,
      generated:
        row.generated === null ? null : { expression: row.generated, stored: row.attgenerated === 's' },
      collation: row.collation,
      domain: mapper.domainOf(row.type_oid),
      on_update: null,
    });
    let names = namesOf.get(row.relid);
    if (names === undefined) namesOf.set(row.relid, (names = []));
    names[row.attnum] = row.name;
  }
  for (const table of byOid.values()) {
    table.columns.sort((a, b) => a.ordinal - b.ordinal);
    table.columns.forEach((column, i) => (column.ordinal = i + 1));
  }

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
 * Every type the selected columns use, closed over array elements, domain base types and composite
 * attributes (recursively), with enum labels and composite attributes.
 */
function queryTypes(catalog: Catalog, columns: readonly ColumnRow[]): Promise<PgTypeInfo[]> {
  // The (type, typmod) pairs the columns use, sent back rather than read from pg_attribute again.
  const used = new Map<string, Set<number>>();
  for (const c of columns) {
    const typmods = used.get(c.type_oid);
    if (typmods === undefined) used.set(c.type_oid, new Set([c.typmod]));
    else typmods.add(c.typmod);
  }
  const pairs = [...used].flatMap(([atttypid, typmods]) =>
    [...typmods].map((atttypmod) => ({ atttypid, atttypmod })),
  );
  return catalog.query<PgTypeInfo>(
    `WITH RECURSIVE used AS (
       SELECT u.atttypid, u.atttypmod FROM json_to_recordset(?::json) AS u(atttypid oid, atttypmod int4)
     ),
     needed(oid) AS (
       SELECT DISTINCT atttypid FROM used
       UNION
       SELECT x.oid FROM needed nd
       JOIN pg_catalog.pg_type t ON t.oid = nd.oid
       CROSS JOIN LATERAL (
         SELECT t.typelem WHERE t.typelem <> 0
         UNION ALL SELECT t.typbasetype WHERE t.typbasetype <> 0
         UNION ALL SELECT ca.atttypid FROM pg_catalog.pg_attribute ca
           WHERE t.typtype = 'c' AND ca.attrelid = t.typrelid AND ca.attnum > 0 AND NOT ca.attisdropped
       ) x(oid)
     )
     SELECT t.oid::text AS oid, n.nspname AS schema, t.typname AS name,
       pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.quote_ident(t.typname) AS qualified,
       t.typtype::text AS typtype, t.typelem::text AS elem,
       (t.typelem <> 0 AND e.typarray = t.oid) AS is_array,
       t.typbasetype::text AS basetype, t.typtypmod, t.typndims,
       CASE WHEN t.typtype = 'e' THEN ARRAY(
         SELECT en.enumlabel::text FROM pg_catalog.pg_enum en
         WHERE en.enumtypid = t.oid ORDER BY en.enumsortorder) END AS labels,
       CASE WHEN t.typtype = 'c' THEN (
         SELECT coalesce(json_agg(json_build_object('name', ca.attname, 'type', ca.atttypid::text,
           'typmod', ca.atttypmod, 'ndims', ca.attndims) ORDER BY ca.attnum), '[]'::json)
         FROM pg_catalog.pg_attribute ca
         WHERE ca.attrelid = t.typrelid AND ca.attnum > 0 AND NOT ca.attisdropped) END AS attributes,
       -- The native type text of each typmod the columns use: format_type once per pair, not per column.
       (SELECT json_agg(json_build_array(u.atttypmod, pg_catalog.format_type(u.atttypid, u.atttypmod)))
        FROM used u WHERE u.atttypid = t.oid) AS formats
     FROM needed nd
     JOIN pg_catalog.pg_type t ON t.oid = nd.oid
     JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
     LEFT JOIN pg_catalog.pg_type e ON e.oid = t.typelem`,
    [JSON.stringify(pairs)],
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
