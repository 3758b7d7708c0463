import type { LineageDirection, LineageQuery } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** How one graph is read: its edges, one hop each way from `w.node`, and how a node is described. */
interface GraphShape {
  /** `SELECT ... AS next` of the nodes one hop downstream of `w.node` (active edges only). */
  down: string;
  /** The same upstream. */
  up: string;
  /** Active edges as `(id, s, t, json)`: the traversed ones are picked by joining the reached nodes. */
  edges: string;
  /** A JSON object describing node `r.node`, from `n`, the node's row (left-joined). */
  nodeJson: string;
  /** `LEFT JOIN <table> n ON n.id = r.node` */
  nodeJoin: string;
  /** Whether `$1` is an active root node. */
  rootExists: string;
}

const DATASETS: GraphShape = {
  down: `SELECT l.target_dataset_id AS next FROM dataset_links l
         WHERE l.source_dataset_id = w.node AND l.deleted_at IS NULL`,
  up: `SELECT l.source_dataset_id FROM dataset_links l
       WHERE l.target_dataset_id = w.node AND l.deleted_at IS NULL`,
  edges: `SELECT l.id, l.source_dataset_id AS s, l.target_dataset_id AS t,
                 jsonb_build_object('id', l.id, 'source_id', l.source_dataset_id,
                                   'target_id', l.target_dataset_id, 'engine_id', l.engine_id) AS json
          FROM dataset_links l WHERE l.deleted_at IS NULL`,
  nodeJson: `json_build_object('id', r.node, 'object_name', n.object_name, 'kind', n.kind, 'layer', n.layer,
                               'system_id', n.system_id, 'upstream_depth', r.up, 'downstream_depth', r.down)`,
  nodeJoin: 'LEFT JOIN datasets n ON n.id = r.node',
  rootExists: 'SELECT EXISTS (SELECT 1 FROM datasets WHERE id = $1 AND deleted_at IS NULL)',
};

// Field links count only inside active dataset links (a deleted hop moves no data).
const FIELDS: GraphShape = {
  down: `SELECT fl.target_field_id AS next FROM field_links fl
         JOIN dataset_links dl ON dl.id = fl.dataset_link_id AND dl.deleted_at IS NULL
         WHERE fl.source_field_id = w.node`,
  up: `SELECT fl.source_field_id FROM field_links fl
       JOIN dataset_links dl ON dl.id = fl.dataset_link_id AND dl.deleted_at IS NULL
       WHERE fl.target_field_id = w.node`,
  edges: `SELECT fl.id, fl.source_field_id AS s, fl.target_field_id AS t,
                 jsonb_build_object('id', fl.id, 'dataset_link_id', fl.dataset_link_id,
                                   'source_id', fl.source_field_id, 'target_id', fl.target_field_id,
                                   'transformations', fl.transformations) AS json
          FROM field_links fl JOIN dataset_links dl ON dl.id = fl.dataset_link_id AND dl.deleted_at IS NULL`,
  nodeJson: `json_build_object('id', r.node, 'dataset_id', n.dataset_id, 'name', n.name, 'origin', n.origin,
                               'upstream_depth', r.up, 'downstream_depth', r.down)`,
  nodeJoin: 'LEFT JOIN fields n ON n.id = r.node',
  rootExists: 'SELECT EXISTS (SELECT 1 FROM fields WHERE id = $1)',
};

/**
 * One statement per graph page (ADR 0014). `walk` is breadth-first by levels: UNION keeps one row per
 * (node, direction, depth), so a cycle adds at most one row per node and level and the walk stops at
 * `depth` — it ends on any graph, in at most nodes × depth rows. `reach` keeps each node's shortest
 * distance per direction; nodes are ranked by distance then id and paged; an edge is traversed when
 * its near end was reached in fewer than `depth` hops, and is listed on the page of its later end.
 */
/**
 * After a `walk (node, dir, depth)` CTE: each node's nearest depth per direction (`reach`), and the
 * nodes ranked nearest first (`ranked`, the page order). Shared by the dataset and the job graph.
 */
export const REACH_AND_RANK = `reach AS (
  SELECT node,
         min(depth) FILTER (WHERE dir = 'up') AS up,
         min(depth) FILTER (WHERE dir = 'down') AS down
  FROM walk GROUP BY node
),
ranked AS (
  SELECT r.node, r.up, r.down,
         row_number() OVER (ORDER BY LEAST(coalesce(r.up, 2147483647), coalesce(r.down, 2147483647)), r.node) AS rank
  FROM reach r
),`;

function graphSql(g: GraphShape): string {
  return `
WITH RECURSIVE
walk(node, dir, depth) AS (
  SELECT $1::uuid, d, 0 FROM unnest($2::text[]) AS d
  UNION
  SELECT hop.next, w.dir, w.depth + 1
  FROM walk w
  CROSS JOIN LATERAL (
    SELECT * FROM (${g.down}) down_hop WHERE w.dir = 'down'
    UNION ALL
    SELECT * FROM (${g.up}) up_hop WHERE w.dir = 'up'
  ) hop
  WHERE w.depth < $3
),
${REACH_AND_RANK}
traversed AS (
  SELECT e.id, e.s, e.t, e.json FROM (${g.edges}) e JOIN reach r ON r.node = e.s AND r.down < $3
  UNION
  SELECT e.id, e.s, e.t, e.json FROM (${g.edges}) e JOIN reach r ON r.node = e.t AND r.up < $3
),
page_edges AS (
  SELECT e.id, e.json, GREATEST(rs.rank, rt.rank) AS rank
  FROM traversed e JOIN ranked rs ON rs.node = e.s JOIN ranked rt ON rt.node = e.t
)
SELECT (${g.rootExists}) AS root_exists,
       (SELECT count(*)::int FROM reach) AS total_nodes,
       (SELECT count(*)::int FROM traversed) AS total_edges,
       (SELECT coalesce(json_agg(${g.nodeJson} ORDER BY r.rank), '[]'::json)
          FROM ranked r ${g.nodeJoin} WHERE r.rank > $4 AND r.rank <= $4 + $5) AS nodes,
       (SELECT coalesce(json_agg(e.json ORDER BY e.rank, e.id), '[]'::json)
          FROM page_edges e WHERE e.rank > $4 AND e.rank <= $4 + $5) AS edges`;
}

const SQL = { datasets: graphSql(DATASETS), fields: graphSql(FIELDS) };

export type GraphKind = keyof typeof SQL;

export interface GraphRows {
  root_exists: boolean;
  total_nodes: number;
  total_edges: number;
  nodes: Record<string, unknown>[];
  edges: Record<string, unknown>[];
}

/** The edge directions a graph read follows. */
export const DIRECTIONS: Record<LineageDirection, string[]> = {
  upstream: ['up'],
  downstream: ['down'],
  both: ['up', 'down'],
};

@Injectable()
export class LineageGraphRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(kind: GraphKind, rootId: string, query: LineageQuery): Promise<GraphRows> {
    const rows: GraphRows[] = await this.dataSource.query(SQL[kind], [
      rootId,
      DIRECTIONS[query.direction],
      query.depth,
      (query.page - 1) * query.size,
      query.size,
    ]);
    return rows[0];
  }
}
