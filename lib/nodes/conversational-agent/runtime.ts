import type { RuntimeOf } from "../define";
import { conversationalFormat, TextAgentChain } from "../shared/text-agent";
import { agentTools } from "../shared/tools";
import type { conversationalAgentDefinition } from "./definition";

/** Builds the conversational agent (JSON actions in the model's text) from its model, tools and memory. */
export const buildConversationalAgent: RuntimeOf<typeof conversationalAgentDefinition> = async ({
  params,
  inputs,
  label,
}) =>
  new TextAgentChain({
    model: inputs.model,
    tools: agentTools(inputs.tools, label),
    systemMessage: params.systemMessage,
    maxIterations: params.maxIterations,
    memory: inputs.memory,
    format: conversationalFormat,
    chainType: "switchyard_conversational_agent",
  });
