import { defineMapping, ignore, oneOf, param, toInteger } from "../rules";
import { hostedChatInputs } from "./hostedChatInputs";

/** Flowise "ChatMistralAI" → our Mistral AI chat model (its key goes in a Mistral AI credential). */
export const chatMistralAI = defineMapping({
  flowise: "chatMistralAI",
  type: "chatMistralAI",
  credential: "credential",
  inputs: {
    ...hostedChatInputs,
    maxOutputTokens: param("maxTokens", toInteger),
    randomSeed: ignore(
      "a fixed random seed is not sent",
      undefined,
      "the random seed is not carried over: answers are not reproducible call to call",
    ),
    safeMode: ignore("Mistral's safe prompt is not sent", oneOf(false, "false")),
    overrideEndpoint: ignore(
      "an endpoint override goes in the Mistral AI credential's base URL",
      undefined,
      "the endpoint override is not carried over: set it as the credential's base URL",
    ),
  },
});
