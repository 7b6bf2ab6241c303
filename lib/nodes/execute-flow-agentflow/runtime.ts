import { AppError } from "@/common/errors";
import { callOnce } from "../../agentflow/journal";
import type { AgentflowStep } from "../../agentflow/types";
import type { RuntimeOf } from "../define";
import { stateUpdates } from "../shared/agentflow";
import type { executeFlowAgentflowDefinition } from "./definition";

/**
 * Execute Flow: the other flow answers the resolved input through the service's runner (which checks
 * the owner's right to run it and the depth limit); asked at most once per run (callOnce), so a run
 * continued after a crash does not ask it again.
 */
export const buildExecuteFlowStep: RuntimeOf<typeof executeFlowAgentflowDefinition> = async ({ params }) => {
  const step: AgentflowStep = {
    agentflowStep: true,
    async run(ctx) {
      const question = ctx.resolve(params.executeFlowInput);
      const runSubflow = ctx.runSubflow;
      const text = await callOnce(ctx, "flow", `its run of flow ${params.executeFlowSelectedFlow}`, async () => {
        if (!runSubflow)
          throw new AppError("unprocessable", `Execute Flow "${ctx.label}" (${ctx.nodeId}): flows cannot be run here.`);
        const overrides = params.executeFlowOverrideConfig;
        const answer = await runSubflow({
          chatflowId: params.executeFlowSelectedFlow,
          question,
          nodeId: ctx.nodeId,
          label: ctx.label,
          ...(overrides && !Array.isArray(overrides) ? { overrideConfig: overrides } : {}),
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
        return answer.text;
      });
      ctx.onToken?.(text);
      const output = { content: text };
      const state = stateUpdates(params.executeFlowUpdateState, ctx, output);
      const asked = ctx.runtimeHistory.length ? [] : [{ role: "userMessage" as const, content: question }];
      const role = params.executeFlowReturnResponseAs === "assistantMessage" ? "apiMessage" : "userMessage";
      return {
        input: { messages: [{ role: "user", content: question }] },
        output,
        ...(state ? { state } : {}),
        answer: true,
        messages: [...asked, { role, content: text }],
      };
    },
  };
  return step;
};
