import { validateGraph } from "@/lib/flow/validate";
import type { DefinitionLookup } from "@/lib/nodes/catalog";
import type { Graph } from "@/lib/schemas/graph";
import { renderProblem } from "@/lib/schemas/problem-text";
import type { GraphProblem } from "@/lib/schemas/problems";

/** A problem shown on a node: the input it concerns (if any) and its sentences for node and field. */
export interface NodeProblem {
  input?: string;
  /** Shown on the node: without the node's name. */
  message: string;
  /** Shown under the input it concerns: without the node's or the input's name. */
  fieldMessage: string;
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
    // validateGraph lists coded problems (each with its sentence too, which the canvas re-renders).
    if (Array.isArray(details)) return details as GraphProblem[];
    return [{ code: "other", params: { message: err instanceof Error ? err.message : String(err) } }];
  }
}

/** Groups problems by node (the same problem once), the ones without a node kept apart. */
export function groupProblems(problems: GraphProblem[]): Problems {
  const byNode = new Map<string, NodeProblem[]>();
  const flow: string[] = [];
  for (const p of problems) {
    if (!p.nodeId) {
      flow.push(renderProblem(p));
      continue;
    }
    const list = byNode.get(p.nodeId) ?? [];
    const shown: NodeProblem = {
      input: p.input,
      message: renderProblem(p, "node"),
      fieldMessage: renderProblem(p, "input"),
    };
    if (!list.some((x) => x.input === shown.input && x.message === shown.message)) list.push(shown);
    byNode.set(p.nodeId, list);
  }
  return { byNode, flow, count: problems.length };
}

/** Problems of a node as one comparable string (to skip re-rendering a node whose problems did not change). */
export function problemsKey(list: NodeProblem[] | undefined): string {
  return list ? list.map((p) => `${p.input ?? ""}\u0000${p.message}`).join("\u0001") : "";
}
