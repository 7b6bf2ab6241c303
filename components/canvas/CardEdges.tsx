"use client";

import { EdgeLabelRenderer, getBezierPath, Position, useStore, type ReactFlowState } from "@xyflow/react";
import { useMemo } from "react";
import type { EditorEdge } from "@/browser/canvas/types";

const selectNodes = (s: ReactFlowState) => s.nodes;
const selectLookup = (s: ReactFlowState) => s.nodeLookup;

/** One SVG path (`M … C …` per edge) through the measured handle positions of the edges' nodes. */
function pathOf(edges: EditorEdge[], lookup: ReactFlowState["nodeLookup"]) {
  const parts: string[] = [];
  for (const e of edges) {
    const s = lookup.get(e.source);
    const t = lookup.get(e.target);
    const sh = s?.internals.handleBounds?.source?.find((h) => h.id === e.sourceHandle);
    const th = t?.internals.handleBounds?.target?.find((h) => h.id === e.targetHandle);
    if (!s || !t || !sh || !th) continue;
    const [path] = getBezierPath({
      sourceX: s.internals.positionAbsolute.x + sh.x + sh.width,
      sourceY: s.internals.positionAbsolute.y + sh.y + sh.height / 2,
      sourcePosition: Position.Right,
      targetX: t.internals.positionAbsolute.x + th.x,
      targetY: t.internals.positionAbsolute.y + th.y + th.height / 2,
      targetPosition: Position.Left,
    });
    parts.push(path);
  }
  return parts.join(" ");
}

/**
 * The edges of a large flow drawn as cards (below zoom 0.5): SVG paths under the nodes instead of
 * React Flow's edges (an SVG element, three store subscriptions and a pointer path each). At that
 * zoom an edge is a fraction of a pixel wide: a line to see, not to click. A pan or zoom moves them
 * with the viewport, without a render.
 *
 * While nodes are dragged, the edges touching them are a second, small path redrawn on every frame;
 * the path of all the others keeps its exact `d`, so the browser repaints only what moved. (One path
 * for all, changed on every drag frame, spanned the whole flow: each frame re-rasterised the whole
 * screen, about as much work as the rest of the frame.)
 */
export function CardEdges({ edges }: { edges: EditorEdge[] }) {
  const nodes = useStore(selectNodes);
  const lookup = useStore(selectLookup);
  const moving = useMemo(() => new Set(nodes.flatMap((n) => (n.dragging ? [n.id] : []))), [nodes]);
  const movingKey = [...moving].join(" ");
  // What the still path depends on: every node while none is dragged (any move, layout or resize
  // redraws it); during a drag only which nodes are dragged, so it stays the same until the drop.
  const stillSignal = movingKey || nodes;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stillSignal` is the change signal (the lookup is updated in place).
  const still = useMemo(
    () => pathOf(moving.size ? edges.filter((e) => !moving.has(e.source) && !moving.has(e.target)) : edges, lookup),
    [edges, lookup, stillSignal],
  );
  const dragged = moving.size
    ? pathOf(
        edges.filter((e) => moving.has(e.source) || moving.has(e.target)),
        lookup,
      )
    : "";
  return (
    <EdgeLabelRenderer>
      <svg
        aria-hidden
        data-testid="card-edges"
        className="pointer-events-none absolute top-0 left-0 overflow-visible"
        width={1}
        height={1}
      >
        {still && <path d={still} fill="none" stroke="#64748b" strokeWidth={2} />}
        {dragged && <path d={dragged} fill="none" stroke="#64748b" strokeWidth={2} data-dragged="" />}
      </svg>
    </EdgeLabelRenderer>
  );
}
