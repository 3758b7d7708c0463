// SQLite introspection: sqlite_schema joined to the pragma table-valued functions (table_xinfo,
// index_list + index_xinfo, foreign_key_list), five queries whatever the table count, in one read
// transaction. The schema is `main`; SQLite keeps no comments.
import { basename } from 'node:path';
import type { Index, ReferentialAction } from '../model.js';
import { mapSqliteType } from '../normalise/sqlite.js';
import { groupRows, TableSet } from './assemble.js';
import type { InspectDialect } from './dialect.js';
import { globToSqliteGlob, relationFilter, schemaSelected, type PatternMatcher } from './filters.js';
import { parseCreateIndex, parseCreateTable, viewBody, type ParsedTable } from './sqlite-ddl.js';

// GLOB is case-sensitive, as names are matched everywhere else.
const GLOB: PatternMatcher = { match: (column) => `${column} GLOB ?`, pattern: globToSqliteGlob };
const SCHEMA = 'main';

interface MasterRow {
  type: 'table' | 'view';
  name: string;
  sql: string | null;
}
interface ColumnRow {
  tbl: string;
  cid: number;
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}
interface IndexRow {
  tbl: string;
  idx: string;
  unique: number;
  origin: 'c' | 'u' | 'pk';
  partial: number;
  seqno: number;
  cid: number;
  col: string | null;
  sql: string | null;
}
interface ForeignKeyRow {
  tbl: string;
  id: number;
  seq: number;
  ref_table: string;
  from: string;
  to: string | null;
  on_update: string;
  on_delete: string;
}

export const inspectSqlite: InspectDialect = async (catalog, filters, types, target) => {
  const [server] = await catalog.query<{ version: string }>('SELECT sqlite_version() AS version');
  const where = relationFilter(filters, { schema: `'${SCHEMA}'`, table: 'm.name' }, GLOB);
  const selected = `m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite!_%' ESCAPE '!' AND ${where.sql}`;
  const master = await catalog.query<MasterRow>(
    `SELECT m.type, m.name, m.sql FROM sqlite_master m WHERE ${selected}`,
    where.bindings,
  );
  const columns = await catalog.query<ColumnRow>(
    `SELECT m.name AS tbl, p.cid, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden
     FROM sqlite_master m JOIN pragma_table_xinfo(m.name) p
     WHERE ${selected} ORDER BY m.name, p.cid`,
    where.bindings,
  );
  const indexRows = await catalog.query<IndexRow>(
    `SELECT m.name AS tbl, il.name AS idx, il."unique", il.origin, il.partial,
       ii.seqno, ii.cid, ii.name AS col, s.sql
     FROM sqlite_master m
     JOIN pragma_index_list(m.name) il
     JOIN pragma_index_xinfo(il.name) ii
     LEFT JOIN sqlite_master s ON s.type = 'index' AND s.name = il.name
     WHERE m.type = 'table' AND ${selected} AND ii."key" = 1
     ORDER BY m.name, il.name, ii.seqno`,
    where.bindings,
  );
  // A foreign key written without referenced columns references the primary key, in its order.
  const foreignKeyRows = await catalog.query<ForeignKeyRow>(
    `SELECT m.name AS tbl, f.id, f.seq, f."table" AS ref_table, f."from",
       coalesce(f."to", (SELECT r.name FROM pragma_table_info(f."table") r WHERE r.pk = f.seq + 1)) AS "to",
       f.on_update, f.on_delete
     FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
     WHERE m.type = 'table' AND ${selected}
     ORDER BY m.name, f.id, f.seq`,
    where.bindings,
  );

  const tables = new TableSet();
  const parsed = new Map<string, ParsedTable | null>();
  for (const row of master) {
    const table = tables.add(SCHEMA, row.name, row.type === 'view' ? 'view' : 'table', null);
    if (row.type === 'view') table.view_definition = row.sql === null ? null : viewBody(row.sql);
    else parsed.set(row.name, row.sql === null ? null : parseCreateTable(row.sql));
  }

  for (const rows of groupRows(columns, (r) => [r.tbl])) {
    const table = tables.get(SCHEMA, rows[0].tbl);
    if (table === undefined) continue;
    const ddl = parsed.get(table.name) ?? null;
    const visible = rows.filter((r) => r.hidden !== 1);
    const pk = visible.filter((r) => r.pk > 0).sort((a, b) => a.pk - b.pk);
    // INTEGER PRIMARY KEY is the rowid: SQLite assigns it when none is given.
    const rowid = pk.length === 1 && pk[0].type.toUpperCase() === 'INTEGER' && ddl?.withoutRowid !== true;
    visible.forEach((row, i) => {
      const column = ddl?.columns.get(row.name);
      table.columns.push({
        name: row.name,
        ordinal: i + 1,
        native_type: row.type,
        type: types.record(row.type, mapSqliteType(row.type)),
        // A PRIMARY KEY column of a rowid table may hold NULL in SQLite unless declared NOT NULL.
        nullable: row.notnull === 0 && !(rowid && row.pk > 0),
        default: row.dflt_value,
        comment: null,
        identity: rowid && row.pk > 0 ? 'by_default' : null,
        generated:
          row.hidden === 2 || row.hidden === 3
            ? { expression: column?.generated ?? '', stored: row.hidden === 3 }
            : null,
        collation: column?.collation ?? null,
        domain: null,
        on_update: null,
      });
    });
    if (pk.length > 0)
      table.primary_key = { name: ddl?.primaryKeyName ?? null, columns: pk.map((r) => r.name) };
    table.check_constraints = ddl?.checks.map((c) => ({ name: c.name, expression: c.expression })) ?? [];
  }

  for (const parts of groupRows(indexRows, (r) => [r.tbl, r.idx])) {
    const first = parts[0];
    const table = tables.get(SCHEMA, first.tbl);
    if (table === undefined || first.origin === 'pk') continue;
    const columnNames = parts.map((p) => p.col);
    if (first.origin === 'u') {
      const keyColumns = columnNames.map((c) => c ?? '');
      const declared = parsed.get(table.name)?.uniques.find((u) => sameColumns(u.columns, keyColumns));
      table.unique_constraints.push({ name: declared?.name ?? null, columns: keyColumns });
    } else {
      table.indexes.push(indexOf(first, columnNames));
    }
  }

  for (const rows of groupRows(foreignKeyRows, (r) => [r.tbl, String(r.id)])) {
    const first = rows[0];
    const table = tables.get(SCHEMA, first.tbl);
    if (table === undefined) continue;
    const fkColumns = rows.map((r) => r.from);
    const declared = parsed
      .get(table.name)
      ?.foreignKeys.find(
        (f) => sameColumns(f.columns, fkColumns) && f.table.toLowerCase() === first.ref_table.toLowerCase(),
      );
    table.foreign_keys.push({
      name: declared?.name ?? null,
      columns: fkColumns,
      referenced: { schema: SCHEMA, table: first.ref_table, columns: rows.map((r) => r.to ?? '') },
      on_update: first.on_update as ReferentialAction,
      on_delete: first.on_delete as ReferentialAction,
    });
  }

  const filename = target.sqlite!.filename;
  return {
    server: { product: 'SQLite', version: server.version },
    database: filename === ':memory:' ? filename : basename(filename),
    schemas: schemaSelected(filters, SCHEMA) ? [SCHEMA] : [],
    tables: tables.sorted(),
  };
};

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((c, i) => c.toLowerCase() === b[i].toLowerCase());
}

function indexOf(first: IndexRow, columnNames: (string | null)[]): Index {
  const ddl = first.sql === null ? null : parseCreateIndex(first.sql);
  const plain = columnNames.every((c) => c !== null);
  return {
    name: first.idx,
    unique: first.unique === 1,
    method: null,
    columns: plain ? columnNames : null,
    expression: plain ? null : (ddl?.parts.join(', ') ?? null),
    include: [],
    predicate: first.partial === 1 ? (ddl?.predicate ?? null) : null,
    definition: first.sql,
  };
}
