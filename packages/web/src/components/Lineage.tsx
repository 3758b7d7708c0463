import type { DatasetLineageGraph } from '@aide/sdk';
import { type PointerEvent, type WheelEvent, useRef, useState } from 'react';
import { navigate } from '../router';
import { useSession } from '../session';
import { useAsync } from '../use-async';
import { Loaded } from './common';

const W = 180;
const H = 36;
const GAP_X = 80;
const GAP_Y = 16;

type Node = DatasetLineageGraph['nodes'][number];

/** Columns by signed distance (upstream left, the dataset in the middle, downstream right). */
export function layout(nodes: Node[], rootId: string): Map<string, { x: number; y: number }> {
  const column = (n: Node) =>
    n.id === rootId ? 0 : n.upstream_depth !== null ? -n.upstream_depth : (n.downstream_depth ?? 0);
  const byColumn = new Map<number, Node[]>();
  for (const n of nodes) byColumn.set(column(n), [...(byColumn.get(column(n)) ?? []), n]);
  const min = Math.min(0, ...byColumn.keys());
  const out = new Map<string, { x: number; y: number }>();
  for (const [col, list] of byColumn) {
    list.sort((a, b) => a.object_name.localeCompare(b.object_name));
    list.forEach((n, i) => out.set(n.id, { x: (col - min) * (W + GAP_X), y: i * (H + GAP_Y) }));
  }
  return out;
}

/** The lineage graph around a dataset: drag to pan, wheel or buttons to zoom, click a node to go there. */
export function Lineage({ datasetId }: { datasetId: string }) {
  const { client } = useSession();
  const [graph] = useAsync(() => client.lineage.datasets(datasetId, { depth: 3 }), [datasetId, client]);
  const [view, setView] = useState({ x: -20, y: -20, scale: 1 });
  const drag = useRef<{ x: number; y: number } | null>(null);
  const zoom = (factor: number) =>
    setView((v) => ({ ...v, scale: Math.min(4, Math.max(0.25, v.scale * factor)) }));
  return (
    <Loaded value={graph}>
      {(g) => {
        if (g.edges.length === 0) return <p>No lineage recorded for this dataset.</p>;
        const pos = layout(g.nodes, datasetId);
        const width = Math.max(...[...pos.values()].map((p) => p.x)) + W + 40;
        const height = Math.max(...[...pos.values()].map((p) => p.y)) + H + 40;
        return (
          <div className="lineage">
            <div className="toolbar">
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
              aria-label={`Lineage graph: ${g.nodes.length} datasets, ${g.edges.length} links`}
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
              {g.edges.map((e) => {
                const a = pos.get(e.source_id);
                const b = pos.get(e.target_id);
                if (!a || !b) return null;
                return (
                  <line key={e.id} x1={a.x + W} y1={a.y + H / 2} x2={b.x} y2={b.y + H / 2} className="edge" />
                );
              })}
              {g.nodes.map((n) => {
                const p = pos.get(n.id);
                if (!p) return null;
                return (
                  <g
                    key={n.id}
                    transform={`translate(${p.x},${p.y})`}
                    className={n.id === datasetId ? 'node root' : 'node'}
                    tabIndex={0}
                    role="link"
                    aria-label={`Dataset ${n.object_name}`}
                    onClick={() => navigate(`/datasets/${n.id}`)}
                    onKeyDown={(e) => e.key === 'Enter' && navigate(`/datasets/${n.id}`)}
                  >
                    <rect width={W} height={H} rx={6} />
                    <text x={8} y={H / 2 + 5}>
                      {n.object_name.length > 24 ? `${n.object_name.slice(0, 23)}…` : n.object_name}
                    </text>
                  </g>
                );
              })}
            </svg>
          </div>
        );
      }}
    </Loaded>
  );
}
