import { defineMapping, ignore, oneOf, param, toBoolean, toHttpUrl, toInteger, toNumber, toText } from "../rules";

const perRequest = "streaming is chosen per request (the prediction's `streaming`), not on the model";

/** An Ollama option its OpenAI-compatible /v1 endpoint does not take: ignored, with what to do instead. */
const modelfileOnly = (option: string) =>
  ignore(
    `${option} is not accepted by Ollama's OpenAI-compatible endpoint`,
    undefined,
    `${option} is not carried over: set it in the model's Modelfile (PARAMETER ${option} …) on the Ollama server`,
  );

/** Flowise "ChatOllama" → our Ollama chat model (through Ollama's OpenAI-compatible /v1 endpoint). */
export const chatOllama = defineMapping({
  flowise: "chatOllama",
  type: "chatOllama",
  inputs: {
    baseUrl: param("baseUrl", toHttpUrl),
    modelName: param("model", toText),
    temperature: param("temperature", toNumber),
    topP: param("topP", toNumber),
    stop: param("stop", toText),
    allowImageUploads: param("allowImageUploads", toBoolean),
    streaming: ignore(perRequest),
    // Flowise's default is Ollama's own: nothing to carry over. Another value has no equivalent.
    keepAlive: ignore("a keep-alive other than Ollama's default (5m) has no equivalent", oneOf("5m")),
    jsonMode: ignore("JSON mode has no equivalent", oneOf(false, "false")),
    cache: ignore(
      "a model cache has no equivalent",
      undefined,
      "the cache is not carried over: every call asks the model",
    ),
    topK: modelfileOnly("top_k"),
    mirostat: modelfileOnly("mirostat"),
    mirostatEta: modelfileOnly("mirostat_eta"),
    mirostatTau: modelfileOnly("mirostat_tau"),
    numCtx: modelfileOnly("num_ctx"),
    numGpu: modelfileOnly("num_gpu"),
    numThread: modelfileOnly("num_thread"),
    repeatLastN: modelfileOnly("repeat_last_n"),
    repeatPenalty: modelfileOnly("repeat_penalty"),
    tfsZ: modelfileOnly("tfs_z"),
    // Older ChatOllama versions: the most tokens to generate.
    numPredict: param("maxTokens", toInteger),
  },
});
