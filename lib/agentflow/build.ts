import { AppError } from "@/common/errors";
import { type AgentflowCheckOptions, agentflowChecksWith } from "@/common/agentflow/validate";
import { allSteps, type FlowGraph, flowGraph } from "@/common/agentflow/graph";
import { validateGraph } from "@/common/flow/validate";
import type { Graph } from "@/common/schemas/graph";
import { buildNodes } from "../flow/build";
import type { BuildContext, BuiltFlow } from "../flow/types";
import { migrateSavedNode } from "../nodes/migrate";
import { getDefinition } from "../nodes/registry";
import { type AgentflowStep, isAgentflowStep } from "./types";

/** An agentflow built for runs: its control graph and the built step of every step node. */
export interface BuiltAgentflow {
  graph: FlowGraph;
  startId: string;
  stepOf(nodeId: string): AgentflowStep;
}

/**
 * The server's agentflow validation: node and edge checks against the registry (older nodes
 * migrated), then the agentflow's own (common/agentflow/validate.ts). Throws invalid_graph (422)
 * listing every problem; returns the graph to build.
 */
export function validateAgentflowGraph(graph: unknown, opts: AgentflowCheckOptions = {}): Graph {
  return validateGraph(graph, getDefinition, migrateSavedNode, agentflowChecksWith(opts));
}

/**
 * Validates and builds an agentflow: every node (chat models first, then the steps they feed) is
 * built once; runs share the result (the flow cache keeps it), each with its own execution.
 */
export async function buildAgentflow(graphInput: unknown, ctx: BuildContext): Promise<BuiltFlow> {
  const graph = validateAgentflowGraph(graphInput);
  const fg = flowGraph(graph, getDefinition);
  const stepIds = [...allSteps(fg).keys()];
  const built = await buildNodes(graph, stepIds, ctx);
  const steps = new Map<string, AgentflowStep>();
  for (const id of stepIds) {
    const step = built.get(id);
    if (!isAgentflowStep(step)) throw new AppError("invalid_graph", `Node ${id} is not an agentflow step.`);
    steps.set(id, step);
  }
  const agentflow: BuiltAgentflow = {
    graph: fg,
    startId: fg.start!.id,
    stepOf: (id) => {
      const step = steps.get(id);
      if (!step) throw new AppError("invalid_graph", `The run names node ${id}, which this flow does not have.`);
      return step;
    },
  };
  return {
    chatflowId: ctx.chatflowId,
    endingNodeId: agentflow.startId,
    allowsImages: false,
    readsHistory: true,
    agentflow,
    run: () => {
      throw new AppError("internal", "An agentflow runs through its engine (lib/services/agentflow-runs.ts).");
    },
  };
}
