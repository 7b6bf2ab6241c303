import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const conversationChainDefinition = {
  name: "conversationChain",
  version: 1,
  label: "Conversation Chain",
  category: "Chains",
  description: "A chat with a system message; with a memory node the model sees the session's earlier messages.",
  inputs: [
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    { kind: "anchor", name: "memory", label: "Memory", accepts: [T.memory], optional: true },
    {
      kind: "param",
      name: "systemMessage",
      label: "System message",
      type: "text",
      editor: "prompt",
      default: "The following is a friendly conversation between a human and an AI. The AI is helpful and concise.",
      additional: true,
    },
  ],
  outputs: [{ name: "chain", label: "Conversation chain", types: [T.chain, "ConversationChain"] }],
} as const satisfies NodeDefinitionSpec;
