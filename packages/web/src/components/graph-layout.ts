import type { DatasetLineageGraph, FieldLineageGraph, LineageJobGraph } from '@aide/sdk';

/** A node as the graph view draws it, whatever graph it comes from. */
export interface ViewNode {
  key: string;
  /** `dataset` and `field` nodes look alike; a job and a dataset nobody registered look different. */
  kind: 'dataset' | 'field' | 'job' | 'unregistered';
  /** The whole name: the tooltip and the accessible name carry it, the box may show it cut. */
  label: string;
  /** Signed distance from the root: upstream negative, downstream positive. */
  column: number;
  /** The page it leads to (under /ui), or none. */
  href: string | null;
}

export interface ViewEdge {
  key: string;
  source: string;
  target: string;
}

export interface ViewGraph {
  root: string;
  nodes: ViewNode[];
  edges: ViewEdge[];
}

export const NODE_W = 180;
export const NODE_H = 36;
export const GAP_X = 70;
export const GAP_Y = 16;
/** Characters a node's box shows at 13px (a job's box has its mark too): longer labels are cut. */
export const FIT_CHARS = 21;
export const JOB_CHARS = 18;

/** The signed distance of a node from the depths the API gives (a node both ways counts upstream). */
export const signedDepth = (n: { upstream_depth: number | null; downstream_depth: number | null }) =>
  n.upstream_depth !== null ? -n.upstream_depth : (n.downstream_depth ?? 0);

/**
 * Whether a label is longer than its box: the box clips it (the node's accessible name and tooltip
 * carry it whole) and marks the cut.
 */
export const isCut = (label: string, max = FIT_CHARS) => label.length > max;

const datasetKey = (id: string) => `dataset:${id}`;

/**
 * The dataset graph and the OpenLineage job graph around one dataset, as one graph: datasets from
 * both, jobs between the datasets they read and write (dataset → job → dataset), and the dataset links
 * no job explains. A dataset link hop spans two columns so a job sits between its two datasets.
 */
export function mergeLineage(
  rootId: string,
  datasets: Pick<DatasetLineageGraph, 'nodes' | 'edges'>,
  jobs: Pick<LineageJobGraph, 'nodes' | 'edges'> | null,
): ViewGraph {
  const nodes = new Map<string, ViewNode>();
  for (const n of datasets.nodes)
    nodes.set(datasetKey(n.id), {
      key: datasetKey(n.id),
      kind: 'dataset',
      label: n.object_name,
      column: 2 * signedDepth(n),
      href: `/datasets/${n.id}`,
    });
  for (const n of jobs?.nodes ?? []) {
    if (nodes.has(n.key)) continue;
    const name =
      n.type === 'dataset' ? (n.object_name ?? `${n.namespace}/${n.name}`) : `${n.namespace}/${n.name}`;
    nodes.set(n.key, {
      key: n.key,
      kind: n.type === 'job' ? 'job' : n.id ? 'dataset' : 'unregistered',
      label: name,
      column: signedDepth(n),
      href: n.type === 'job' ? `/jobs/${n.id}` : n.id ? `/datasets/${n.id}` : null,
    });
  }
  const edges: ViewEdge[] = [];
  const viaJob = new Set<string>();
  const jobEdges = jobs?.edges ?? [];
  const outputsOf = new Map<string, string[]>();
  for (const e of jobEdges) {
    if (!nodes.has(e.source) || !nodes.has(e.target)) continue;
    edges.push({ key: `${e.source}>${e.target}`, source: e.source, target: e.target });
    if (e.role === 'output') outputsOf.set(e.source, [...(outputsOf.get(e.source) ?? []), e.target]);
  }
  for (const e of jobEdges)
    if (e.role === 'input') for (const out of outputsOf.get(e.target) ?? []) viaJob.add(`${e.source}>${out}`);
  for (const e of datasets.edges) {
    const pair = `${datasetKey(e.source_id)}>${datasetKey(e.target_id)}`;
    if (!viaJob.has(pair))
      edges.push({ key: e.id, source: datasetKey(e.source_id), target: datasetKey(e.target_id) });
  }
  return { root: datasetKey(rootId), nodes: [...nodes.values()], edges };
}

/** The column graph of a field: `dataset.column` nodes, each leading to its dataset with that field. */
export function fieldView(
  rootId: string,
  graph: Pick<FieldLineageGraph, 'nodes' | 'edges'>,
  datasetName: (id: string) => string,
): ViewGraph {
  return {
    root: rootId,
    nodes: graph.nodes.map((n) => ({
      key: n.id,
      kind: 'field',
      label: `${datasetName(n.dataset_id)}.${n.name}`,
      column: signedDepth(n),
      href: `/datasets/${n.dataset_id}?field=${n.id}`,
    })),
    edges: graph.edges.map((e) => ({ key: e.id, source: e.source_id, target: e.target_id })),
  };
}

/**
 * Positions by column (the columns in use, packed left to right, upstream left of the root), and
 * within a column by the mean row of each node's neighbours in the columns nearer the root (fewer
 * crossings), then by name.
 */
export function layout(graph: ViewGraph): Map<string, { x: number; y: number }> {
  const columns = [...new Set(graph.nodes.map((n) => n.column))].sort((a, b) => a - b);
  const index = new Map(columns.map((c, i) => [c, i]));
  const byColumn = new Map<number, ViewNode[]>();
  for (const n of graph.nodes) byColumn.set(n.column, [...(byColumn.get(n.column) ?? []), n]);
  const neighbours = new Map<string, string[]>();
  for (const e of graph.edges) {
    neighbours.set(e.source, [...(neighbours.get(e.source) ?? []), e.target]);
    neighbours.set(e.target, [...(neighbours.get(e.target) ?? []), e.source]);
  }
  const row = new Map<string, number>();
  // From the root outwards: each side's columns by distance, so a column's inner neighbour rows are set.
  const order = [...columns].sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
  for (const col of order) {
    const list = byColumn.get(col) ?? [];
    const weight = (n: ViewNode) => {
      const rows = (neighbours.get(n.key) ?? []).flatMap((k) => (row.has(k) ? [row.get(k) ?? 0] : []));
      return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : Infinity;
    };
    const weights = new Map(list.map((n) => [n.key, weight(n)]));
    list.sort(
      (a, b) => (weights.get(a.key) ?? 0) - (weights.get(b.key) ?? 0) || a.label.localeCompare(b.label) || 0,
    );
    list.forEach((n, i) => row.set(n.key, i));
  }
  const out = new Map<string, { x: number; y: number }>();
  for (const n of graph.nodes)
    out.set(n.key, {
      x: (index.get(n.column) ?? 0) * (NODE_W + GAP_X),
      y: (row.get(n.key) ?? 0) * (NODE_H + GAP_Y),
    });
  return out;
}
