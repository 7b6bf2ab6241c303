import { defineMapping, ignore } from "../rules";
import { openAIModelInputs } from "./chatOpenAI";

/**
 * Flowise "ChatOpenAI Custom" (any OpenAI-compatible server, custom model name) → our
 * OpenAI-compatible chat model, like "ChatOpenAI": the same node already is that.
 */
export const chatOpenAICustom = defineMapping({
  flowise: "chatOpenAICustom",
  type: "chatOpenAICompatible",
  credential: "credential",
  inputs: {
    ...openAIModelInputs,
    baseOptions: ignore(
      "extra request headers (BaseOptions) cannot be imported: put the key in an OpenAI credential with this base URL",
      () => false,
    ),
    cache: ignore(
      "a model cache has no equivalent",
      undefined,
      "the cache is not carried over: every call asks the model",
    ),
  },
});
