import { ChatAnthropic } from "@langchain/anthropic";
import { AppError } from "../../errors";
import type { NodeRuntime } from "../runtime-types";

/** Builds a ChatAnthropic client from an "anthropic" credential ({ apiKey, baseURL? }). */
export const buildChatAnthropic: NodeRuntime = async ({ params, ctx, label }) => {
  const cred = await ctx.resolveCredential(params.credential as string);
  if (!cred.apiKey) throw new AppError("not_configured", `${label}: the chosen credential has no apiKey.`);
  return new ChatAnthropic({
    model: params.model as string,
    temperature: params.temperature as number,
    maxTokens: params.maxTokens as number,
    apiKey: cred.apiKey,
    ...(cred.baseURL ? { anthropicApiUrl: cred.baseURL } : {}),
    maxRetries: 1,
  });
};
