"use client";

import { EdgeLabelRenderer, getBezierPath, Position, useStore, type ReactFlowState } from "@xyflow/react";
import { useMemo } from "react";
import type { EditorEdge } from "@/lib/canvas/types";

const selectNodes = (s: ReactFlowState) => s.nodes;
const selectLookup = (s: ReactFlowState) => s.nodeLookup;

/**
 * The edges of a large flow drawn as cards (below zoom 0.5): one SVG path for all of them, under the
 * nodes, instead of React Flow's edges (an SVG element, three store subscriptions and a pointer path
 * each). At that zoom an edge is a fraction of a pixel wide: a line to see, not to click. It follows
 * the nodes' measured handle positions (the cards' `source`/`target` elements) and redraws when a
 * node moves; a pan or zoom moves it with the viewport, without a render.
 */
export function CardEdges({ edges }: { edges: EditorEdge[] }) {
  const nodes = useStore(selectNodes);
  const lookup = useStore(selectLookup);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `nodes` is the change signal (the lookup is updated in place).
  const d = useMemo(() => {
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
  }, [edges, lookup, nodes]);
  return (
    <EdgeLabelRenderer>
      <svg
        aria-hidden
        data-testid="card-edges"
        className="pointer-events-none absolute top-0 left-0 overflow-visible"
        width={1}
        height={1}
      >
        {d && <path d={d} fill="none" stroke="#64748b" strokeWidth={2} />}
      </svg>
    </EdgeLabelRenderer>
  );
}
