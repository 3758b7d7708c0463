// 100 % coverage of a schema, checked against the database's own catalog rather than against what a
// fixture is known to hold: each test reads, with its own catalog queries, every table and view, its
// columns in order, its primary key, unique constraints and foreign keys (columns in order, target),
// into the same shape as the inspection's, and the two must be equal. So the same check holds for any
// database — the fixtures here, or a public sample database (Sakila, employees, Chinook, Northwind…).
import { loadSqliteEngine } from '../../src/connection/sqlite-engine.js';
import type { InspectedDatabase } from '../../src/model.js';

/** One table as both sides describe it: names only, lists sorted where the order is not meaningful. */
export interface TableShape {
  kind: 'table' | 'view';
  columns: string[];
  primary_key: string[] | null;
  unique: string[];
  foreign_keys: string[];
  /** Indexes other than those backing the primary key and unique constraints, by name. */
  indexes: string[];
}

/** `schema.table` → its shape. */
export type SchemaShape = Record<string, TableShape>;

export const fkText = (
  columns: readonly string[],
  schema: string,
  table: string,
  referenced: readonly string[],
) => `(${columns.join(',')}) -> ${schema}.${table}(${referenced.join(',')})`;

/** The inspection in the catalog's shape (partitioned tables are tables; keys as lists of names). */
export function shapeOf(db: InspectedDatabase): SchemaShape {
  const shape: SchemaShape = {};
  for (const t of db.tables) {
    shape[`${t.schema}.${t.name}`] = {
      kind: t.kind === 'view' || t.kind === 'materialized_view' ? 'view' : 'table',
      columns: t.columns.map((c) => c.name),
      primary_key: t.primary_key?.columns ?? null,
      unique: t.unique_constraints.map((u) => u.columns.join(',')).sort(),
      foreign_keys: t.foreign_keys
        .map((f) => fkText(f.columns, f.referenced.schema, f.referenced.table, f.referenced.columns))
        .sort(),
      indexes: t.indexes.map((i) => i.name).sort(),
    };
  }
  return shape;
}

/** Totals of a shape, for a readable failure before the per-table comparison. */
export function totals(shape: SchemaShape) {
  const tables = Object.values(shape);
  return {
    tables: tables.filter((t) => t.kind === 'table').length,
    views: tables.filter((t) => t.kind === 'view').length,
    columns: tables.reduce((n, t) => n + t.columns.length, 0),
    primary_keys: tables.filter((t) => t.primary_key !== null).length,
    unique: tables.reduce((n, t) => n + t.unique.length, 0),
    foreign_keys: tables.reduce((n, t) => n + t.foreign_keys.length, 0),
    indexes: tables.reduce((n, t) => n + t.indexes.length, 0),
  };
}

/** A SQLite file's shape from sqlite_schema and the pragma functions (schema `main`). */
export async function sqliteCatalogShape(file: string): Promise<SchemaShape> {
  const db = (await loadSqliteEngine()).open(file, { readonly: true });
  const all = async <Row>(sql: string, ...bindings: string[]): Promise<Row[]> =>
    Promise.resolve(db.all<Row>(sql, bindings));
  const names = async (sql: string, of: string) => (await all<{ name: string }>(sql, of)).map((r) => r.name);
  try {
    const shape: SchemaShape = {};
    const relations = await all<{ type: 'table' | 'view'; name: string }>(
      `SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite!_%' ESCAPE '!'`,
    );
    for (const { type, name } of relations) {
      const columns = await all<{ name: string; pk: number }>(
        'SELECT name, pk FROM pragma_table_xinfo(?) WHERE hidden <> 1 ORDER BY cid',
        name,
      );
      const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      const unique: string[] = [];
      for (const index of await names(`SELECT name FROM pragma_index_list(?) WHERE origin = 'u'`, name)) {
        unique.push((await names('SELECT name FROM pragma_index_info(?) ORDER BY seqno', index)).join(','));
      }
      const fkRows = await all<{ id: number; ref: string; from: string; to: string | null }>(
        'SELECT id, "table" AS ref, "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq',
        name,
      );
      const foreignKeys: string[] = [];
      for (const id of new Set(fkRows.map((r) => r.id))) {
        const rows = fkRows.filter((r) => r.id === id);
        // Without referenced columns, a foreign key references the primary key, in its order.
        const targetPk = await names(
          'SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk',
          rows[0].ref,
        );
        foreignKeys.push(
          fkText(
            rows.map((r) => r.from),
            'main',
            rows[0].ref,
            rows.map((r, i) => r.to ?? targetPk[i] ?? ''),
          ),
        );
      }
      shape[`main.${name}`] = {
        kind: type,
        columns: columns.map((c) => c.name),
        primary_key: pk.length === 0 ? null : pk.map((c) => c.name),
        unique,
        foreign_keys: foreignKeys,
        indexes: await names(`SELECT name FROM pragma_index_list(?) WHERE origin = 'c'`, name),
      };
    }
    return sortedLists(shape);
  } finally {
    db.close();
  }
}

/** Sorts each table's lists whose order carries no meaning, as {@link shapeOf} does. */
function sortedLists(shape: SchemaShape): SchemaShape {
  for (const table of Object.values(shape)) {
    table.indexes.sort();
    table.unique.sort();
    table.foreign_keys.sort();
  }
  return shape;
}

/**
 * The shape of the MySQL/MariaDB databases matching `schemaLike` (a LIKE pattern), from
 * information_schema: TABLES, COLUMNS, TABLE_CONSTRAINTS + KEY_COLUMN_USAGE.
 */
export async function mysqlCatalogShape(
  exec: <Row>(sql: string) => Promise<Row[]>,
  schemaLike: string,
): Promise<SchemaShape> {
  const like = `'${schemaLike.replaceAll("'", "''")}'`;
  const shape: SchemaShape = {};
  const tables = await exec<{ s: string; t: string; type: string }>(
    `SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t, TABLE_TYPE AS type FROM information_schema.TABLES
     WHERE TABLE_SCHEMA LIKE ${like}`,
  );
  for (const r of tables) {
    shape[`${r.s}.${r.t}`] = {
      kind: r.type === 'VIEW' ? 'view' : 'table',
      columns: [],
      primary_key: null,
      unique: [],
      foreign_keys: [],
      indexes: [],
    };
  }
  const columns = await exec<{ s: string; t: string; c: string }>(
    `SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.COLUMNS
     WHERE TABLE_SCHEMA LIKE ${like} ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION`,
  );
  for (const r of columns) shape[`${r.s}.${r.t}`]?.columns.push(r.c);
  const keys = await exec<{
    s: string;
    t: string;
    name: string;
    type: string;
    c: string;
    rs: string | null;
    rt: string | null;
    rc: string | null;
  }>(
    `SELECT tc.TABLE_SCHEMA AS s, tc.TABLE_NAME AS t, tc.CONSTRAINT_NAME AS name, tc.CONSTRAINT_TYPE AS type,
       k.COLUMN_NAME AS c, k.REFERENCED_TABLE_SCHEMA AS rs, k.REFERENCED_TABLE_NAME AS rt,
       k.REFERENCED_COLUMN_NAME AS rc
     FROM information_schema.TABLE_CONSTRAINTS tc
     JOIN information_schema.KEY_COLUMN_USAGE k ON k.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA
       AND k.TABLE_NAME = tc.TABLE_NAME AND k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME
     WHERE tc.TABLE_SCHEMA LIKE ${like} AND tc.CONSTRAINT_TYPE IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')
     ORDER BY 1, 2, 3, k.ORDINAL_POSITION`,
  );
  const grouped = new Map<string, typeof keys>();
  for (const r of keys) {
    const id = JSON.stringify([r.s, r.t, r.type, r.name]);
    grouped.set(id, [...(grouped.get(id) ?? []), r]);
  }
  for (const rows of grouped.values()) {
    const { s, t, type } = rows[0];
    const table = shape[`${s}.${t}`];
    if (table === undefined) continue;
    const names = rows.map((r) => r.c);
    if (type === 'PRIMARY KEY') table.primary_key = names;
    else if (type === 'UNIQUE') table.unique.push(names.join(','));
    else
      table.foreign_keys.push(
        fkText(
          names,
          rows[0].rs ?? '',
          rows[0].rt ?? '',
          rows.map((r) => r.rc ?? ''),
        ),
      );
  }
  // Indexes that back no key: InnoDB's own index for a foreign key without one is an index too.
  const indexes = await exec<{ s: string; t: string; name: string }>(
    `SELECT DISTINCT st.TABLE_SCHEMA AS s, st.TABLE_NAME AS t, st.INDEX_NAME AS name
     FROM information_schema.STATISTICS st
     WHERE st.TABLE_SCHEMA LIKE ${like} AND NOT EXISTS (
       SELECT 1 FROM information_schema.TABLE_CONSTRAINTS tc
       WHERE tc.TABLE_SCHEMA = st.TABLE_SCHEMA AND tc.TABLE_NAME = st.TABLE_NAME
         AND tc.CONSTRAINT_NAME = st.INDEX_NAME AND tc.CONSTRAINT_TYPE IN ('PRIMARY KEY', 'UNIQUE'))`,
  );
  for (const r of indexes) shape[`${r.s}.${r.t}`]?.indexes.push(r.name);
  return sortedLists(shape);
}

/**
 * A PostgreSQL database's shape from pg_catalog (every schema but the system ones): tables, views,
 * materialized views, partitioned and foreign tables — partitions only under their root, as the
 * crawler lists them — and keys, without the per-partition copies of a foreign key.
 */
export async function postgresCatalogShape(
  query: <Row>(sql: string) => Promise<Row[]>,
): Promise<SchemaShape> {
  const shape: SchemaShape = {};
  const user = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
    AND n.nspname NOT LIKE 'pg\\_temp\\_%'`;
  const relations = await query<{ s: string; t: string; kind: string }>(
    `SELECT n.nspname AS s, c.relname AS t, c.relkind AS kind FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND ${user}`,
  );
  for (const r of relations) {
    shape[`${r.s}.${r.t}`] = {
      kind: r.kind === 'v' || r.kind === 'm' ? 'view' : 'table',
      columns: [],
      primary_key: null,
      unique: [],
      foreign_keys: [],
      indexes: [],
    };
  }
  const columns = await query<{ s: string; t: string; c: string }>(
    `SELECT n.nspname AS s, c.relname AS t, a.attname AS c FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE a.attnum > 0 AND NOT a.attisdropped AND ${user} ORDER BY 1, 2, a.attnum`,
  );
  for (const r of columns) shape[`${r.s}.${r.t}`]?.columns.push(r.c);
  const keys = await query<{
    s: string;
    t: string;
    type: string;
    cols: string[];
    rs: string;
    rt: string;
    rcols: string[];
  }>(
    `SELECT n.nspname AS s, c.relname AS t, con.contype AS type,
       ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(num, i)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.i)::text[] AS cols,
       rn.nspname AS rs, r.relname AS rt,
       ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(num, i)
             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.i)::text[] AS rcols
     FROM pg_constraint con
     JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_class r ON r.oid = con.confrelid LEFT JOIN pg_namespace rn ON rn.oid = r.relnamespace
     WHERE con.contype IN ('p', 'u', 'f') AND ${user}
       AND NOT (con.contype = 'f' AND con.conparentid <> 0 AND r.relispartition)`,
  );
  for (const k of keys) {
    const table = shape[`${k.s}.${k.t}`];
    if (table === undefined) continue;
    if (k.type === 'p') table.primary_key = k.cols;
    else if (k.type === 'u') table.unique.push(k.cols.join(','));
    else table.foreign_keys.push(fkText(k.cols, k.rs, k.rt, k.rcols));
  }
  // An exclusion constraint's index is an index: the model has no exclusion constraints.
  const indexes = await query<{ s: string; t: string; name: string }>(
    `SELECT n.nspname AS s, c.relname AS t, i.relname AS name FROM pg_index x
     JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE ${user} AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = x.indexrelid
       AND con.conrelid = x.indrelid AND con.contype IN ('p', 'u'))`,
  );
  for (const r of indexes) shape[`${r.s}.${r.t}`]?.indexes.push(r.name);
  return sortedLists(shape);
}
