import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import type { toolAgentDefinition } from "./definition";
import { ToolAgentChain } from "./agent";

/** Builds the tool agent from its model, tools, optional memory and settings. */
export const buildToolAgent: RuntimeOf<typeof toolAgentDefinition> = async ({ params, inputs, label }) => {
  const { model, tools } = inputs;
  if (tools.length > 0 && typeof model.bindTools !== "function") {
    throw new AppError("invalid_graph", `${label}: the connected chat model does not support tool calling.`);
  }
  const names = tools.map((t) => t.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate)
    throw new AppError("invalid_graph", `${label}: two tools are named "${duplicate}"; tool names must differ.`);
  return new ToolAgentChain({
    model,
    tools,
    systemMessage: params.systemMessage,
    maxIterations: params.maxIterations,
    memory: inputs.memory,
  });
};
