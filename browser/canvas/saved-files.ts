import type { EditorNode } from "./types";

/** How many nodes connected into this one hold a saved file (loaders with a file in the graph). */
export function savedFilesInto(
  s: { nodes: EditorNode[]; edges: { source: string; target: string }[] },
  nodeId: string,
) {
  const sources = new Set(s.edges.filter((e) => e.target === nodeId).map((e) => e.source));
  return s.nodes.filter((n) => sources.has(n.id) && typeof n.data.inputs.file === "string" && n.data.inputs.file !== "")
    .length;
}
