import type { Graph, GraphNote } from "@/common/schemas/graph";
import type { EditorEdge, EditorNode } from "./types";

/** Saved graph → canvas nodes and edges. */
export function graphToEditor(graph: Graph): { nodes: EditorNode[]; edges: EditorEdge[]; notes: GraphNote[] } {
  return {
    notes: graph.notes ?? [],
    nodes: graph.nodes.map((n) => ({
      id: n.id,
      type: "flowNode",
      position: { x: n.position.x, y: n.position.y },
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
