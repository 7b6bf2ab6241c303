import { validateGraph, type GraphProblem } from "@/lib/flow/validate";
import type { DefinitionLookup } from "@/lib/nodes/catalog";
import type { Graph } from "@/lib/schemas/graph";

/** A problem shown on a node: the input it concerns (if any) and a message without the node name. */
export interface NodeProblem {
  input?: string;
  message: string;
}

export interface Problems {
  byNode: Map<string, NodeProblem[]>;
  /** Problems of the whole flow (e.g. "the flow is empty"). */
  flow: string[];
  count: number;
}

export const NO_PROBLEMS: Problems = { byNode: new Map(), flow: [], count: 0 };

/** Runs the server's graph validation in the browser (on the definitions it sent) and returns every problem it lists. */
export function graphProblems(graph: Graph, definitions: DefinitionLookup): GraphProblem[] {
  try {
    validateGraph(graph, definitions);
    return [];
  } catch (err) {
    const details = (err as { details?: unknown }).details;
    return Array.isArray(details) ? (details as GraphProblem[]) : [{ message: err instanceof Error ? err.message : String(err) }];
  }
}

/** `Node "Chain Tool" (chainTool_0): input "Tool name" is required.` → `input "Tool name" is required.` */
export function withoutNodeName(message: string): string {
  const m = /^Node "[^"]*" \([^)]*\)(?::\s*|\s+)(.+)$/.exec(message);
  if (!m) return message;
  return m[1].charAt(0).toUpperCase() + m[1].slice(1);
}

/** `Input "Tool name" is required.` shown under that field → `Required.` */
export function withoutInputName(message: string): string {
  const rest = /^Input "[^"]*"\s+(.+)$/.exec(message)?.[1];
  if (!rest) return message;
  if (rest === "is required.") return "Required.";
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** Groups problems by node, the ones without a node kept apart. */
export function groupProblems(problems: GraphProblem[]): Problems {
  const byNode = new Map<string, NodeProblem[]>();
  const flow: string[] = [];
  for (const p of problems) {
    if (!p.nodeId) {
      flow.push(p.message);
      continue;
    }
    const list = byNode.get(p.nodeId) ?? [];
    if (!list.some((x) => x.message === p.message)) list.push({ input: p.input, message: withoutNodeName(p.message) });
    byNode.set(p.nodeId, list);
  }
  return { byNode, flow, count: problems.length };
}

/** Problems of a node as one comparable string (to skip re-rendering a node whose problems did not change). */
export function problemsKey(list: NodeProblem[] | undefined): string {
  return list ? list.map((p) => `${p.input ?? ""}\u0000${p.message}`).join("\u0001") : "";
}
