import { ChatOpenAI } from "@langchain/openai";
import type { RuntimeOf } from "../define";
import type { chatOpenAICompatibleDefinition } from "./definition";
import { resolveOpenAIConnection } from "../shared/openai-connection";

/**
 * Builds a ChatOpenAI client. Credential first, then the env fallback given by the build context.
 * `streaming` is left unset on purpose: `streaming: true` makes the client estimate token counts
 * with data it downloads (stalls offline), and an explicit `streaming: false` sets
 * `disableStreaming`, which turns off streaming altogether. Unset, tokens still stream: the run's
 * callback handler prefers streaming, so each call goes through the streaming endpoint without
 * that estimate.
 */
export const buildChatOpenAICompatible: RuntimeOf<typeof chatOpenAICompatibleDefinition> = async ({
  params,
  ctx,
  label,
  nodeId,
}) => {
  const connection = await resolveOpenAIConnection({ params, ctx, label, nodeId, kind: "Chat model" });
  return new ChatOpenAI({
    model: params.model || ctx.env.OPENAI_MODEL,
    temperature: params.temperature,
    ...(params.maxTokens ? { maxTokens: params.maxTokens } : {}),
    ...(params.topP === undefined ? {} : { topP: params.topP }),
    ...(params.frequencyPenalty === undefined ? {} : { frequencyPenalty: params.frequencyPenalty }),
    ...(params.presencePenalty === undefined ? {} : { presencePenalty: params.presencePenalty }),
    ...connection,
    streamUsage: false,
    // No retries: the call's deadline is MODEL_TIMEOUT_MS, not a multiple of it, and a refusal
    // or a dead server answers at once.
    maxRetries: 0,
  });
};
