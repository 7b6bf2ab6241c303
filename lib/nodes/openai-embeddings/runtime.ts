import { OpenAIEmbeddings } from "@langchain/openai";
import { AppError } from "../../errors";
import type { NodeRuntime } from "../runtime-types";

const NO_KEY = "not-needed";
const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

/**
 * Builds an OpenAI-compatible embeddings client: credential first, then the server's
 * OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_EMBEDDING_MODEL (the same fallbacks as the chat model).
 */
export const buildOpenAIEmbeddings: NodeRuntime = async ({ params, ctx, label }) => {
  const cred = typeof params.credential === "string" ? await ctx.resolveCredential(params.credential) : {};
  const apiKey = cred.apiKey || (params.credential ? undefined : ctx.env.OPENAI_API_KEY);
  const baseURL = (params.baseURL as string | undefined) || cred.baseURL || ctx.env.OPENAI_BASE_URL;
  if (!apiKey && !baseURL) {
    throw new AppError(
      "not_configured",
      `${label}: no API key. Choose an "openai" credential, set a base URL for a local server, or set OPENAI_API_KEY on the server.`,
    );
  }
  return new OpenAIEmbeddings({
    model: (params.model as string | undefined) || ctx.env.OPENAI_EMBEDDING_MODEL || DEFAULT_EMBEDDING_MODEL,
    apiKey: apiKey || NO_KEY,
    configuration: baseURL ? { baseURL } : undefined,
    ...(params.dimensions ? { dimensions: params.dimensions as number } : {}),
    batchSize: params.batchSize as number,
    maxRetries: 1,
    timeout: 120_000,
  });
};
