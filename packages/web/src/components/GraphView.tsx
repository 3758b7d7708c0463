import {
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { BASE, navigate } from '../router';
import {
  FIT_CHARS,
  isCut,
  JOB_CHARS,
  layout,
  NODE_H,
  NODE_W,
  type ViewGraph,
  type ViewNode,
} from './graph-layout';

const PAD = 20;
const MIN_SCALE = 0.25;
const MAX_SCALE = 4;
/** The smallest scale the graph opens at: below it 13px labels are too small to read (a phone). */
const READABLE_SCALE = 0.85;
const MAX_HEIGHT = 480;
const PAN_STEP = 40;

interface View {
  x: number;
  y: number;
  k: number;
}

const clamp = (k: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));

/** What a node is, for its accessible name and tooltip. */
const KIND_NAME: Record<ViewNode['kind'], string> = {
  dataset: 'Dataset',
  field: 'Field',
  job: 'Job',
  unregistered: 'Unregistered dataset',
};

/**
 * The view that opens: the whole graph when it fits at a readable scale, else a readable scale with the
 * root in sight (a phone): the user pans to the rest.
 */
function initialView(
  size: { w: number; h: number },
  bounds: { w: number; h: number },
  root: { x: number; y: number } | undefined,
): View {
  const fit = Math.min(1, size.w / bounds.w, size.h / bounds.h);
  if (fit >= READABLE_SCALE) {
    // Centred.
    return { k: fit, x: -PAD - (size.w / fit - bounds.w) / 2, y: -PAD - (size.h / fit - bounds.h) / 2 };
  }
  const k = READABLE_SCALE;
  const x = root ? root.x + NODE_W / 2 - size.w / k / 2 : -PAD;
  const y = root && bounds.h > size.h / k ? root.y + NODE_H / 2 - size.h / k / 2 : -PAD;
  return { k, x: Math.max(-PAD, x), y: Math.max(-PAD, y) };
}

/**
 * A lineage graph as SVG: arrows show the flow; drag (or arrow keys) pans; the wheel, + and − or the
 * buttons zoom about the pointer or the centre; nodes are links in the tab order, named in full (their
 * box may show the name cut, the tooltip shows it whole); jobs and unregistered datasets look apart.
 */
export function GraphView({ graph, title }: { graph: ViewGraph; title: string }) {
  const pos = layout(graph);
  const bounds = {
    w: Math.max(...[...pos.values()].map((p) => p.x)) + NODE_W + 2 * PAD,
    h: Math.max(...[...pos.values()].map((p) => p.y)) + NODE_H + 2 * PAD,
  };
  const svgRef = useRef<SVGSVGElement>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [view, setView] = useState<View | null>(null);
  const drag = useRef<{ x: number; y: number; moved: boolean; id: number } | null>(null);
  const [hovered, setHovered] = useState<ViewNode | null>(null);
  const marker = `arrow-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const height = Math.min(MAX_HEIGHT, Math.max(200, bounds.h));

  // The viewBox follows the element's size in pixels, so a pixel maps to 1/k graph units both ways.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const measure = () => setSize({ w: svg.clientWidth || 600, h: svg.clientHeight || height });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(svg);
    return () => observer.disconnect();
  }, [height]);
  const rootPos = pos.get(graph.root);
  const reset = () => size && setView(initialView(size, bounds, rootPos));
  useEffect(() => {
    if (size && !view) reset();
  });

  const zoomAt = (factor: number, px: number, py: number) =>
    setView((v) => {
      if (!v) return v;
      const k = clamp(v.k * factor);
      return { k, x: v.x + px / v.k - px / k, y: v.y + py / v.k - py / k };
    });
  const zoomCentre = (factor: number) => size && zoomAt(factor, size.w / 2, size.h / 2);
  const pan = (dx: number, dy: number) => setView((v) => v && { ...v, x: v.x - dx / v.k, y: v.y - dy / v.k });

  // The wheel zooms the graph, not the page: React's wheel listener is passive and cannot cancel it.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = svg.getBoundingClientRect();
      zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      '+': () => zoomCentre(1.25),
      '=': () => zoomCentre(1.25),
      '-': () => zoomCentre(0.8),
      '0': reset,
      ArrowLeft: () => pan(PAN_STEP, 0),
      ArrowRight: () => pan(-PAN_STEP, 0),
      ArrowUp: () => pan(0, PAN_STEP),
      ArrowDown: () => pan(0, -PAN_STEP),
    };
    const act = keys[e.key];
    if (act && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      act();
    }
  };

  /** A node reached with Tab comes into view. */
  const reveal = (n: ViewNode) => {
    const p = pos.get(n.key);
    if (!p || !size) return;
    setView((v) => {
      if (!v) return v;
      const w = size.w / v.k;
      const h = size.h / v.k;
      const inside = p.x >= v.x && p.x + NODE_W <= v.x + w && p.y >= v.y && p.y + NODE_H <= v.y + h;
      return inside ? v : { ...v, x: p.x + NODE_W / 2 - w / 2, y: p.y + NODE_H / 2 - h / 2 };
    });
  };

  const open = (e: MouseEvent, n: ViewNode) => {
    if (!n.href || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (drag.current?.moved) return;
    navigate(n.href);
  };

  return (
    <div className="lineage">
      <div className="toolbar" role="group" aria-label={`${title}: view`}>
        <button type="button" onClick={() => zoomCentre(1.25)}>
          Zoom in
        </button>
        <button type="button" onClick={() => zoomCentre(0.8)}>
          Zoom out
        </button>
        <button type="button" onClick={reset}>
          Reset
        </button>
        <span className="muted small">Drag or arrow keys to move, wheel or + − to zoom.</span>
      </div>
      <svg
        ref={svgRef}
        role="group"
        aria-label={title}
        style={{ height }}
        preserveAspectRatio="xMinYMin meet"
        viewBox={
          view && size
            ? `${view.x} ${view.y} ${size.w / view.k} ${size.h / view.k}`
            : `${-PAD} ${-PAD} ${bounds.w} ${height}`
        }
        onKeyDown={onKeyDown}
        onPointerDown={(e: PointerEvent) => {
          if (e.button === 0) drag.current = { x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
        }}
        onPointerMove={(e: PointerEvent<SVGSVGElement>) => {
          const d = drag.current;
          if (!d) return;
          const dx = e.clientX - d.x;
          const dy = e.clientY - d.y;
          // A click that moved less than a few pixels stays a click on the node under it.
          if (!d.moved && Math.hypot(dx, dy) < 4) return;
          if (!d.moved) e.currentTarget.setPointerCapture(d.id);
          drag.current = { ...d, x: e.clientX, y: e.clientY, moved: true };
          pan(dx, dy);
        }}
        onPointerUp={() => {
          // Cleared after the click that follows a drag has seen `moved`.
          setTimeout(() => (drag.current = null));
        }}
        onPointerCancel={() => (drag.current = null)}
      >
        <defs>
          <marker
            id={marker}
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerWidth="8"
            markerHeight="8"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" className="arrowhead" />
          </marker>
          {(['box', 'job'] as const).map((k) => (
            <clipPath key={k} id={`${marker}-${k}`}>
              <rect
                x={k === 'job' ? 26 : 8}
                y={0}
                width={NODE_W - (k === 'job' ? 26 : 8) - 24}
                height={NODE_H}
              />
            </clipPath>
          ))}
        </defs>
        {graph.edges.map((e) => {
          const a = pos.get(e.source);
          const b = pos.get(e.target);
          if (!a || !b) return null;
          const x1 = a.x + NODE_W;
          const y1 = a.y + NODE_H / 2;
          const x2 = b.x;
          const y2 = b.y + NODE_H / 2;
          const bend = Math.max(30, Math.abs(x2 - x1) / 2);
          return (
            <path
              key={e.key}
              className="edge"
              d={`M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`}
              markerEnd={`url(#${marker})`}
            />
          );
        })}
        {graph.nodes.map((n) => {
          const p = pos.get(n.key);
          if (!p) return null;
          const name = `${KIND_NAME[n.kind]} ${n.label}`;
          const textX = n.kind === 'job' ? 26 : 8;
          const clip = `${marker}-${n.kind === 'job' ? 'job' : 'box'}`;
          const box = (
            <>
              <title>{name}</title>
              <rect width={NODE_W} height={NODE_H} rx={n.kind === 'job' ? NODE_H / 2 : 4} />
              {/* A job: a pill with a "runs" triangle (a shape, not only a colour, sets it apart). */}
              {n.kind === 'job' && <path d={`M12,${NODE_H / 2 - 6} l9,6 l-9,6 z`} className="job-mark" />}
              {/* The whole name, clipped to the box: what shows is the start of the accessible name
                  (WCAG 2.5.3). Dots, not text, say that it goes on. */}
              <text x={textX} y={NODE_H / 2 + 5} clipPath={`url(#${clip})`}>
                {n.label}
              </text>
              {isCut(n.label, n.kind === 'job' ? JOB_CHARS : FIT_CHARS) && (
                <g className="more">
                  {[0, 5, 10].map((dx) => (
                    <circle key={dx} cx={NODE_W - 16 + dx} cy={NODE_H / 2 + 2} r={1.5} />
                  ))}
                </g>
              )}
            </>
          );
          const className = `node ${n.kind}${n.key === graph.root ? ' root' : ''}`;
          const common = {
            transform: `translate(${p.x},${p.y})`,
            className,
            onMouseEnter: () => setHovered(n),
            onMouseLeave: () => setHovered(null),
          };
          return n.href ? (
            <a
              key={n.key}
              {...common}
              href={`${BASE}${n.href}`}
              aria-label={name}
              onClick={(e) => open(e, n)}
              onFocus={() => {
                setHovered(n);
                reveal(n);
              }}
              onBlur={() => setHovered(null)}
            >
              {box}
            </a>
          ) : (
            <g key={n.key} {...common} role="img" aria-label={name}>
              {box}
            </g>
          );
        })}
      </svg>
      <p className="small graph-status" aria-hidden="true">
        {hovered ? `${KIND_NAME[hovered.kind]} ${hovered.label}` : ' '}
      </p>
    </div>
  );
}
