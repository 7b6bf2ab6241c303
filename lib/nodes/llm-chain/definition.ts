import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const llmChainDefinition = {
  name: "llmChain",
  version: 1,
  label: "LLM Chain",
  category: "Chains",
  description:
    "Formats a prompt with the question and asks the chat model. No memory: each question stands alone. Its answer can also fill another prompt's variable (“Output prediction”).",
  inputs: [
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    { kind: "anchor", name: "prompt", label: "Prompt", accepts: [T.prompt] },
    {
      kind: "anchor",
      name: "outputParser",
      label: "Output parser",
      accepts: [T.outputParser],
      optional: true,
      description: "The format of the answer (a list, a JSON object), checked; one repair attempt.",
    },
    {
      kind: "anchor",
      name: "inputModeration",
      label: "Input moderation",
      accepts: [T.moderation],
      optional: true,
      list: true,
      description: "Checked in order before the model is asked; a flagged input gets the moderation's answer.",
    },
  ],
  outputs: [
    { name: "chain", label: "LLM chain", types: [T.chain, "LLMChain"] },
    { name: "prediction", label: "Output prediction", types: [T.prediction] },
  ],
} as const satisfies NodeDefinitionSpec;
