import { OpenAIEmbeddings } from "@langchain/openai";
import type { RuntimeOf } from "../define";
import type { openAIEmbeddingsDefinition } from "./definition";
import { resolveOpenAIConnection } from "../shared/openai-connection";

const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

/**
 * Builds an OpenAI-compatible embeddings client: credential first, then the server's
 * OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_EMBEDDING_MODEL (the same fallbacks as the chat model).
 */
export const buildOpenAIEmbeddings: RuntimeOf<typeof openAIEmbeddingsDefinition> = async ({
  params,
  ctx,
  label,
  nodeId,
}) => {
  const { apiKey, timeout, baseURL, guard } = await resolveOpenAIConnection({
    params,
    ctx,
    label,
    nodeId,
    kind: "Embeddings model",
  });
  return new OpenAIEmbeddings({
    model: params.model || ctx.env.OPENAI_EMBEDDING_MODEL || DEFAULT_EMBEDDING_MODEL,
    apiKey,
    timeout,
    configuration: { ...(baseURL ? { baseURL } : {}), fetch: ctx.modelFetch?.(guard) },
    ...(params.dimensions ? { dimensions: params.dimensions } : {}),
    batchSize: params.batchSize,
    // No retries: the call's deadline is MODEL_TIMEOUT_MS, not a multiple of it, and a refusal
    // or a dead server answers at once.
    maxRetries: 0,
  });
};
