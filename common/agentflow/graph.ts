import { parseHandleId } from "@/common/nodes/handles";
import type { DefinitionLookup } from "@/common/nodes/catalog";
import { T, type NodeDefinition, type NodeOutput } from "@/common/nodes/types";
import type { Graph, GraphEdge, GraphNode } from "@/common/schemas/graph";

/**
 * An agentflow's graph as the engine walks it. Its steps are the nodes whose definition declares an
 * agentflow role; the edges between two steps are control edges ("runs after"). Other nodes (chat
 * models) feed steps through anchors and are built, never run. Pure: the engine (lib/agentflow),
 * the validation and the canvas share it.
 */

export interface FlowGraph {
  /** Step nodes by id (Start, LLM, Condition…, notes included) of this level (not inside an Iteration). */
  steps: Map<string, { node: GraphNode; def: NodeDefinition }>;
  /** The Start node, when there is exactly one. */
  start?: GraphNode;
  /** Control edges by source and by target. */
  out: Map<string, GraphEdge[]>;
  in: Map<string, GraphEdge[]>;
  /** The sub-graph of each Iteration of this level: the steps whose `parentNode` it is, and their edges. */
  subgraphs: Map<string, FlowGraph>;
}

/** The agentflow role a definition declares, or undefined for nodes that are not steps. */
export function stepRole(def: NodeDefinition | undefined) {
  return def?.capabilities?.agentflow?.role;
}

function controlGraph(graph: Graph, lookup: DefinitionLookup, parent: string | undefined): FlowGraph {
  const steps: FlowGraph["steps"] = new Map();
  for (const node of graph.nodes) {
    const def = lookup(node.type);
    if (stepRole(def) && node.parentNode === parent) steps.set(node.id, { node, def: def! });
  }
  const out = new Map<string, GraphEdge[]>();
  const into = new Map<string, GraphEdge[]>();
  for (const id of steps.keys()) {
    out.set(id, []);
    into.set(id, []);
  }
  // An edge between two levels (into or out of an Iteration's sub-graph) is no control edge.
  for (const e of graph.edges) {
    if (!steps.has(e.source) || !steps.has(e.target)) continue;
    out.get(e.source)!.push(e);
    into.get(e.target)!.push(e);
  }
  const subgraphs = new Map<string, FlowGraph>();
  for (const id of steps.keys()) {
    if (graph.nodes.some((n) => n.parentNode === id)) subgraphs.set(id, controlGraph(graph, lookup, id));
  }
  const starts = [...steps.values()].filter((s) => stepRole(s.def) === "start");
  return { steps, out, in: into, subgraphs, ...(starts.length === 1 ? { start: starts[0].node } : {}) };
}

/** The control graph of an agentflow: its steps and the edges between them, each Iteration's sub-graph apart. */
export function flowGraph(graph: Graph, lookup: DefinitionLookup): FlowGraph {
  return controlGraph(graph, lookup, undefined);
}

/** Every step of a control graph and of its sub-graphs, at any depth. */
export function allSteps(fg: FlowGraph): FlowGraph["steps"] {
  const all: FlowGraph["steps"] = new Map(fg.steps);
  for (const sub of fg.subgraphs.values()) for (const [id, s] of allSteps(sub)) all.set(id, s);
  return all;
}

/** The steps a sub-graph starts with: those no control edge leads to, in the saved order. */
export function rootsOf(fg: FlowGraph): string[] {
  return [...fg.steps.keys()].filter(
    (id) => (fg.in.get(id) ?? []).length === 0 && stepRole(fg.steps.get(id)!.def) !== "note",
  );
}

/** The output name an edge leaves from (`branch0`, `else`, `proceed`, `output`…). */
export function edgeOutput(edge: GraphEdge): string | undefined {
  return parseHandleId(edge.sourceHandle)?.name;
}

/**
 * The outputs of a placed step: its definition's, with one `branchN` output per item of its
 * branching list param (a Condition's conditions, a Condition Agent's scenarios) before them.
 */
export function stepOutputs(def: NodeDefinition, inputs: Record<string, unknown>): NodeOutput[] {
  const branches = def.capabilities?.agentflow?.branches;
  if (!branches) return def.outputs;
  const items = listParam(inputs[branches]);
  const own = items.map((_, i) => ({ name: `branch${i}`, label: String(i), types: [T.flow] }));
  return [...own, ...def.outputs];
}

/** A list param's items: saved as an array, or as the JSON text the studio's field holds while edited. */
function listParam(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== "string") return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** Every step reachable from `id` along control edges, `id` included. */
export function reachableFrom(fg: FlowGraph, id: string): Set<string> {
  const seen = new Set<string>([id]);
  const todo = [id];
  while (todo.length) {
    for (const e of fg.out.get(todo.pop()!) ?? []) {
      if (!seen.has(e.target)) {
        seen.add(e.target);
        todo.push(e.target);
      }
    }
  }
  return seen;
}

/** A cycle of control edges as node ids (first repeated), or undefined. */
export function findControlCycle(fg: FlowGraph): string[] | undefined {
  const state = new Map<string, 1 | 2>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    state.set(id, 1);
    path.push(id);
    for (const e of fg.out.get(id) ?? []) {
      const s = state.get(e.target);
      if (s === 1) return path.slice(path.indexOf(e.target));
      if (!s) {
        const found = visit(e.target);
        if (found) return found;
      }
    }
    path.pop();
    state.set(id, 2);
    return undefined;
  };
  for (const id of fg.steps.keys()) {
    if (!state.get(id)) {
      const found = visit(id);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The node a Loop goes back to. Flowise saves it as `<id>-<label>`: the id is the longest prefix
 * before a "-" that names a step (our ids may hold "-" themselves), else the value as it is.
 */
export function loopTargetId(value: string, fg: FlowGraph): string | undefined {
  if (fg.steps.has(value)) return value;
  for (let dash = value.lastIndexOf("-"); dash > 0; dash = value.lastIndexOf("-", dash - 1)) {
    if (fg.steps.has(value.slice(0, dash))) return value.slice(0, dash);
  }
  return undefined;
}
