import { AppError } from "@/common/errors";
import type { AgentflowStep } from "../../agentflow/types";
import type { RuntimeOf } from "../define";
import { listItems, stateUpdates } from "../shared/agentflow";
import { StepToolCalls } from "../shared/agentflow-tools";
import type { toolAgentflowDefinition } from "./definition";

/** A resolved argument: JSON objects and arrays parsed (Flowise's parseInputValue), anything else as text. */
function argValue(text: string): unknown {
  const t = text.trim();
  if ((t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"))) {
    try {
      return JSON.parse(t);
    } catch {
      return text;
    }
  }
  return text;
}

/** Tool: the connected tool called once with the arguments resolved; its answer is the output. */
export const buildToolStep: RuntimeOf<typeof toolAgentflowDefinition> = async ({ params, inputs }) => {
  const tool = inputs.tool;
  const step: AgentflowStep = {
    agentflowStep: true,
    async run(ctx) {
      const args = Object.fromEntries(
        listItems(params.toolInputArgs)
          .filter((a) => typeof a.inputArgName === "string" && a.inputArgName !== "")
          .map((a) => [a.inputArgName as string, argValue(ctx.resolve(String(a.inputArgValue ?? "")))]),
      );
      const calls = new StepToolCalls(ctx);
      let content: string;
      try {
        content = (await calls.call(tool, args, true)).output;
      } catch (e) {
        if (e instanceof AppError) throw new AppError(e.code, `Tool "${ctx.label}" (${ctx.nodeId}): ${e.message}`);
        throw new AppError(
          "upstream_error",
          `Tool "${ctx.label}" (${ctx.nodeId}): ${tool.name} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      ctx.onToken?.(content);
      const output = { content };
      const state = stateUpdates(params.toolUpdateState, ctx, output);
      return {
        input: { toolInputArgs: args, selectedTool: tool.name },
        output,
        ...(state ? { state } : {}),
        usedTools: calls.used,
      };
    },
  };
  return step;
};
