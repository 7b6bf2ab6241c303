import type { Edge, Node } from "@xyflow/react";

/**
 * A node placed on the canvas. Its definition (from the registry) is looked up by `defName`; the
 * node itself only holds what the builder chose: param values and an optional label, and the
 * definition version it was placed with (absent on nodes saved before versions: 1).
 */
export type FlowNodeData = { defName: string; label?: string; inputs: Record<string, unknown>; version?: number };
export type EditorNode = Node<FlowNodeData, "flowNode">;
export type EditorEdge = Edge;

/** A connection being made, as React Flow reports it. */
export interface ConnectionLike {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}
