import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import type { toolAgentDefinition } from "./definition";
import { agentTools } from "../shared/tools";
import { ToolAgentChain } from "./agent";

/** Builds the tool agent from its model, tools, optional memory and settings. */
export const buildToolAgent: RuntimeOf<typeof toolAgentDefinition> = async ({ params, inputs, label }) => {
  const { model } = inputs;
  const tools = agentTools(inputs.tools, label);
  if (tools.length > 0 && typeof model.bindTools !== "function") {
    throw new AppError("invalid_graph", `${label}: the connected chat model does not support tool calling.`);
  }
  return new ToolAgentChain({
    model,
    tools,
    systemMessage: params.systemMessage,
    maxIterations: params.maxIterations,
    memory: inputs.memory,
  });
};
