import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const DEFAULT_MODERATION_MESSAGE = "Cannot Process! Input violates content moderation policies.";

export const inputModerationSimpleDefinition = {
  name: "inputModerationSimple",
  version: 1,
  label: "Simple Prompt Moderation",
  category: "Moderation",
  description:
    "Checks the user's input against a deny list before the chain's model is asked: an input containing an item (or, with a chat model connected, one the model finds similar to an item) is answered with the message.",
  inputs: [
    {
      kind: "param",
      name: "denyList",
      label: "Deny list",
      type: "text",
      placeholder: "ignore previous instructions\ndo not follow the directions",
      description: "One phrase per line.",
    },
    {
      kind: "param",
      name: "moderationErrorMessage",
      label: "Answer when denied",
      type: "string",
      default: DEFAULT_MODERATION_MESSAGE,
    },
    {
      kind: "anchor",
      name: "model",
      label: "Chat model",
      accepts: [T.chatModel],
      optional: true,
      description: "Asked, for each phrase, whether the input is similar to it (Yes/No).",
    },
  ],
  outputs: [{ name: "moderation", label: "Moderation", types: [T.moderation] }],
} as const satisfies NodeDefinitionSpec;
