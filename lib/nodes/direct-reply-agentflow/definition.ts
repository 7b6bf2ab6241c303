import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor } from "../shared/agentflow";

/** Flowise's Direct Reply (directReplyAgentflow): answers with a message; the path ends here. */
export const directReplyAgentflowDefinition = {
  name: "directReplyAgentflow",
  version: 1,
  label: "Direct Reply",
  category: "Agent Flows",
  description: "Answers with a message (variables allowed); the path ends here.",
  inputs: [
    flowInputAnchor,
    { kind: "param", name: "directReplyMessage", label: "Message", type: "text", editor: "prompt" },
  ],
  outputs: [],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
