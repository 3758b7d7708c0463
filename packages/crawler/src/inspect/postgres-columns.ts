// PostgreSQL columns and their types: the columns query (run in two halves, on two connections), the
// columns turned into the model's records as each half arrives, and the types they use, read as soon
// as the first half is in (and again, for what the second half adds, only if it adds anything); each
// column is typed when its table is known (issue 23 §6, ADRs 0041 and 0060).
import type { Catalog } from '../connection/catalog.js';
import type { InspectedColumn, InspectedTable } from '../model.js';
import type { PgTypeInfo, PostgresTypeMapper } from '../normalise/postgres.js';
import type { TypeLog, TypeMapping } from '../normalise/type-log.js';
import type { SqlCondition } from './filters.js';

/** A column as the columns query sends it, in this order. */
type ColumnTuple = [
  attnum: number,
  name: string,
  type_oid: string,
  typmod: number,
  ndims: number,
  not_null: boolean,
  default_: string | null,
  generated: string | null,
  /** Null where the column is not generated / not an identity (fewer strings to parse). */
  attgenerated: string | null,
  attidentity: string | null,
  collation: string | null,
];

/** What a column's (type, typmod, dimensions) give it. */
interface Typing {
  nativeType: string;
  mapping: TypeMapping;
  domain: string | null;
}

/** A table's columns, one JSON array of tuples per table. */
export interface TableColumnsRow {
  relid: number;
  columns: ColumnTuple[];
}

/**
 * The columns read so far, by table oid, as the model's records; their native type, type and domain
 * are filled in by {@link ColumnSet.attach}, once the types are read.
 */
export class ColumnSet {
  private readonly tables = new Map<number, { columns: InspectedColumn[]; tuples: ColumnTuple[] }>();
  /** Each table's column names by attnum (for the constraints). */
  readonly namesOf = new Map<number, string[]>();
  private readonly used = new Map<string, Set<number>>();
  /** The (type, typmod) pairs already given to {@link usedTypes}. */
  private readonly asked = new Set<string>();

  /** Takes one answer of the columns query (the records are built while the other half is read). */
  add(rows: readonly TableColumnsRow[]): void {
    for (const { relid, columns: tuples } of rows) {
      const names: string[] = [];
      const columns = tuples.map((c): InspectedColumn => {
        names[c[0]] = c[1];
        const typmods = this.used.get(c[2]);
        if (typmods === undefined) this.used.set(c[2], new Set([c[3]]));
        else typmods.add(c[3]);
        return {
          name: c[1],
          // The attnum until the table's columns are sorted (attnum has gaps where columns were dropped).
          ordinal: c[0],
          native_type: '',
          type: null,
          nullable: !c[5],
          default: c[6],
          comment: null,
          identity: c[9] === 'a' ? 'always' : c[9] === 'd' ? 'by_default' : null,
          generated: c[7] === null ? null : { expression: c[7], stored: c[8] === 's' },
          collation: c[10],
          domain: null,
          on_update: null,
        };
      });
      this.tables.set(relid, { columns, tuples });
      this.namesOf.set(relid, names);
    }
  }

  /**
   * Gives the columns of table `relid` their comments, `[attnum, text]` pairs (read with the relations,
   * one lookup per table rather than one per column); before {@link attach}, while ordinals are attnums.
   */
  comment(relid: number, comments: readonly [attnum: number, text: string][]): void {
    const columns = this.tables.get(relid)?.columns;
    if (columns === undefined) return;
    for (const [attnum, text] of comments) {
      const column = columns.find((c) => c.ordinal === attnum);
      if (column !== undefined) column.comment = text;
    }
  }

  /** The (type, typmod) pairs the columns use, but those an earlier call returned. */
  usedTypes(): { atttypid: string; atttypmod: number }[] {
    const pairs: { atttypid: string; atttypmod: number }[] = [];
    for (const [atttypid, typmods] of this.used) {
      for (const atttypmod of typmods) {
        const key = `${atttypid}/${atttypmod}`;
        if (this.asked.has(key)) continue;
        this.asked.add(key);
        pairs.push({ atttypid, atttypmod });
      }
    }
    return pairs;
  }

  /**
   * Gives each selected table its columns, typed (recorded in `types`), in attnum order and
   * numbered from 1 among the visible columns.
   */
  attach(byOid: ReadonlyMap<number, InspectedTable>, mapper: PostgresTypeMapper, types: TypeLog): void {
    // 200,000 columns at 10,000 tables, a few dozen distinct (type, typmod, dimensions): each looked up once.
    const typings = new Map<string, Typing>();
    for (const [relid, { columns, tuples }] of this.tables) {
      const table = byOid.get(relid);
      if (table === undefined) continue;
      columns.forEach((column, i) => {
        const [, , oid, typmod, ndims] = tuples[i];
        const key = `${oid}/${typmod}/${ndims}`;
        let typing = typings.get(key);
        if (typing === undefined) {
          typing = {
            nativeType: mapper.nativeType(oid, typmod),
            mapping: mapper.map(oid, typmod, ndims),
            domain: mapper.domainOf(oid),
          };
          typings.set(key, typing);
        }
        column.native_type = typing.nativeType;
        column.type = types.record(typing.nativeType, typing.mapping);
        column.domain = typing.domain;
      });
      columns.sort((a, b) => a.ordinal - b.ordinal);
      columns.forEach((column, i) => (column.ordinal = i + 1));
      table.columns = columns;
    }
  }
}

/**
 * The columns of the selected tables whose oid hashes to `half` (0 or 1): one half per connection,
 * counted as one query. Not sorted, nor named by table: 200,000 rows sort faster per table in
 * JavaScript, and a table oid parses faster than its schema and name. One row per table with its
 * columns as one JSON array of tuples: JSON.parse reads it at a third of the driver's cost of 200,000
 * rows of 13 fields, and the query is no slower (issue 23 §6). Native type texts come with the types;
 * comments with the relations (a pg_description lookup per column was ~0.1 s of each half's ~0.45 s of
 * server CPU at 10,000 tables, ADR 0060).
 */
export function queryColumns(catalog: Catalog, rel: SqlCondition, half: 0 | 1): Promise<TableColumnsRow[]> {
  return catalog.query<TableColumnsRow>(
    `WITH ${rel.sql}
     SELECT a.attrelid AS relid, json_agg(json_build_array(a.attnum, a.attname,
       a.atttypid::text, a.atttypmod, a.attndims, a.attnotnull,
       -- A default holds no column reference, so it is deparsed without its table (relation 0): with
       -- the table, pg_get_expr opens it for each default (~0.4 s of the query's 1.5 s at 10,000 tables).
       CASE WHEN a.attgenerated = '' THEN pg_catalog.pg_get_expr(d.adbin, 0) END,
       CASE WHEN a.attgenerated <> '' THEN pg_catalog.pg_get_expr(d.adbin, d.adrelid) END,
       NULLIF(a.attgenerated, '')::text, NULLIF(a.attidentity, '')::text,
       CASE WHEN a.attcollation <> t.typcollation THEN co.collname::text END)) AS columns
     FROM rel r
     JOIN pg_catalog.pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
     JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
     LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation
     WHERE pg_catalog.hashoid(r.oid) & 1 = ${half}
     GROUP BY a.attrelid`,
    rel.bindings,
    { part: half === 1 },
  );
}

/**
 * Every type the columns read so far use and no earlier call asked for, closed over array elements,
 * domain base types and composite attributes (recursively), with enum labels and composite attributes.
 * A further call (`part`) is counted with the first: one query, however many parts.
 */
export async function queryTypes(catalog: Catalog, columns: ColumnSet, part = false): Promise<PgTypeInfo[]> {
  // The (type, typmod) pairs the columns use, sent back rather than read from pg_attribute again.
  const pairs = columns.usedTypes();
  if (part && pairs.length === 0) return [];
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
    { part },
  );
}
