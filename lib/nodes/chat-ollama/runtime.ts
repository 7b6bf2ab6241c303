import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import { OpenAIChat } from "../shared/openai-chat";
import { modelCallerOf, requesterOf, sdkBackstopTimeout } from "../shared/openai-connection";
import type { chatOllamaDefinition } from "./definition";

/** Sent as the bearer key; Ollama ignores it. */
const NO_KEY = "ollama";

/** `${baseUrl}/v1`, accepting a base URL given with or without /v1 (Flowise users paste both). */
export function ollamaOpenAIUrl(baseUrl: string, requester: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AppError("invalid_graph", `${requester}: the base URL "${baseUrl}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new AppError("invalid_graph", `${requester}: the base URL must start with http:// or https://.`);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${url.origin}${path}/v1`;
}

/**
 * An Ollama chat model through its OpenAI-compatible API (@langchain/ollama is not a dependency).
 * No credential: nothing secret is sent, so the model fetch needs no host binding; the outbound
 * guard (private addresses only where the operator allows them, MODEL_TIMEOUT_MS) still applies.
 * Streams when the run streams its answer, as the OpenAI-compatible node does (OpenAIChat).
 */
export const buildChatOllama: RuntimeOf<typeof chatOllamaDefinition> = async ({ params, ctx, label, nodeId }) => {
  const requester = requesterOf({ label, nodeId });
  const baseURL = ollamaOpenAIUrl(params.baseUrl, requester);
  const stop = (params.stop ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const caller = modelCallerOf("Chat model", { label, nodeId });
  return new OpenAIChat({
    model: params.model,
    temperature: params.temperature,
    ...(params.topP === undefined ? {} : { topP: params.topP }),
    ...(params.maxTokens ? { maxTokens: params.maxTokens } : {}),
    ...(stop.length ? { stop } : {}),
    apiKey: NO_KEY,
    baseURL,
    request: ctx.modelRequest?.({ requester, caller }),
    timeoutMs: sdkBackstopTimeout(ctx.env),
    caller,
  });
};
