import type { DefinitionLookup } from "@/common/nodes/catalog";
import type { Graph } from "@/common/schemas/graph";
import { allSteps, edgeOutput, flowGraph, loopTargetId } from "./graph";

/**
 * The path one agentflow run took over its flow's graph, for the studio's Executions view: each
 * node's status in that run and the edges the run went along. Pure: reads the graph and the run's
 * executed data (`executionData` of GET /api/v1/executions/{id}), node by node in the order they ran.
 */

/** A node's part in a run: its last entry's status, inside a run Iteration, or not reached at all. */
export type RunNodeStatus = "finished" | "error" | "paused" | "running" | "in-iteration" | "not-reached";

/** The fields of an executed entry this reads (common/schemas/execution.ts's executionNodeSchema). */
export interface RunEntry {
  nodeId: string;
  status: "INPROGRESS" | "FINISHED" | "STOPPED" | "ERROR";
  data: Record<string, unknown>;
}

export interface RunPath {
  /** Every node of the graph that is a step (Start, LLM, Condition…; not chat models or notes). */
  nodes: Map<string, RunNodeStatus>;
  /** Ids of the saved edges the run went along, and of the Loop back edges it took (`loopBackEdgeId`). */
  edges: Set<string>;
}

const STATUS_OF: Record<RunEntry["status"], RunNodeStatus> = {
  FINISHED: "finished",
  ERROR: "error",
  STOPPED: "paused",
  INPROGRESS: "running",
};

/** Which words the studio shows for each status (never colour alone). */
export const RUN_NODE_LABEL: Record<RunNodeStatus, string> = {
  finished: "Finished",
  error: "Failed",
  paused: "Waiting",
  running: "Interrupted or running",
  "in-iteration": "Ran inside the iteration",
  "not-reached": "Not reached",
};

/** The id of a Loop's back edge, which the canvas draws from its param (browser/canvas/agentflow.ts). */
export const loopBackEdgeId = (loopId: string) => `loop-back:${loopId}`;

/**
 * The path `entries` took over `graph`. A node's status is that of its last entry. An edge between
 * two steps was taken when both ran, the target after the source, and — for a branching source
 * that recorded the output it took (`data.branch`) — the edge leaves from that output. The steps of
 * an Iteration's sub-graph are not recorded one by one: they are `in-iteration` when the Iteration ran.
 */
export function runPath(graph: Graph, entries: readonly RunEntry[], lookup: DefinitionLookup): RunPath {
  const fg = flowGraph(graph, lookup);
  const steps = allSteps(fg);
  const ranAt = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const at = ranAt.get(e.nodeId) ?? [];
    at.push(i);
    ranAt.set(e.nodeId, at);
  });
  const nodes = new Map<string, RunNodeStatus>();
  for (const [id, { node, def }] of steps) {
    if (def.capabilities?.agentflow?.role === "note") continue;
    const at = ranAt.get(id);
    if (at) nodes.set(id, STATUS_OF[entries[at.at(-1)!].status]);
    else if (node.parentNode && ranAt.has(node.parentNode)) nodes.set(id, "in-iteration");
    else nodes.set(id, "not-reached");
  }
  const edges = new Set<string>();
  for (const e of graph.edges) {
    const from = ranAt.get(e.source);
    const to = ranAt.get(e.target);
    if (!from || !to || !steps.has(e.source) || !steps.has(e.target)) continue;
    // Entries of the source that finished and that the target ran after.
    const taken = from.some((i) => {
      const entry = entries[i];
      if (entry.status !== "FINISHED" || !to.some((j) => j > i)) return false;
      const branch = entry.data.branch;
      return typeof branch !== "string" || edgeOutput(e) === branch;
    });
    if (taken) edges.add(e.id);
  }
  // A Loop went back when its target ran again after it.
  for (const [id, { node, def }] of steps) {
    const param = def.capabilities?.agentflow?.loopTarget;
    const raw = param ? node.data.inputs[param] : undefined;
    const target = typeof raw === "string" ? loopTargetId(raw, fg) : undefined;
    const at = ranAt.get(id);
    const again = target ? ranAt.get(target) : undefined;
    if (target && at && again && at.some((i) => entries[i].status === "FINISHED" && again.some((j) => j > i)))
      edges.add(loopBackEdgeId(id));
  }
  return { nodes, edges };
}
