import type { EntityManager } from 'typeorm';

/** Tables whose rows form trees through `parent_id`. */
export type TreeTable = 'fields' | 'type_instances';

/** Where a node sits in its tree. */
export interface Ancestry {
  /** 1 for a root; `maxLevels + 1` for any node deeper than the walk goes. */
  level: number;
  /** The root, or the highest ancestor the walk reached. */
  rootId: string;
}

/**
 * The level and root of each node, walking up at most `maxLevels` levels (one recursive query for all,
 * which also ends on a cycle). Nodes that do not exist are absent from the result.
 */
export async function ancestryOf(
  m: EntityManager,
  table: TreeTable,
  ids: readonly string[],
  maxLevels: number,
): Promise<Map<string, Ancestry>> {
  if (ids.length === 0) return new Map();
  const rows: { start_id: string; level: number; root_id: string }[] = await m.query(
    `WITH RECURSIVE up(start_id, id, parent_id, level) AS (
       SELECT id, id, parent_id, 1 FROM ${table} WHERE id = ANY($1::uuid[])
       UNION ALL
       SELECT up.start_id, t.id, t.parent_id, up.level + 1
       FROM ${table} t JOIN up ON t.id = up.parent_id
       WHERE up.level <= $2
     )
     SELECT DISTINCT ON (start_id) start_id, level, id AS root_id FROM up ORDER BY start_id, level DESC`,
    [ids, maxLevels],
  );
  return new Map(rows.map((r) => [r.start_id, { level: Number(r.level), rootId: r.root_id }]));
}

/** How many nodes each root's tree has (the root included), counting at most `maxLevels` levels. */
export async function treeSizes(
  m: EntityManager,
  table: TreeTable,
  rootIds: readonly string[],
  maxLevels: number,
): Promise<Map<string, number>> {
  if (rootIds.length === 0) return new Map();
  const rows: { root_id: string; size: number }[] = await m.query(
    `WITH RECURSIVE down(root_id, id, level) AS (
       SELECT id, id, 1 FROM ${table} WHERE id = ANY($1::uuid[])
       UNION ALL
       SELECT down.root_id, t.id, down.level + 1
       FROM ${table} t JOIN down ON t.parent_id = down.id
       WHERE down.level < $2
     )
     SELECT root_id, count(*)::int AS size FROM down GROUP BY root_id`,
    [rootIds, maxLevels],
  );
  return new Map(rows.map((r) => [r.root_id, Number(r.size)]));
}

/** Levels from `id` down to its deepest descendant (1 for a leaf), walking at most `maxLevels + 1`. */
export async function subtreeHeight(
  m: EntityManager,
  table: TreeTable,
  id: string,
  maxLevels: number,
): Promise<number> {
  const rows: { height: number | null }[] = await m.query(
    `WITH RECURSIVE down(id, level) AS (
       SELECT id, 1 FROM ${table} WHERE id = $1
       UNION ALL
       SELECT t.id, down.level + 1 FROM ${table} t JOIN down ON t.parent_id = down.id WHERE down.level <= $2
     )
     SELECT max(level)::int AS height FROM down`,
    [id, maxLevels],
  );
  return Number(rows[0]?.height ?? 0);
}
