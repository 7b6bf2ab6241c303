import { AppError } from "../errors";
import type { DefinitionLookup } from "../nodes/catalog";
import { canConnect, handleId } from "../nodes/handles";
import { isRequiredParam, paramFieldSchema } from "../nodes/params";
import { anchorInputs, ENDING_TYPES, paramInputs, type NodeDefinition } from "../nodes/types";
import { graphSchema, type Graph, type GraphEdge, type GraphNode } from "../schemas/graph";
import { findCycle, nodesReaching, outgoingIds } from "./graph-order";

/**
 * Graph validation, run by the canvas (to show problems) and by the server (before building).
 * Collects every problem instead of stopping at the first, and names node and input in each.
 * It is given the definitions (the browser has no registry: the server sends them); the server's
 * entry point, bound to the registry and its migrations, is ./validate-saved.ts.
 */

export interface GraphProblem {
  /** Set on version problems: "node_version_newer" | "node_version_refused". */
  code?: string;
  nodeId?: string;
  input?: string;
  message: string;
}

export type { DefinitionLookup };

/**
 * Brings a node saved with an older version of its definition up to the current one (server
 * side), or returns why it cannot. Without one (the canvas), older nodes are checked as they are.
 */
export type NodeMigrator = (node: GraphNode, def: NodeDefinition) => GraphNode | string;

type Defs = Map<string, NodeDefinition>;

/** The name a message uses for a node: its canvas label (or type label) and its id. */
export function describeNode(node: GraphNode, def?: NodeDefinition): string {
  return `"${node.data.label || def?.label || node.type}" (${node.id})`;
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
function checkVersion(node: GraphNode, def: NodeDefinition, problems: GraphProblem[], migrate?: NodeMigrator): GraphNode | undefined {
  const saved = node.version ?? 1;
  const what = `Node ${describeNode(node, def)} was saved with version ${saved} of "${def.label}"`;
  if (saved > def.version) {
    const message = `${what}, but this server knows versions up to ${def.version} only.`;
    problems.push({ code: "node_version_newer", nodeId: node.id, message });
    return undefined;
  }
  if (saved === def.version || !migrate) return node;
  const migrated = migrate(node, def);
  if (typeof migrated !== "string") return migrated;
  problems.push({ code: "node_version_refused", nodeId: node.id, message: `${what}, which cannot be brought to version ${def.version}: ${migrated}` });
  return undefined;
}

function checkNodes(graph: Graph, defs: Defs, problems: GraphProblem[], lookup: DefinitionLookup, migrate?: NodeMigrator): GraphNode[] {
  const seen = new Set<string>();
  return graph.nodes.map((node) => {
    if (seen.has(node.id)) problems.push({ nodeId: node.id, message: `Node id ${node.id} is used twice.` });
    seen.add(node.id);
    const def = lookup(node.type);
    if (!def) {
      problems.push({ nodeId: node.id, message: `Node ${describeNode(node)} has an unknown type "${node.type}".` });
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
  for (const p of paramInputs(def)) {
    const where = `Node ${describeNode(node, def)}: input "${p.label}"`;
    if (isMissing(values[p.name])) {
      if (isRequiredParam(p)) problems.push({ nodeId: node.id, input: p.name, message: `${where} is required.` });
      continue;
    }
    const r = paramFieldSchema(p).safeParse(values[p.name]);
    if (!r.success) problems.push({ nodeId: node.id, input: p.name, message: `${where} is not valid: ${r.error.issues[0].message}.` });
  }
  if (def.requiresOneOf && def.requiresOneOf.every((name) => isMissing(values[name]))) {
    const labels = def.requiresOneOf.map((n) => `"${inputLabel(def, n)}"`).join(", ");
    problems.push({ nodeId: node.id, input: def.requiresOneOf[0], message: `Node ${describeNode(node, def)}: one of ${labels} is required.` });
  }
}

/** Checks one edge; returns the target anchor's name when the edge is usable. */
function checkEdge(edge: GraphEdge, byId: Map<string, GraphNode>, defs: Defs, problems: GraphProblem[]): string | undefined {
  const source = byId.get(edge.source);
  const target = byId.get(edge.target);
  if (!source || !target) {
    problems.push({ nodeId: source ? edge.target : edge.source, message: `Edge ${edge.id} connects a node that does not exist.` });
    return undefined;
  }
  const sDef = defs.get(source.id);
  const tDef = defs.get(target.id);
  if (!sDef || !tDef) return undefined;
  const output = sDef.outputs.find((o) => handleId(source.id, o.name, "out") === edge.sourceHandle);
  const input = anchorInputs(tDef).find((i) => handleId(target.id, i.name, "in") === edge.targetHandle);
  if (!output || !input) {
    const which = output ? `input handle "${edge.targetHandle}"` : `output handle "${edge.sourceHandle}"`;
    problems.push({ nodeId: output ? target.id : source.id, message: `Edge ${edge.id} uses an unknown ${which}.` });
    return undefined;
  }
  if (!canConnect(sDef, output.name, tDef, input.name)) {
    problems.push({
      nodeId: target.id,
      input: input.name,
      message: `Node ${describeNode(target, tDef)}: input "${input.label}" accepts ${input.accepts.join(" or ")}, but ${describeNode(source, sDef)} provides ${output.types.join(", ")}.`,
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
      const where = `Node ${describeNode(node, def)}: input "${a.label}"`;
      if (n === 0 && !a.optional) problems.push({ nodeId: node.id, input: a.name, message: `${where} needs a connection (${a.accepts.join(" or ")}).` });
      if (n > 1 && !a.list) problems.push({ nodeId: node.id, input: a.name, message: `${where} takes one connection, but has ${n}.` });
    }
  }
}

function checkEnding(graph: Graph, defs: Defs, problems: GraphProblem[]): void {
  if (graph.nodes.length === 0) {
    problems.push({ message: "The flow is empty: add a chain or an agent." });
    return;
  }
  const out = outgoingIds(graph);
  const connected = new Set(graph.edges.flatMap((e) => [e.source, e.target]));
  const isolated = graph.nodes.length > 1 ? graph.nodes.filter((n) => !connected.has(n.id)) : [];
  const sinks = graph.nodes.filter((n) => out.get(n.id)!.length === 0 && !isolated.includes(n));
  for (const n of isolated) {
    problems.push({ nodeId: n.id, message: `Node ${describeNode(n, defs.get(n.id))} is not connected to the flow.` });
  }
  if (sinks.length > 1) {
    const names = sinks.map((n) => describeNode(n, defs.get(n.id))).join(", ");
    for (const n of sinks) {
      problems.push({ nodeId: n.id, message: `The flow has more than one ending node (${names}): connect ${describeNode(n, defs.get(n.id))} to the rest or remove it.` });
    }
    return;
  }
  if (sinks.length === 0) return;
  const ending = sinks[0];
  const def = defs.get(ending.id);
  if (def && !def.outputs.some((o) => o.types.some((t) => ENDING_TYPES.includes(t)))) {
    problems.push({ nodeId: ending.id, message: `Node ${describeNode(ending, def)} cannot end a flow: connect it to a chain or an agent.` });
  }
  const reaching = nodesReaching(graph, ending.id);
  for (const n of graph.nodes) {
    if (!reaching.has(n.id) && !isolated.includes(n)) {
      problems.push({ nodeId: n.id, message: `Node ${describeNode(n, defs.get(n.id))} is not connected to the ending node ${describeNode(ending, def)}.` });
    }
  }
}

function shapeProblems(issues: { path: PropertyKey[]; message: string }[], raw: unknown): GraphProblem[] {
  return issues.slice(0, 50).map((i) => {
    const [list, index] = i.path;
    const item = typeof index === "number" && raw && typeof raw === "object" ? (raw as Record<string, unknown[]>)[String(list)]?.[index] : undefined;
    const id = item && typeof item === "object" ? (item as { id?: unknown }).id : undefined;
    return { ...(list === "nodes" && typeof id === "string" ? { nodeId: id } : {}), message: `${i.path.join(".") || "graph"}: ${i.message}` };
  });
}

function fail(problems: GraphProblem[]): never {
  const shown = problems.slice(0, 10).map((p) => p.message).join(" ");
  const more = problems.length > 10 ? ` (and ${problems.length - 10} more problems)` : "";
  throw new AppError("invalid_graph", `The flow is not valid: ${shown}${more}`, { details: problems });
}

/**
 * Parses and checks a graph against the given definitions: shape, node types and versions, every
 * edge (handles and connection types), single-connection anchors, cycles, required params and
 * anchors, dangling nodes and exactly one ending node. Throws AppError("invalid_graph") listing
 * every problem in `details`; returns the graph with older nodes migrated (when `migrate` is given).
 */
export function validateGraph(graph: unknown, definitions: DefinitionLookup, migrate?: NodeMigrator): Graph {
  const parsed = graphSchema.safeParse(graph);
  if (!parsed.success) fail(shapeProblems(parsed.error.issues, graph));
  const problems: GraphProblem[] = [];
  const defs: Defs = new Map();
  const g = { ...parsed.data, nodes: checkNodes(parsed.data, defs, problems, definitions, migrate) };
  checkAnchors(g, defs, problems);
  const cycle = findCycle(g);
  if (cycle) {
    const names = cycle.map((id) => describeNode(g.nodes.find((n) => n.id === id)!, defs.get(id)));
    problems.push({ nodeId: cycle[0], message: `The flow has a cycle: ${names.join(" → ")}.` });
  } else {
    checkEnding(g, defs, problems);
  }
  if (problems.length > 0) fail(problems);
  return g;
}
