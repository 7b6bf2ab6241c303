import { component, defineMapping, ignore, param, toBoolean, toInteger } from "../rules";
import { embeddedModel, jsonList, memoryType, returnResponseAs, stepText } from "../step-rules";

const storesStayInFlowise =
  "Flowise's knowledge (its document stores, or vector stores with their embeddings) holds data that stays in Flowise: it is left out; connect one of our stores to “Knowledge” and upsert the documents there.";

/** Flowise "Agent" (agentflow) → our Agent: its model and tools become our nodes connected to it. */
export const agentAgentflow = defineMapping({
  flowise: "agentAgentflow",
  type: "agentAgentflow",
  step: {},
  richText: true,
  inputs: {
    agentModel: embeddedModel("agentModelConfig"),
    agentMessages: param("agentMessages", jsonList),
    // A tool we have no equivalent of (a third-party service whose account stays in Flowise) is left
    // out with a warning: the agent still runs, with the tools connected to it.
    agentTools: component("tools", "agentSelectedToolConfig", "tool", {
      list: { name: "agentSelectedTool" },
      missing: "warn",
    }),
    agentKnowledgeDocumentStores: ignore("document stores stay in Flowise", undefined, storesStayInFlowise),
    agentKnowledgeVSEmbeddings: ignore("vector stores stay in Flowise", undefined, storesStayInFlowise),
    agentEnableMemory: param("agentEnableMemory", toBoolean),
    agentMemoryType: param("agentMemoryType", memoryType),
    agentMemoryWindowSize: param("agentMemoryWindowSize", toInteger),
    agentMemoryMaxTokenLimit: param("agentMemoryMaxTokenLimit", toInteger),
    agentUserMessage: param("agentUserMessage", stepText),
    agentReturnResponseAs: returnResponseAs,
    agentUpdateState: param("agentUpdateState", jsonList),
    agentMaxIterations: param("agentMaxIterations", toInteger),
  },
});
