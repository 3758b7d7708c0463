// Shared by the dialect modules: tables keyed by (schema, name) in a Map (rows of a catalog query are
// attached in O(1) each), and the final deterministic ordering.
import type { InspectedColumn, InspectedTable, TableKind } from '../model.js';
import { compareText } from '../normalise/type-log.js';

/** A table with no columns, keys or constraints yet. */
export function emptyTable(
  schema: string,
  name: string,
  kind: TableKind,
  comment: string | null,
): InspectedTable {
  return {
    schema,
    name,
    kind,
    comment,
    view_definition: null,
    columns: [],
    primary_key: null,
    unique_constraints: [],
    foreign_keys: [],
    indexes: [],
    check_constraints: [],
    partition_key: null,
    partitions: [],
    partition_of: null,
  };
}

/** A column of `nativeType` with nothing else known yet (unmapped, nullable, no default). */
export function emptyColumn(name: string, ordinal: number, nativeType: string): InspectedColumn {
  return {
    name,
    ordinal,
    native_type: nativeType,
    type: null,
    nullable: true,
    default: null,
    comment: null,
    identity: null,
    generated: null,
    collation: null,
    domain: null,
    on_update: null,
  };
}

/** The tables of one inspection, keyed by schema and name. */
export class TableSet {
  private readonly tables = new Map<string, InspectedTable>();

  add(schema: string, name: string, kind: TableKind, comment: string | null): InspectedTable {
    const table = emptyTable(schema, name, kind, comment);
    this.tables.set(key(schema, name), table);
    return table;
  }

  get(schema: string, name: string): InspectedTable | undefined {
    return this.tables.get(key(schema, name));
  }

  /** Every table, sorted, with their parts sorted too (see {@link sortTable}). */
  sorted(): InspectedTable[] {
    const tables = [...this.tables.values()];
    for (const table of tables) sortTable(table);
    return tables.sort((a, b) => compareText(a.schema, b.schema) || compareText(a.name, b.name));
  }
}

/** Consecutive-or-not rows grouped by a composite key, groups in first-seen order. */
export function groupRows<Row>(rows: readonly Row[], keyOf: (row: Row) => readonly string[]): Row[][] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = keyOf(row).join('\u0000');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [row]);
    else group.push(row);
  }
  return [...groups.values()];
}

function key(schema: string, name: string): string {
  return `${schema}\u0000${name}`;
}

/** Named things by name; unnamed ones (SQLite) after them, by their columns or expression. */
function byName<T extends { name: string | null }>(label: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    if (a.name !== null && b.name !== null) return compareText(a.name, b.name);
    if (a.name !== null) return -1;
    if (b.name !== null) return 1;
    return compareText(label(a), label(b));
  };
}

/** Columns by ordinal; constraints, indexes and partitions by name. */
export function sortTable(table: InspectedTable): void {
  table.columns.sort((a, b) => a.ordinal - b.ordinal);
  table.unique_constraints.sort(byName((u) => u.columns.join('\u0000')));
  table.foreign_keys.sort(
    byName((f) => [f.columns.join('\u0000'), f.referenced.schema, f.referenced.table].join('\u0001')),
  );
  table.indexes.sort(byName((i) => i.name));
  table.check_constraints.sort(byName((c) => c.expression));
  table.partitions.sort((a, b) => compareText(a.schema, b.schema) || compareText(a.name, b.name));
}
