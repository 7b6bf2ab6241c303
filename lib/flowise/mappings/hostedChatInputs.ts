import { ignore, oneOf, param, toBoolean, toInteger, toNumber, toText } from "../rules";

const perRequest = "streaming is chosen per request (the prediction's `streaming`), not on the model";

/**
 * The inputs Flowise's hosted chat models (Groq, DeepSeek, Mistral, OpenRouter, Together, Azure)
 * share, onto our hosted chat nodes (lib/nodes/shared/hosted-chat.ts). Inputs a provider's node
 * lacks are simply never set in its exports.
 */
export const hostedChatInputs = {
  modelName: param("model", toText),
  temperature: param("temperature", toNumber),
  maxTokens: param("maxTokens", toInteger),
  topP: param("topP", toNumber),
  timeout: param("timeout", toInteger),
  allowImageUploads: param("allowImageUploads", toBoolean),
  streaming: ignore(perRequest),
  frequencyPenalty: ignore("a frequency penalty is not sent by this node", oneOf(0, "0")),
  presencePenalty: ignore("a presence penalty is not sent by this node", oneOf(0, "0")),
  stopSequence: ignore("stop sequences are not sent by this node", () => false),
  baseOptions: ignore("extra request options (BaseOptions) cannot be imported", () => false),
  cache: ignore(
    "a model cache has no equivalent",
    undefined,
    "the cache is not carried over: every call asks the model",
  ),
};
