import { type PointerEvent, type WheelEvent, useRef, useState } from 'react';
import { navigate } from '../router';
import { useSession } from '../session';
import { useAsync } from '../use-async';
import { Loaded } from './common';

const W = 180;
const H = 36;
const GAP_X = 80;
const GAP_Y = 16;

/** What the layout needs of a node of either graph (datasets or fields). */
export interface GraphNode {
  id: string;
  upstream_depth: number | null;
  downstream_depth: number | null;
}

interface GraphEdge {
  id: string;
  source_id: string;
  target_id: string;
}

/** Columns by signed distance (upstream left, the root in the middle, downstream right). */
export function layout<N extends GraphNode>(
  nodes: readonly N[],
  rootId: string,
  label: (n: N) => string = (n) => (n as unknown as { object_name: string }).object_name,
): Map<string, { x: number; y: number }> {
  const column = (n: N) =>
    n.id === rootId ? 0 : n.upstream_depth !== null ? -n.upstream_depth : (n.downstream_depth ?? 0);
  const byColumn = new Map<number, N[]>();
  for (const n of nodes) byColumn.set(column(n), [...(byColumn.get(column(n)) ?? []), n]);
  const min = Math.min(0, ...byColumn.keys());
  const out = new Map<string, { x: number; y: number }>();
  for (const [col, list] of byColumn) {
    list.sort((a, b) => label(a).localeCompare(label(b)));
    list.forEach((n, i) => out.set(n.id, { x: (col - min) * (W + GAP_X), y: i * (H + GAP_Y) }));
  }
  return out;
}

/**
 * A lineage graph as SVG: drag to pan, wheel or buttons to zoom, click (or Enter on) a node to open
 * it. Nodes are links in the tab order, named by `describe`.
 */
export function Graph<N extends GraphNode>(props: {
  nodes: readonly N[];
  edges: readonly GraphEdge[];
  rootId: string;
  label: (n: N) => string;
  describe: (n: N) => string;
  onOpen: (n: N) => void;
  title: string;
}) {
  const { nodes, edges, rootId, label } = props;
  const [view, setView] = useState({ x: -20, y: -20, scale: 1 });
  const drag = useRef<{ x: number; y: number } | null>(null);
  const zoom = (factor: number) =>
    setView((v) => ({ ...v, scale: Math.min(4, Math.max(0.25, v.scale * factor)) }));
  const pos = layout(nodes, rootId, label);
  const width = Math.max(...[...pos.values()].map((p) => p.x)) + W + 40;
  const height = Math.max(...[...pos.values()].map((p) => p.y)) + H + 40;
  return (
    <div className="lineage">
      <div className="toolbar" role="group" aria-label={`${props.title}: view`}>
        <button type="button" onClick={() => zoom(1.25)}>
          Zoom in
        </button>
        <button type="button" onClick={() => zoom(0.8)}>
          Zoom out
        </button>
        <button type="button" onClick={() => setView({ x: -20, y: -20, scale: 1 })}>
          Reset
        </button>
      </div>
      <svg
        role="group"
        aria-label={props.title}
        viewBox={`${view.x} ${view.y} ${width / view.scale} ${Math.max(200, height) / view.scale}`}
        style={{ height: Math.min(480, Math.max(200, height)) }}
        onWheel={(e: WheelEvent) => zoom(e.deltaY < 0 ? 1.1 : 0.9)}
        onPointerDown={(e: PointerEvent) => (drag.current = { x: e.clientX, y: e.clientY })}
        onPointerUp={() => (drag.current = null)}
        onPointerLeave={() => (drag.current = null)}
        onPointerMove={(e: PointerEvent) => {
          const start = drag.current;
          if (!start) return;
          drag.current = { x: e.clientX, y: e.clientY };
          setView((v) => ({
            ...v,
            x: v.x - (e.clientX - start.x) / v.scale,
            y: v.y - (e.clientY - start.y) / v.scale,
          }));
        }}
      >
        {edges.map((e) => {
          const a = pos.get(e.source_id);
          const b = pos.get(e.target_id);
          if (!a || !b) return null;
          return <line key={e.id} x1={a.x + W} y1={a.y + H / 2} x2={b.x} y2={b.y + H / 2} className="edge" />;
        })}
        {nodes.map((n) => {
          const p = pos.get(n.id);
          if (!p) return null;
          const text = label(n);
          return (
            <g
              key={n.id}
              transform={`translate(${p.x},${p.y})`}
              className={n.id === rootId ? 'node root' : 'node'}
              tabIndex={0}
              role="link"
              aria-label={props.describe(n)}
              onClick={() => props.onOpen(n)}
              onKeyDown={(e) => e.key === 'Enter' && props.onOpen(n)}
            >
              <rect width={W} height={H} rx={6} />
              <text x={8} y={H / 2 + 5}>
                {text.length > 24 ? `${text.slice(0, 23)}…` : text}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** The lineage graph around a dataset; its nodes lead to their datasets. */
export function Lineage({ datasetId }: { datasetId: string }) {
  const { client } = useSession();
  const [graph] = useAsync(() => client.lineage.datasets(datasetId, { depth: 3 }), [datasetId, client]);
  return (
    <Loaded value={graph}>
      {(g) =>
        g.edges.length === 0 ? (
          <p>No lineage recorded for this dataset.</p>
        ) : (
          <Graph
            nodes={g.nodes}
            edges={g.edges}
            rootId={datasetId}
            label={(n) => n.object_name}
            describe={(n) => `Dataset ${n.object_name}`}
            onOpen={(n) => navigate(`/datasets/${n.id}`)}
            title={`Lineage graph: ${g.nodes.length} datasets, ${g.edges.length} links`}
          />
        )
      }
    </Loaded>
  );
}

/**
 * Column lineage of one field, fetched when asked for: nodes are `dataset.column`; opening one goes to
 * its dataset with that field's lineage shown.
 */
export function FieldLineage({ fieldId, fieldName }: { fieldId: string; fieldName: string }) {
  const { client } = useSession();
  const [graph] = useAsync(async () => {
    const g = await client.lineage.fields(fieldId, { depth: 3 });
    const datasetIds = [...new Set(g.nodes.map((n) => n.dataset_id))].slice(0, 100);
    const names = new Map(
      await Promise.all(
        datasetIds.map(async (id) => {
          const d = await client.datasets.get(id).catch(() => null);
          return [id, d?.object_name ?? id.slice(0, 8)] as const;
        }),
      ),
    );
    return { g, names };
  }, [fieldId, client]);
  return (
    <Loaded value={graph}>
      {({ g, names }) =>
        g.edges.length === 0 ? (
          <p>No column lineage recorded for {fieldName}.</p>
        ) : (
          <Graph
            nodes={g.nodes}
            edges={g.edges}
            rootId={fieldId}
            label={(n) => `${names.get(n.dataset_id) ?? '?'}.${n.name}`}
            describe={(n) => `Field ${names.get(n.dataset_id) ?? '?'}.${n.name}`}
            onOpen={(n) => navigate(`/datasets/${n.dataset_id}?field=${n.id}`)}
            title={`Field lineage of ${fieldName}: ${g.nodes.length} fields, ${g.edges.length} links`}
          />
        )
      }
    </Loaded>
  );
}
