import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { openAIBaseUrlParam, openAICredentialParam } from "../shared/openai-params";

export const inputModerationOpenAIDefinition = {
  name: "inputModerationOpenAI",
  version: 1,
  label: "OpenAI Moderation",
  category: "Moderation",
  description:
    "Sends the user's input to OpenAI's moderation endpoint (through the outbound guard) before the chain's model is asked; a flagged input is answered with the message.",
  inputs: [
    openAICredentialParam,
    {
      kind: "param",
      name: "moderationErrorMessage",
      label: "Answer when flagged",
      type: "string",
      default: "Cannot Process! Input violates OpenAI's content moderation policies.",
    },
    {
      kind: "param",
      name: "model",
      label: "Moderation model",
      type: "string",
      default: "omni-moderation-latest",
      additional: true,
    },
    openAIBaseUrlParam,
  ],
  outputs: [{ name: "moderation", label: "Moderation", types: [T.moderation] }],
} as const satisfies NodeDefinitionSpec;
