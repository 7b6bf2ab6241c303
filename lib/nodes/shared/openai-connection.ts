import { AppError } from "../../errors";
import type { RuntimeArgs } from "../runtime-types";

/** Placeholder key for local servers (Ollama, llama.cpp) that need none; the SDK insists on one. */
const NO_KEY = "not-needed";

/**
 * API key and base URL of an OpenAI-compatible node: its credential first, then the node's base
 * URL, then the server's OPENAI_API_KEY / OPENAI_BASE_URL. A node with a credential never falls
 * back to the server's key. Throws `not_configured` when there is neither a key nor a local server.
 */
export async function resolveOpenAIConnection({ params, ctx, label }: Pick<RuntimeArgs, "params" | "ctx" | "label">) {
  const cred = typeof params.credential === "string" ? await ctx.resolveCredential(params.credential) : {};
  const apiKey = cred.apiKey || (params.credential ? undefined : ctx.env.OPENAI_API_KEY);
  const baseURL = (params.baseURL as string | undefined) || cred.baseURL || ctx.env.OPENAI_BASE_URL;
  if (!apiKey && !baseURL) {
    throw new AppError(
      "not_configured",
      `${label}: no API key. Choose an "openai" credential, set a base URL for a local server, or set OPENAI_API_KEY on the server.`,
    );
  }
  return { apiKey: apiKey || NO_KEY, configuration: baseURL ? { baseURL } : undefined };
}
