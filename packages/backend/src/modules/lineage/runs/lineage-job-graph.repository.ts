import type { LineageJobGraphQuery } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DIRECTIONS, type GraphRows, REACH_AND_RANK } from '../lineage-graph.repository.js';

/** The job id a node key names (`job:<id>`), or null: an index seek on `lineage_job_datasets.job_id`. */
const JOB_OF = (node: string) => `(CASE WHEN ${node} LIKE 'job:%' THEN substr(${node}, 5)::uuid END)`;

/**
 * The job graph in one statement per page (ADR 0053), walked as the dataset graph is (ADR 0014):
 * breadth-first by levels, UNION keeping one row per (node, direction, depth) so that cycles end, each
 * node's shortest distance per direction, nodes ranked by distance then key, an edge on the page of its
 * later end. Nodes are text keys; the edges are `lineage_job_datasets` rows: an input is dataset → job,
 * an output job → dataset.
 */
const SQL = `
WITH RECURSIVE
walk(node, dir, depth) AS (
  SELECT $1::text, d, 0 FROM unnest($2::text[]) AS d
  UNION
  SELECT hop.next, w.dir, w.depth + 1
  FROM walk w
  CROSS JOIN LATERAL (
    SELECT 'job:' || jd.job_id AS next FROM lineage_job_datasets jd
    WHERE w.dir = 'down' AND jd.dataset_key = w.node AND jd.role = 'input'
    UNION ALL
    SELECT jd.dataset_key FROM lineage_job_datasets jd
    WHERE w.dir = 'down' AND jd.job_id = ${JOB_OF('w.node')} AND jd.role = 'output'
    UNION ALL
    SELECT 'job:' || jd.job_id FROM lineage_job_datasets jd
    WHERE w.dir = 'up' AND jd.dataset_key = w.node AND jd.role = 'output'
    UNION ALL
    SELECT jd.dataset_key FROM lineage_job_datasets jd
    WHERE w.dir = 'up' AND jd.job_id = ${JOB_OF('w.node')} AND jd.role = 'input'
  ) hop
  WHERE w.depth < $3
),
${REACH_AND_RANK}
edges AS (
  SELECT CASE WHEN jd.role = 'input' THEN jd.dataset_key ELSE 'job:' || jd.job_id END AS s,
         CASE WHEN jd.role = 'input' THEN 'job:' || jd.job_id ELSE jd.dataset_key END AS t,
         jd.role
  FROM lineage_job_datasets jd
  WHERE jd.dataset_key IN (SELECT node FROM reach) OR jd.job_id IN (SELECT ${JOB_OF('node')} FROM reach)
),
traversed AS (
  SELECT e.* FROM edges e JOIN reach r ON r.node = e.s AND r.down < $3
  UNION
  SELECT e.* FROM edges e JOIN reach r ON r.node = e.t AND r.up < $3
),
page_edges AS (
  SELECT e.s, e.t, e.role, GREATEST(rs.rank, rt.rank) AS rank
  FROM traversed e JOIN ranked rs ON rs.node = e.s JOIN ranked rt ON rt.node = e.t
)
SELECT (EXISTS (SELECT 1 FROM lineage_jobs WHERE id = $6::uuid)
        OR EXISTS (SELECT 1 FROM datasets WHERE id = $7::uuid AND deleted_at IS NULL)) AS root_exists,
       (SELECT count(*)::int FROM reach) AS total_nodes,
       (SELECT count(*)::int FROM traversed) AS total_edges,
       (SELECT coalesce(json_agg(json_build_object(
                 'key', r.node,
                 'type', split_part(r.node, ':', 1),
                 'id', coalesce(j.id, ds.id),
                 'namespace', coalesce(j.namespace, d.namespace),
                 'name', coalesce(j.name, d.name),
                 'object_name', ds.object_name,
                 'upstream_depth', r.up,
                 'downstream_depth', r.down) ORDER BY r.rank), '[]'::json)
          FROM ranked r
          LEFT JOIN lineage_jobs j ON j.id = ${JOB_OF('r.node')}
          LEFT JOIN LATERAL (SELECT jd.namespace, jd.name FROM lineage_job_datasets jd
                             WHERE jd.dataset_key = r.node LIMIT 1) d ON TRUE
          LEFT JOIN datasets ds
            ON ds.id = (CASE WHEN r.node ~ '^dataset:[0-9a-f-]{36}$' THEN substr(r.node, 9)::uuid END)
          WHERE r.rank > $4 AND r.rank <= $4 + $5) AS nodes,
       (SELECT coalesce(json_agg(json_build_object('source', e.s, 'target', e.t, 'role', e.role)
                                 ORDER BY e.rank, e.s, e.t), '[]'::json)
          FROM page_edges e WHERE e.rank > $4 AND e.rank <= $4 + $5) AS edges`;

@Injectable()
export class LineageJobGraphRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(query: LineageJobGraphQuery): Promise<GraphRows> {
    // The root's id as its own parameter: a cast of part of $1 inside CASE may be folded at planning.
    const [type, id] = query.node.split(':') as [string, string];
    const rows: GraphRows[] = await this.dataSource.query(SQL, [
      query.node,
      DIRECTIONS[query.direction],
      query.depth,
      (query.page - 1) * query.size,
      query.size,
      type === 'job' ? id : null,
      type === 'dataset' ? id : null,
    ]);
    return rows[0];
  }
}
