import type { GraphNode } from "@/common/schemas/graph";
import { getNode } from "./registry";
import type { NodeDefinition } from "@/common/nodes/types";

/**
 * Brings a node saved with an older version of its definition up to the current one through the
 * node's `migrate` hook (identity unless the node declares one). Returns the migrated node
 * (stamped with the current version), or why it cannot be migrated.
 */
export function migrateSavedNode(node: GraphNode, def: NodeDefinition): GraphNode | string {
  const saved = node.version ?? 1;
  const mod = getNode(def.name);
  if (!mod) return `the node type "${def.name}" has no runtime on this server.`;
  const inputs = mod.migrate({ ...node.data.inputs }, saved);
  if (!inputs) return `its settings from version ${saved} can no longer be read; place the node again.`;
  return { ...node, version: def.version, data: { ...node.data, inputs } };
}
