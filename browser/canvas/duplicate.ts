import { handleId, parseHandleId } from "@/common/nodes/handles";
import { edgeIdFor, nextNodeId } from "./ids";
import type { EditorEdge, EditorNode } from "./types";

/**
 * Copies the selected nodes (and the edges between them) beside the originals; the copies become
 * the selection. Returns the new node and edge lists.
 */
export function duplicateSelection(
  nodes: EditorNode[],
  edges: EditorEdge[],
): { nodes: EditorNode[]; edges: EditorEdge[] } {
  const selected = nodes.filter((n) => n.selected);
  if (selected.length === 0) return { nodes, edges };
  const taken = new Set(nodes.map((n) => n.id));
  const idMap = new Map<string, string>();
  for (const n of selected) {
    const id = nextNodeId(n.data.defName, taken);
    taken.add(id);
    idMap.set(n.id, id);
  }
  const copies: EditorNode[] = selected.map((n) => ({
    id: idMap.get(n.id)!,
    type: "flowNode",
    selected: true,
    position: { x: n.position.x + 40, y: n.position.y + 40 },
    data: { ...n.data, inputs: { ...n.data.inputs } },
  }));
  const remap = (h: string | null | undefined, nodeId: string) => {
    const p = parseHandleId(h ?? "");
    return p ? handleId(nodeId, p.name, p.direction) : "";
  };
  const edgeCopies: EditorEdge[] = edges
    .filter((e) => idMap.has(e.source) && idMap.has(e.target))
    .map((e) => {
      const sourceHandle = remap(e.sourceHandle, idMap.get(e.source)!);
      const targetHandle = remap(e.targetHandle, idMap.get(e.target)!);
      return {
        id: edgeIdFor(sourceHandle, targetHandle),
        source: idMap.get(e.source)!,
        target: idMap.get(e.target)!,
        sourceHandle,
        targetHandle,
      };
    });
  return {
    nodes: [...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...copies],
    edges: [...edges, ...edgeCopies],
  };
}
