import { migrateSavedNode } from "../nodes/migrate";
import { getDefinition } from "../nodes/registry";
import type { Graph } from "@/common/schemas/graph";
import { validateGraph as validateWith } from "@/common/flow/validate";

/**
 * The server's graph validation: ./validate.ts against the node registry, migrating nodes saved
 * with an older definition version (and refusing newer ones). Returns the graph to build.
 */
export function validateGraph(graph: unknown): Graph {
  return validateWith(graph, getDefinition, migrateSavedNode);
}
