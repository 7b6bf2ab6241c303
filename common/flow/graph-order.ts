import { AppError } from "@/common/errors";
import type { Graph, GraphNode } from "@/common/schemas/graph";

/** Ordering helpers over a graph whose edges reference existing nodes. */

/** Node ids that feed each node (source ids of its incoming edges). */
export function incomingIds(graph: Graph): Map<string, string[]> {
  const m = new Map<string, string[]>(graph.nodes.map((n) => [n.id, []]));
  for (const e of graph.edges) m.get(e.target)?.push(e.source);
  return m;
}

/** Node ids each node feeds (target ids of its outgoing edges). */
export function outgoingIds(graph: Graph): Map<string, string[]> {
  const m = new Map<string, string[]>(graph.nodes.map((n) => [n.id, []]));
  for (const e of graph.edges) m.get(e.source)?.push(e.target);
  return m;
}

/** A cycle as a list of node ids (first repeated at the end), or undefined. Depth-first search. */
export function findCycle(graph: Graph): string[] | undefined {
  const out = outgoingIds(graph);
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    state.set(id, "visiting");
    stack.push(id);
    for (const next of out.get(id) ?? []) {
      if (state.get(next) === "visiting") return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const n of graph.nodes) {
    if (!state.has(n.id)) {
      const found = visit(n.id);
      if (found) return found;
    }
  }
  return undefined;
}

/** Nodes whose output feeds nothing. */
export function sinkNodes(graph: Graph): GraphNode[] {
  const out = outgoingIds(graph);
  return graph.nodes.filter((n) => (out.get(n.id) ?? []).length === 0);
}

/**
 * The ending node of a valid graph: the one node whose output feeds nothing. Throws invalid_graph
 * when there is not exactly one (validateGraph reports the details).
 */
export function getEndingNode(graph: Graph): GraphNode {
  const sinks = sinkNodes(graph);
  if (sinks.length !== 1) {
    throw new AppError("invalid_graph", `A flow needs exactly one ending node; found ${sinks.length}.`);
  }
  return sinks[0];
}

/** Nodes in dependency order (every node after the nodes feeding it). Throws invalid_graph on a cycle. */
export function topologicalOrder(graph: Graph): GraphNode[] {
  const incoming = incomingIds(graph);
  const out = outgoingIds(graph);
  const remaining = new Map(graph.nodes.map((n) => [n.id, new Set(incoming.get(n.id)).size]));
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const ready = graph.nodes.filter((n) => remaining.get(n.id) === 0).map((n) => n.id);
  const order: GraphNode[] = [];
  while (ready.length > 0) {
    const id = ready.shift()!;
    order.push(byId.get(id)!);
    for (const next of new Set(out.get(id))) {
      const left = remaining.get(next)! - 1;
      remaining.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (order.length !== graph.nodes.length) throw new AppError("invalid_graph", "The flow contains a cycle.");
  return order;
}

/** Ids of the nodes from which `targetId` can be reached (including itself). */
export function nodesReaching(graph: Graph, targetId: string): Set<string> {
  const incoming = incomingIds(graph);
  const seen = new Set<string>([targetId]);
  const queue = [targetId];
  while (queue.length > 0) {
    for (const src of incoming.get(queue.pop()!) ?? []) {
      if (!seen.has(src)) {
        seen.add(src);
        queue.push(src);
      }
    }
  }
  return seen;
}
