import type { Graph, GraphNote } from "@/common/schemas/graph";
import type { EditorEdge, EditorNode } from "./types";

/**
 * Parents before their children, as React Flow wants them (a node inside an agentflow's Iteration
 * names it as `parentNode`); otherwise the saved order.
 */
function parentsFirst(nodes: Graph["nodes"]): Graph["nodes"] {
  const ids = new Set(nodes.map((n) => n.id));
  const top = nodes.filter((n) => !n.parentNode || !ids.has(n.parentNode));
  const placed = new Set(top.map((n) => n.id));
  const out = [...top];
  for (let grew = true; grew; ) {
    grew = false;
    for (const n of nodes) {
      if (placed.has(n.id) || !placed.has(n.parentNode!)) continue;
      placed.add(n.id);
      out.push(n);
      grew = true;
    }
  }
  // A cycle of parents cannot be drawn nested: such nodes stay at the top level.
  return [...out, ...nodes.filter((n) => !placed.has(n.id)).map(({ parentNode: _cycle, ...n }) => n)];
}

/** Saved graph → canvas nodes and edges (a child's position is relative to its parent, as React Flow's). */
export function graphToEditor(graph: Graph): { nodes: EditorNode[]; edges: EditorEdge[]; notes: GraphNote[] } {
  return {
    notes: graph.notes ?? [],
    nodes: parentsFirst(graph.nodes).map((n) => ({
      id: n.id,
      type: "flowNode",
      position: { x: n.position.x, y: n.position.y },
      ...(n.parentNode ? { parentId: n.parentNode, extent: "parent" as const } : {}),
      data: {
        defName: n.type,
        inputs: { ...n.data.inputs },
        ...(n.data.label ? { label: n.data.label } : {}),
        ...(n.version ? { version: n.version } : {}),
      },
    })),
    edges: graph.edges.map((e) => ({
      id: e.id,
      source: e.source,
      sourceHandle: e.sourceHandle,
      target: e.target,
      targetHandle: e.targetHandle,
    })),
  };
}

/** Drops param values that mean "not set", so the saved JSON stays small and stable. */
function cleanInputs(inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(inputs)) if (v !== undefined && v !== "") out[k] = v;
  return out;
}

/** Canvas nodes and edges → the saved graph (no selection, sizes or other view state). */
export function editorToGraph(
  nodes: EditorNode[],
  edges: EditorEdge[],
  viewport?: Graph["viewport"],
  notes: GraphNote[] = [],
): Graph {
  return {
    nodes: nodes.map((n) => ({
      id: n.id,
      type: n.data.defName,
      ...(n.data.version ? { version: n.data.version } : {}),
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
      ...(n.parentId ? { parentNode: n.parentId } : {}),
      data: { inputs: cleanInputs(n.data.inputs), ...(n.data.label ? { label: n.data.label } : {}) },
    })),
    edges: edges.map((e) => ({
      id: e.id,
      source: e.source,
      sourceHandle: e.sourceHandle ?? "",
      target: e.target,
      targetHandle: e.targetHandle ?? "",
    })),
    ...(notes.length ? { notes } : {}),
    ...(viewport ? { viewport } : {}),
  };
}
