import { type FlowChecks, validateGraph } from "@/common/flow/validate";
import type { DefinitionLookup } from "@/common/nodes/catalog";
import type { Graph } from "@/common/schemas/graph";
import { renderProblem } from "@/common/schemas/problem-text";
import type { GraphProblem, NodeRef } from "@/common/schemas/problems";

/** A problem shown on a node: the input it concerns (if any) and its sentences for node and field. */
export interface NodeProblem {
  input?: string;
  /** Shown on the node: without the node's name. */
  message: string;
  /** Shown under the input it concerns: without the node's or the input's name. */
  fieldMessage: string;
}

/** A line of the problems panel: its sentence and the nodes it names (a click selects them). */
export interface PanelProblem {
  key: string;
  text: string;
  nodes: NodeRef[];
  /** "flow": about the whole graph (listed once); "node": about one node (also shown on it). */
  scope: "flow" | "node";
}

export interface Problems {
  byNode: Map<string, NodeProblem[]>;
  /** Every problem for the problems panel: the whole graph's first (each once), then the nodes'. */
  panel: PanelProblem[];
  count: number;
}

export const NO_PROBLEMS: Problems = { byNode: new Map(), panel: [], count: 0 };

/**
 * Runs the server's graph validation in the browser (on the definitions it sent, with the checks of
 * the flow's kind: a chatflow's by default, an agentflow's from common/agentflow) and returns every
 * problem it lists.
 */
export function graphProblems(graph: Graph, definitions: DefinitionLookup, flowChecks?: FlowChecks): GraphProblem[] {
  try {
    validateGraph(graph, definitions, undefined, flowChecks);
    return [];
  } catch (err) {
    const details = (err as { details?: unknown }).details;
    // validateGraph lists coded problems (each with its sentence too, which the canvas re-renders).
    if (Array.isArray(details)) return details as GraphProblem[];
    return [{ code: "other", params: { message: err instanceof Error ? err.message : String(err) } }];
  }
}

/**
 * Problems of the whole graph that the validator repeats on each node it names (several ending
 * nodes, a cycle): listed once in the panel, and on each node only a short sentence about that node.
 */
function graphWide(p: GraphProblem): { text: string; nodes: NodeRef[]; onNode: string } | undefined {
  if (p.code === "several_endings") {
    const n = p.params.endings.length;
    return {
      // One sentence for all of them (the API's names one node per problem).
      text: `The flow has more than one ending node (${n}): a flow ends in one node. Connect the others to the rest of the flow or remove them.`,
      nodes: p.params.endings,
      onNode: `One of ${p.params.endings.length} ending nodes: connect it to the rest of the flow or remove it.`,
    };
  }
  if (p.code === "cycle") return { text: renderProblem(p), nodes: p.params.nodes, onNode: "Is part of a cycle." };
  return undefined;
}

/**
 * Leaves out the problems of pristine nodes (added and not touched yet: no field edited, no
 * connection made) and the graph problems only they cause: a fresh node is not an extra ending,
 * and a lone saved node is not "not connected" because a fresh node appeared beside it.
 */
export function hidePristine(
  problems: GraphProblem[],
  pristine: ReadonlySet<string>,
  nodeIds: string[],
): GraphProblem[] {
  if (pristine.size === 0) return problems;
  const kept = nodeIds.filter((id) => !pristine.has(id)).length;
  const out: GraphProblem[] = [];
  for (const p of problems) {
    if (p.nodeId && pristine.has(p.nodeId)) continue;
    if (p.code === "several_endings") {
      const endings = p.params.endings.filter((e) => !pristine.has(e.id));
      if (endings.length > 1) out.push({ ...p, params: { ...p.params, endings } });
      continue;
    }
    if (p.code === "not_reaching_ending" && pristine.has(p.params.ending.id)) continue;
    if (p.code === "node_not_connected" && kept <= 1) continue;
    out.push(p);
  }
  return out;
}

/**
 * Sorts problems for the canvas: the whole graph's problems once into the panel (naming their
 * nodes), each node's own problems onto it (the same problem once) and into the panel after them.
 */
export function groupProblems(problems: GraphProblem[], labels: ReadonlyMap<string, string> = new Map()): Problems {
  const byNode = new Map<string, NodeProblem[]>();
  const flow: PanelProblem[] = [];
  const ofNodes: PanelProblem[] = [];
  const seen = new Set<string>();
  const addPanel = (list: PanelProblem[], entry: Omit<PanelProblem, "key">) => {
    const key = `${entry.scope}\u0000${entry.text}`;
    if (seen.has(key)) return;
    seen.add(key);
    list.push({ key, ...entry });
  };
  const addNode = (nodeId: string, shown: NodeProblem) => {
    const list = byNode.get(nodeId) ?? [];
    if (!list.some((x) => x.input === shown.input && x.message === shown.message)) list.push(shown);
    byNode.set(nodeId, list);
  };
  for (const p of problems) {
    const wide = graphWide(p);
    if (wide) {
      addPanel(flow, { text: wide.text, nodes: wide.nodes, scope: "flow" });
      if (p.nodeId) addNode(p.nodeId, { message: wide.onNode, fieldMessage: wide.onNode });
      continue;
    }
    if (!p.nodeId) {
      addPanel(flow, { text: renderProblem(p), nodes: [], scope: "flow" });
      continue;
    }
    addNode(p.nodeId, { input: p.input, message: renderProblem(p, "node"), fieldMessage: renderProblem(p, "input") });
    const label = "label" in p.params ? p.params.label : (labels.get(p.nodeId) ?? p.nodeId);
    addPanel(ofNodes, { text: renderProblem(p), nodes: [{ id: p.nodeId, label }], scope: "node" });
  }
  const panel = [...flow, ...ofNodes];
  return { byNode, panel, count: panel.length };
}

/** Problems of a node as one comparable string (to skip re-rendering a node whose problems did not change). */
export function problemsKey(list: NodeProblem[] | undefined): string {
  return list ? list.map((p) => `${p.input ?? ""}\u0000${p.message}`).join("\u0001") : "";
}
