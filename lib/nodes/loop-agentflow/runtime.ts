import type { AgentflowStep } from "../../agentflow/types";
import type { RuntimeOf } from "../define";
import { stateUpdates } from "../shared/agentflow";
import type { loopAgentflowDefinition } from "./definition";

/** Loop: asks the engine to go back to its target (the engine counts the loops and stops at the cap). */
export const buildLoopStep: RuntimeOf<typeof loopAgentflowDefinition> = async ({ params }) => {
  const step: AgentflowStep = {
    agentflowStep: true,
    pure: true,
    async run(ctx) {
      const target = params.loopBackToNode;
      const content = `Loop back to ${target}`;
      const fallback = params.fallbackMessage ? ctx.resolve(params.fallbackMessage) : undefined;
      const state = stateUpdates(params.loopUpdateState, ctx, { content });
      return {
        input: { nodeID: target, maxLoopCount: params.maxLoopCount },
        output: { content, nodeID: target, maxLoopCount: params.maxLoopCount },
        loopTo: { nodeId: target, max: params.maxLoopCount, ...(fallback ? { fallback } : {}) },
        ...(state ? { state } : {}),
      };
    },
  };
  return step;
};
