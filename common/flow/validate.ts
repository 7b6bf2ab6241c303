import { AppError } from "@/common/errors";
import type { DefinitionLookup } from "@/common/nodes/catalog";
import { handleId } from "@/common/nodes/handles";
import { isRequiredParam, paramFieldSchema } from "../nodes/params";
import { anchorInputs, ENDING_TYPES, paramInputs, type NodeDefinition } from "@/common/nodes/types";
import { graphSchema, type Graph, type GraphEdge, type GraphNode } from "@/common/schemas/graph";
import { problemDetail, renderProblem } from "@/common/schemas/problem-text";
import type { GraphProblem, NodeRef } from "@/common/schemas/problems";
import { stepOutputs } from "@/common/agentflow/graph";
import { variableNames } from "@/common/agentflow/variables";
import { findCycle, nodesReaching, outgoingIds } from "./graph-order";

/**
 * Graph validation, run by the canvas (to show problems) and by the server (before building).
 * Collects every problem instead of stopping at the first, as data (common/schemas/problems.ts): a
 * code, the node and input concerned, and the params its sentence (common/schemas/problem-text.ts) needs.
 * It is given the definitions (the browser has no registry: the server sends them); the server's
 * entry point, bound to the registry and its migrations, is ./validate-saved.ts.
 */

export type { GraphProblem };

export type { DefinitionLookup };

/**
 * Brings a node saved with an older version of its definition up to the current one (server
 * side), or returns why it cannot. Without one (the canvas), older nodes are checked as they are.
 */
export type NodeMigrator = (node: GraphNode, def: NodeDefinition) => GraphNode | string;

type Defs = Map<string, NodeDefinition>;

/** The name a message uses for a node: its canvas label (or type label) and its id. */
export function describeNode(node: GraphNode, def?: NodeDefinition): string {
  return `"${nodeLabel(node, def)}" (${node.id})`;
}

/** The label a problem names a node by: its canvas label, else its type's. */
export function nodeLabel(node: GraphNode, def?: NodeDefinition): string {
  return node.data.label || def?.label || node.type;
}

/** A node as a problem names it. */
export function ref(node: GraphNode, def?: NodeDefinition): NodeRef {
  return { id: node.id, label: nodeLabel(node, def) };
}

function inputLabel(def: NodeDefinition, name: string): string {
  return def.inputs.find((i) => i.name === name)?.label ?? name;
}

function isMissing(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
}

/**
 * A saved node's version against its definition's (no version: 1, as saved before versions were
 * recorded). Newer than the server knows: refused. Older: migrated when a migrator is given.
 * Returns the node to check further, or undefined when it was refused.
 */
function checkVersion(
  node: GraphNode,
  def: NodeDefinition,
  problems: GraphProblem[],
  migrate?: NodeMigrator,
): GraphNode | undefined {
  const saved = node.version ?? 1;
  const params = { label: nodeLabel(node, def), typeLabel: def.label, saved, known: def.version };
  if (saved > def.version) {
    problems.push({ code: "node_version_newer", nodeId: node.id, params });
    return undefined;
  }
  if (saved === def.version || !migrate) return node;
  const migrated = migrate(node, def);
  if (typeof migrated !== "string") return migrated;
  problems.push({ code: "node_version_refused", nodeId: node.id, params: { ...params, reason: migrated } });
  return undefined;
}

function checkNodes(
  graph: Graph,
  defs: Defs,
  problems: GraphProblem[],
  lookup: DefinitionLookup,
  migrate?: NodeMigrator,
): GraphNode[] {
  const seen = new Set<string>();
  return graph.nodes.map((node) => {
    if (seen.has(node.id)) problems.push({ code: "duplicate_node_id", nodeId: node.id, params: {} });
    seen.add(node.id);
    const def = lookup(node.type);
    if (!def) {
      problems.push({
        code: "unknown_node_type",
        nodeId: node.id,
        params: { label: nodeLabel(node), type: node.type },
      });
      return node;
    }
    defs.set(node.id, def);
    const current = checkVersion(node, def, problems, migrate);
    if (current) checkParams(current, def, problems);
    return current ?? node;
  });
}

function checkParams(node: GraphNode, def: NodeDefinition, problems: GraphProblem[]): void {
  const values = node.data.inputs;
  const label = nodeLabel(node, def);
  for (const p of paramInputs(def)) {
    const at = { nodeId: node.id, input: p.name };
    if (isMissing(values[p.name])) {
      if (isRequiredParam(p)) problems.push({ code: "param_required", ...at, params: { label, inputLabel: p.label } });
      continue;
    }
    const r = paramFieldSchema(p).safeParse(values[p.name]);
    if (!r.success)
      problems.push({
        code: "param_invalid",
        ...at,
        params: { label, inputLabel: p.label, reason: r.error.issues[0].message },
      });
  }
  if (def.requiresOneOf?.every((name) => isMissing(values[name]))) {
    const inputLabels = def.requiresOneOf.map((n) => inputLabel(def, n));
    problems.push({
      code: "one_of_required",
      nodeId: node.id,
      input: def.requiresOneOf[0],
      params: { label, inputLabels },
    });
  }
}

/** Checks one edge; returns the target anchor's name when the edge is usable. */
function checkEdge(
  edge: GraphEdge,
  byId: Map<string, GraphNode>,
  defs: Defs,
  problems: GraphProblem[],
): string | undefined {
  const source = byId.get(edge.source);
  const target = byId.get(edge.target);
  if (!source || !target) {
    problems.push({
      code: "edge_missing_node",
      nodeId: source ? edge.target : edge.source,
      params: { edgeId: edge.id },
    });
    return undefined;
  }
  const sDef = defs.get(source.id);
  const tDef = defs.get(target.id);
  if (!sDef || !tDef) return undefined;
  // An agentflow's branching step has one output per item of a list param (stepOutputs).
  const output = stepOutputs(sDef, source.data.inputs).find(
    (o) => handleId(source.id, o.name, "out") === edge.sourceHandle,
  );
  const input = anchorInputs(tDef).find((i) => handleId(target.id, i.name, "in") === edge.targetHandle);
  if (!output || !input) {
    const params = output
      ? { edgeId: edge.id, side: "input" as const, handle: edge.targetHandle }
      : { edgeId: edge.id, side: "output" as const, handle: edge.sourceHandle };
    problems.push({ code: "edge_unknown_handle", nodeId: output ? target.id : source.id, params });
    return undefined;
  }
  if (!output.types.some((t) => input.accepts.includes(t))) {
    problems.push({
      code: "connection_type_mismatch",
      nodeId: target.id,
      input: input.name,
      params: {
        label: nodeLabel(target, tDef),
        inputLabel: input.label,
        accepts: input.accepts,
        source: ref(source, sDef),
        provides: output.types,
      },
    });
    return undefined;
  }
  return input.name;
}

function checkAnchors(graph: Graph, defs: Defs, problems: GraphProblem[]): void {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const counts = new Map<string, number>();
  for (const edge of graph.edges) {
    const input = checkEdge(edge, byId, defs, problems);
    if (input) counts.set(`${edge.target}:${input}`, (counts.get(`${edge.target}:${input}`) ?? 0) + 1);
  }
  for (const node of graph.nodes) {
    const def = defs.get(node.id);
    for (const a of def ? anchorInputs(def) : []) {
      const n = counts.get(`${node.id}:${a.name}`) ?? 0;
      const at = { nodeId: node.id, input: a.name };
      const names = { label: nodeLabel(node, def), inputLabel: a.label };
      if (n === 0 && !a.optional)
        problems.push({ code: "connection_required", ...at, params: { ...names, accepts: a.accepts } });
      if (n > 1 && !a.list) problems.push({ code: "too_many_connections", ...at, params: { ...names, count: n } });
    }
  }
}

function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

/**
 * `{{…}}` variables of params declaring `variablesFrom` (a prompt's values): each names the question,
 * the history, or a node connected to that anchor (a chain whose answer fills it).
 */
function checkParamVariables(graph: Graph, defs: ReadonlyMap<string, NodeDefinition>, problems: GraphProblem[]): void {
  for (const node of graph.nodes) {
    const def = defs.get(node.id);
    for (const p of def ? paramInputs(def) : []) {
      if (!p.variablesFrom) continue;
      const handle = handleId(node.id, p.variablesFrom, "in");
      const known = new Set(["question", "chat_history"]);
      for (const e of graph.edges) if (e.target === node.id && e.targetHandle === handle) known.add(e.source);
      for (const name of new Set(stringsIn(node.data.inputs[p.name]).flatMap(variableNames))) {
        if (known.has(name)) continue;
        problems.push({
          code: "unknown_variable",
          nodeId: node.id,
          input: p.name,
          params: { label: nodeLabel(node, def), inputLabel: p.label, variable: name },
        });
      }
    }
  }
}

function checkEnding(graph: Graph, defs: Defs, problems: GraphProblem[]): void {
  if (graph.nodes.length === 0) {
    problems.push({ code: "flow_empty", params: {} });
    return;
  }
  const out = outgoingIds(graph);
  const connected = new Set(graph.edges.flatMap((e) => [e.source, e.target]));
  const isolated = graph.nodes.length > 1 ? graph.nodes.filter((n) => !connected.has(n.id)) : [];
  const sinks = graph.nodes.filter((n) => out.get(n.id)!.length === 0 && !isolated.includes(n));
  for (const n of isolated) {
    problems.push({ code: "node_not_connected", nodeId: n.id, params: { label: nodeLabel(n, defs.get(n.id)) } });
  }
  if (sinks.length > 1) {
    const endings = sinks.map((n) => ref(n, defs.get(n.id)));
    for (const n of sinks) {
      problems.push({
        code: "several_endings",
        nodeId: n.id,
        params: { label: nodeLabel(n, defs.get(n.id)), endings },
      });
    }
    return;
  }
  if (sinks.length === 0) return;
  const ending = sinks[0];
  const def = defs.get(ending.id);
  if (def && !def.outputs.some((o) => o.types.some((t) => ENDING_TYPES.includes(t)))) {
    problems.push({ code: "cannot_end_flow", nodeId: ending.id, params: { label: nodeLabel(ending, def) } });
  }
  const reaching = nodesReaching(graph, ending.id);
  for (const n of graph.nodes) {
    if (!reaching.has(n.id) && !isolated.includes(n)) {
      problems.push({
        code: "not_reaching_ending",
        nodeId: n.id,
        params: { label: nodeLabel(n, defs.get(n.id)), ending: ref(ending, def) },
      });
    }
  }
}

function shapeProblems(issues: { path: PropertyKey[]; message: string }[], raw: unknown): GraphProblem[] {
  return issues.slice(0, 50).map((i) => {
    const [list, index] = i.path;
    const item =
      typeof index === "number" && raw && typeof raw === "object"
        ? (raw as Record<string, unknown[]>)[String(list)]?.[index]
        : undefined;
    const id = item && typeof item === "object" ? (item as { id?: unknown }).id : undefined;
    const params = { path: i.path.join("."), reason: i.message };
    return {
      code: "invalid_shape" as const,
      ...(list === "nodes" && typeof id === "string" ? { nodeId: id } : {}),
      params,
    };
  });
}

function fail(problems: GraphProblem[]): never {
  const shown = problems
    .slice(0, 10)
    .map((p) => renderProblem(p))
    .join(" ");
  const more = problems.length > 10 ? ` (and ${problems.length - 10} more problems)` : "";
  throw new AppError("invalid_graph", `The flow is not valid: ${shown}${more}`, {
    details: problems.map(problemDetail),
  });
}

/**
 * Parses and checks a graph against the given definitions: shape, node types and versions, every
 * edge (handles and connection types), single-connection anchors, cycles, required params and
 * anchors, dangling nodes and exactly one ending node. Throws AppError("invalid_graph") listing
 * every problem in `details`; returns the graph with older nodes migrated (when `migrate` is given).
 */
export function validateGraph(
  graph: unknown,
  definitions: DefinitionLookup,
  migrate?: NodeMigrator,
  flowChecks: FlowChecks = chatflowChecks,
): Graph {
  const parsed = graphSchema.safeParse(graph);
  if (!parsed.success) fail(shapeProblems(parsed.error.issues, graph));
  const problems: GraphProblem[] = [];
  const defs: Defs = new Map();
  const g = { ...parsed.data, nodes: checkNodes(parsed.data, defs, problems, definitions, migrate) };
  checkAnchors(g, defs, problems);
  flowChecks(g, defs, problems);
  if (problems.length > 0) fail(problems);
  return g;
}

/**
 * The checks of a kind of flow over the whole graph, after its nodes and edges were checked: a
 * chatflow's (no cycle, one ending) here, an agentflow's in common/agentflow/validate.ts.
 */
export type FlowChecks = (graph: Graph, defs: ReadonlyMap<string, NodeDefinition>, problems: GraphProblem[]) => void;

function chatflowChecks(g: Graph, defs: ReadonlyMap<string, NodeDefinition>, problems: GraphProblem[]): void {
  const cycle = findCycle(g);
  if (cycle) {
    const nodes = cycle.map((id) => ref(g.nodes.find((n) => n.id === id)!, defs.get(id)));
    problems.push({ code: "cycle", nodeId: cycle[0], params: { nodes } });
  } else {
    checkEnding(g, defs as Defs, problems);
  }
  checkParamVariables(g, defs, problems);
}
