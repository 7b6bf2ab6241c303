import type { DefinitionLookup } from "@/common/nodes/catalog";
import type { NodeDefinition } from "@/common/nodes/types";
import type { Graph, GraphNode } from "@/common/schemas/graph";
import type { GraphProblem } from "@/common/schemas/problems";
import { nodeLabel, ref } from "../flow/validate";
import { allSteps, type FlowGraph, findControlCycle, flowGraph, loopTargetId, reachableFrom, stepRole } from "./graph";
import { startKeys } from "./references";
import { readVariable, variableNames } from "./variables";

/**
 * An agentflow's checks over the whole graph (common/flow/validate.ts runs them after its node and
 * edge checks): one Start; no control cycle (only a Loop goes back); every step reached from Start;
 * each Loop's target an earlier step on its path; every `{{variable}}` naming something (`{{$vars.x}}`
 * a global variable of the server's, when the caller knows them; `{{$iteration}}` only inside an
 * Iteration).
 */

/** What the checks know beyond the graph. */
export interface AgentflowCheckOptions {
  /** The names of the server's global variables; unset: `{{$vars.…}}` is not checked. */
  variables?: ReadonlySet<string>;
}

/** Every string inside a param value (JSON lists included), for variable checks. */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

function checkVariables(fg: FlowGraph, opts: AgentflowCheckOptions, problems: GraphProblem[]): void {
  const steps = allSteps(fg);
  const ids = new Set(steps.keys());
  const { state: stateKeys, form: formKeys } = startKeys(fg.start);
  for (const { node, def } of steps.values()) {
    const loopParam = def.capabilities?.agentflow?.loopTarget;
    for (const [input, value] of Object.entries(node.data.inputs)) {
      if (input === loopParam) continue;
      const param = def.inputs.find((i) => i.name === input);
      if (!param) continue;
      for (const name of new Set(stringsIn(value).flatMap(variableNames))) {
        const v = readVariable(name, ids);
        const nothing =
          v.kind === "unknown" ||
          (v.kind === "state" && !stateKeys.has(v.key)) ||
          (v.kind === "form" && !formKeys.has(v.key)) ||
          (v.kind === "vars" && opts.variables !== undefined && !opts.variables.has(v.key)) ||
          (v.kind === "iteration" && node.parentNode === undefined) ||
          (v.kind === "node" && v.nodeId === node.id);
        if (nothing)
          problems.push({
            code: "unknown_variable",
            nodeId: node.id,
            input,
            params: { label: nodeLabel(node, def), inputLabel: param.label, variable: name },
          });
      }
    }
  }
}

/** Steps from which `id` can be reached (its upstream), `id` excluded. */
function upstreamOf(fg: FlowGraph, id: string): Set<string> {
  const seen = new Set<string>();
  const todo = [id];
  while (todo.length) {
    for (const e of fg.in.get(todo.pop()!) ?? []) {
      if (!seen.has(e.source)) {
        seen.add(e.source);
        todo.push(e.source);
      }
    }
  }
  seen.delete(id);
  return seen;
}

function checkLoops(fg: FlowGraph, problems: GraphProblem[]): void {
  for (const { node, def } of fg.steps.values()) {
    const param = def.capabilities?.agentflow?.loopTarget;
    if (!param) continue;
    const raw = node.data.inputs[param];
    if (typeof raw !== "string" || raw === "") continue; // param_required says so
    const target = loopTargetId(raw, fg);
    if (!target || !upstreamOf(fg, node.id).has(target))
      problems.push({
        code: "loop_target_not_upstream",
        nodeId: node.id,
        input: param,
        params: { label: nodeLabel(node, def), target: raw },
      });
  }
}

function checkReach(fg: FlowGraph, graph: Graph, defs: ReadonlyMap<string, NodeDefinition>, problems: GraphProblem[]) {
  const reached = fg.start ? reachableFrom(fg, fg.start.id) : new Set<string>();
  for (const { node, def } of fg.steps.values()) {
    const role = stepRole(def);
    if (role === "step" && fg.start && !reached.has(node.id))
      problems.push({ code: "step_not_reachable", nodeId: node.id, params: { label: nodeLabel(node, def) } });
  }
  // A node that is no step (a chat model) must feed one.
  const feeding = new Set(graph.edges.map((e) => e.source));
  for (const node of graph.nodes) {
    const def = defs.get(node.id);
    if (def && !stepRole(def) && !feeding.has(node.id))
      problems.push({ code: "node_not_connected", nodeId: node.id, params: { label: nodeLabel(node, def) } });
  }
}

/** The whole-graph checks of an agentflow (a FlowChecks of common/flow/validate.ts). */
export function agentflowChecks(graph: Graph, defs: ReadonlyMap<string, NodeDefinition>, problems: GraphProblem[]) {
  agentflowChecksWith({})(graph, defs, problems);
}

function cycleIn(fg: FlowGraph): { fg: FlowGraph; cycle: string[] } | undefined {
  const cycle = findControlCycle(fg);
  if (cycle) return { fg, cycle };
  for (const sub of fg.subgraphs.values()) {
    const found = cycleIn(sub);
    if (found) return found;
  }
  return undefined;
}

/** The whole-graph checks of an agentflow, knowing what `opts` tells (the server's global variables). */
export const agentflowChecksWith =
  (opts: AgentflowCheckOptions) =>
  (graph: Graph, defs: ReadonlyMap<string, NodeDefinition>, problems: GraphProblem[]) => {
    const lookup: DefinitionLookup = (type) => [...defs.values()].find((d) => d.name === type);
    const fg = flowGraph(graph, lookup);
    const starts = [...fg.steps.values()].filter((s) => stepRole(s.def) === "start");
    if (starts.length !== 1)
      problems.push({
        code: "agentflow_start",
        ...(starts[1] ? { nodeId: starts[1].node.id } : {}),
        params: { count: starts.length },
      });
    const found = cycleIn(fg);
    if (found) {
      const { cycle } = found;
      const byId = (id: string): GraphNode => found.fg.steps.get(id)!.node;
      const nodes = cycle.map((id) => ref(byId(id), found.fg.steps.get(id)!.def));
      problems.push({ code: "agentflow_cycle", nodeId: cycle[0], params: { nodes } });
      return;
    }
    checkReach(fg, graph, defs, problems);
    checkLoops(fg, problems);
    checkVariables(fg, opts, problems);
  };
