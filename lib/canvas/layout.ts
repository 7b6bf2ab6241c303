import dagre from "@dagrejs/dagre";
import type { EditorEdge, EditorNode } from "./types";

const DEFAULT_SIZE = { width: 280, height: 220 };

/**
 * Left-to-right layered layout (dagre): inputs on the left, the ending node on the right. Uses the
 * measured node sizes so tall nodes do not overlap. Returns new nodes; edges are unchanged.
 */
export function autoLayout(nodes: EditorNode[], edges: EditorEdge[]): EditorNode[] {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "LR", nodesep: 40, ranksep: 90, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) {
    g.setNode(n.id, {
      width: n.measured?.width ?? DEFAULT_SIZE.width,
      height: n.measured?.height ?? DEFAULT_SIZE.height,
    });
  }
  for (const e of edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
  dagre.layout(g);
  return nodes.map((n) => {
    const p = g.node(n.id);
    const w = n.measured?.width ?? DEFAULT_SIZE.width;
    const h = n.measured?.height ?? DEFAULT_SIZE.height;
    return { ...n, position: { x: Math.round(p.x - w / 2), y: Math.round(p.y - h / 2) } };
  });
}
