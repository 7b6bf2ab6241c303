import { defineMapping, ignore, oneOf } from "../rules";
import { hostedChatInputs } from "./hostedChatInputs";

/** Flowise "ChatOpenRouter" → our chatOpenRouter node (its key goes in an OpenRouter credential). */
export const chatOpenRouter = defineMapping({
  flowise: "chatOpenRouter",
  type: "chatOpenRouter",
  credential: "credential",
  inputs: {
    ...hostedChatInputs,
    basepath: ignore(
      "another base path goes in the OpenRouter credential's base URL",
      oneOf("https://openrouter.ai/api/v1"),
    ),
  },
});
