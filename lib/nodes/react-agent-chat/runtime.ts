import type { RuntimeOf } from "../define";
import { reactChatFormat, TextAgentChain } from "../shared/text-agent";
import { agentTools } from "../shared/tools";
import type { reactAgentChatDefinition } from "./definition";

/** Builds the ReAct agent for chat models (Thought / Action / Observation in the model's text). */
export const buildReactAgentChat: RuntimeOf<typeof reactAgentChatDefinition> = async ({ params, inputs, label }) =>
  new TextAgentChain({
    model: inputs.model,
    tools: agentTools(inputs.tools, label),
    systemMessage: params.systemMessage,
    maxIterations: params.maxIterations,
    memory: inputs.memory,
    format: reactChatFormat,
    chainType: "switchyard_react_agent_chat",
  });
