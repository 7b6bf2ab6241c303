import type { RuntimeOf } from "../define";
import type { chatOpenAICompatibleDefinition } from "./definition";
import { modelCallerOf, resolveOpenAIConnection } from "../shared/openai-connection";
import { OpenAIChat } from "../shared/openai-chat";

/**
 * Builds the chat model (OpenAIChat: Chat Completions through the model guard, ctx.modelRequest). Credential
 * first, then the env fallback given by the build context. Tokens stream when the run streams its
 * answer (RunRecorder asks for it); a JSON answer asks the model for one piece.
 */
export const buildChatOpenAICompatible: RuntimeOf<typeof chatOpenAICompatibleDefinition> = async ({
  params,
  ctx,
  label,
  nodeId,
}) => {
  const connection = await resolveOpenAIConnection({ params, ctx, label, nodeId, kind: "Chat model" });
  return new OpenAIChat({
    model: params.model || ctx.env.OPENAI_MODEL || "gpt-4o-mini",
    temperature: params.temperature,
    ...(params.maxTokens ? { maxTokens: params.maxTokens } : {}),
    ...(params.topP === undefined ? {} : { topP: params.topP }),
    ...(params.frequencyPenalty === undefined ? {} : { frequencyPenalty: params.frequencyPenalty }),
    ...(params.presencePenalty === undefined ? {} : { presencePenalty: params.presencePenalty }),
    apiKey: connection.apiKey,
    baseURL: connection.baseURL,
    request: ctx.modelRequest?.(connection.guard),
    timeoutMs: connection.timeout,
    caller: modelCallerOf("Chat model", { label, nodeId }),
  });
};
