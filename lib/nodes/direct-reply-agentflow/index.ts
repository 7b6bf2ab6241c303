import type { AgentflowStep } from "../../agentflow/types";
import { defineNode } from "../define";
import { directReplyAgentflowDefinition } from "./definition";

/** Direct Reply: the message, resolved, is the answer (streamed whole). */
export const directReplyAgentflow = defineNode({
  definition: directReplyAgentflowDefinition,
  runtime: async ({ params }) => {
    const step: AgentflowStep = {
      agentflowStep: true,
      pure: true,
      async run(ctx) {
        const content = ctx.resolve(params.directReplyMessage);
        ctx.onToken?.(content);
        return { output: { content }, answer: true, messages: [{ role: "apiMessage", content }] };
      },
    };
    return step;
  },
});
