import { compareNames } from './pg-catalog.js';

// ChartDB's table node geometry (chartdb/chartdb src/lib/domain/db-table.ts: MIN_TABLE_SIZE, calcTableHeight):
// a collapsed table shows at most 10 fields.
const TABLE_HEADER = 42;
const FIELD_HEIGHT = 32;
const TABLE_FOOTER = 32;
const MAX_VISIBLE_FIELDS = 10;
const COLUMN_WIDTH = 420;
const ROW_GAP = 80;
const ORIGIN = 100;

/** ChartDB's table palette (chartdb/chartdb src/lib/colors.ts), one colour per layout column. */
const COLORS = ['#8eb7ff', '#42e0c0', '#4dee8a', '#ffe374', '#ff9f74', '#b067e9', '#ff6b8a', '#7175fa'];

/** What the layout needs of a table. */
export interface LayoutTable {
  name: string;
  fieldCount: number;
}

/** A table's place and colour on the canvas. */
export interface Placement {
  x: number;
  y: number;
  color: string;
}

/**
 * Lays tables out in columns by reference depth: tables that reference nothing come first (left), and every
 * table sits one column right of the deepest table it references, so foreign keys point leftwards. Within a
 * column, tables are stacked by name. Self-references and cycles are ignored.
 */
export function layoutTables(
  tables: readonly LayoutTable[],
  references: readonly { from: string; to: string }[],
): Map<string, Placement> {
  const targets = new Map<string, string[]>();
  for (const { from, to } of references) {
    if (from !== to) targets.set(from, [...(targets.get(from) ?? []), to]);
  }
  const depths = new Map<string, number>();
  const depthOf = (name: string, visiting: Set<string>): number => {
    const known = depths.get(name);
    if (known !== undefined) return known;
    visiting.add(name);
    const deeper = (targets.get(name) ?? [])
      .filter((t) => !visiting.has(t))
      .map((t) => depthOf(t, visiting) + 1);
    visiting.delete(name);
    const depth = Math.max(0, ...deeper);
    depths.set(name, depth);
    return depth;
  };

  const placements = new Map<string, Placement>();
  const nextY = new Map<number, number>();
  const sorted = [...tables].sort((a, b) => compareNames(a.name, b.name));
  for (const table of sorted) {
    const depth = depthOf(table.name, new Set());
    const y = nextY.get(depth) ?? ORIGIN;
    const height =
      TABLE_HEADER + FIELD_HEIGHT * Math.min(table.fieldCount, MAX_VISIBLE_FIELDS) + TABLE_FOOTER;
    nextY.set(depth, y + height + ROW_GAP);
    placements.set(table.name, { x: ORIGIN + depth * COLUMN_WIDTH, y, color: COLORS[depth % COLORS.length] });
  }
  return placements;
}
