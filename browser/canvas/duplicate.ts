import { handleId, parseHandleId } from "@/common/nodes/handles";
import { edgeIdFor, nextNodeId } from "./ids";
import type { EditorEdge, EditorNode, FlowNodeData } from "./types";

/** What a copy needs of a node: its id (to reconnect its edges), place and data. */
export type NodeSource = { id: string; position: { x: number; y: number }; data: FlowNodeData };
/** What a copy needs of an edge between copied nodes. */
export type EdgeSource = Pick<EditorEdge, "source" | "target" | "sourceHandle" | "targetHandle">;

/**
 * Copies of `sources` with fresh ids (unique among `taken`), moved by `shift`, selected, each with
 * its own copy of its inputs; and copies of the `edges` between them, reconnected to the copies.
 */
export function cloneNodes(
  sources: NodeSource[],
  edges: EdgeSource[],
  taken: Iterable<string>,
  shift: { x: number; y: number },
): { nodes: EditorNode[]; edges: EditorEdge[] } {
  const ids = new Set(taken);
  const idMap = new Map<string, string>();
  for (const n of sources) {
    const id = nextNodeId(n.data.defName, ids);
    ids.add(id);
    idMap.set(n.id, id);
  }
  const nodes: EditorNode[] = sources.map((n) => ({
    id: idMap.get(n.id)!,
    type: "flowNode",
    selected: true,
    position: { x: n.position.x + shift.x, y: n.position.y + shift.y },
    data: { ...n.data, inputs: structuredClone(n.data.inputs) },
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
    })
    .filter((e) => e.sourceHandle && e.targetHandle);
  return { nodes, edges: edgeCopies };
}
