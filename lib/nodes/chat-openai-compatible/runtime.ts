import { ChatOpenAI } from "@langchain/openai";
import { AppError } from "../../errors";
import type { NodeRuntime } from "../runtime-types";

/** Placeholder key for local servers (Ollama, llama.cpp) that need none; the SDK insists on one. */
const NO_KEY = "not-needed";

/**
 * Builds a ChatOpenAI client. Credential first, then the env fallback given by the build context.
 * `streaming` is left unset on purpose: `streaming: true` makes the client estimate token counts
 * with data it downloads (stalls offline), and an explicit `streaming: false` sets
 * `disableStreaming`, which turns off streaming altogether. Unset, tokens still stream: the run's
 * callback handler prefers streaming, so each call goes through the streaming endpoint without
 * that estimate.
 */
export const buildChatOpenAICompatible: NodeRuntime = async ({ params, ctx, label }) => {
  const cred = typeof params.credential === "string" ? await ctx.resolveCredential(params.credential) : {};
  const apiKey = cred.apiKey || (params.credential ? undefined : ctx.env.OPENAI_API_KEY);
  const baseURL = (params.baseURL as string | undefined) || cred.baseURL || ctx.env.OPENAI_BASE_URL;
  if (!apiKey && !baseURL) {
    throw new AppError(
      "not_configured",
      `${label}: no API key. Choose an "openai" credential, set a base URL for a local server, or set OPENAI_API_KEY on the server.`,
    );
  }
  return new ChatOpenAI({
    model: (params.model as string | undefined) || ctx.env.OPENAI_MODEL,
    temperature: params.temperature as number,
    ...(params.maxTokens ? { maxTokens: params.maxTokens as number } : {}),
    apiKey: apiKey || NO_KEY,
    configuration: baseURL ? { baseURL } : undefined,
    streamUsage: false,
    maxRetries: 1,
    timeout: 120_000,
  });
};
