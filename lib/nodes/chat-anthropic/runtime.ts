import { ChatAnthropic } from "@langchain/anthropic";
import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import type { RuntimeOf } from "../define";
import type { chatAnthropicDefinition } from "./definition";
import { modelCallerOf, requesterOf, sdkBackstopTimeout } from "../shared/openai-connection";

/**
 * Builds a ChatAnthropic client from an "anthropic" credential ({ apiKey, baseURL? }). The key goes
 * only to the credential's host (its baseURL, or api.anthropic.com), through the guarded model fetch.
 */
export const buildChatAnthropic: RuntimeOf<typeof chatAnthropicDefinition> = async ({ params, ctx, label, nodeId }) => {
  const requester = requesterOf({ label, nodeId });
  const cred = await ctx.resolveCredential(params.credential);
  const apiKey = credentialText(cred, "apiKey");
  if (!apiKey) throw new AppError("not_configured", `${label}: the chosen credential has no apiKey.`);
  // Always explicit: left unset, the SDK would read ANTHROPIC_BASE_URL from the server's environment.
  const baseURL = credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL.anthropic;
  const allowedHosts = assertCredentialHost(cred, baseURL, requester);
  if (params.extendedThinking && params.maxTokens <= params.budgetTokens)
    throw new AppError(
      "invalid_graph",
      `${requester}: max tokens (${params.maxTokens}) must be above the thinking budget (${params.budgetTokens}): the answer comes after the thinking.`,
    );
  return new ChatAnthropic({
    model: params.model,
    // Extended thinking takes the provider's temperature (Anthropic refuses another one with it).
    ...(params.extendedThinking
      ? { thinking: { type: "enabled" as const, budget_tokens: params.budgetTokens } }
      : { temperature: params.temperature }),
    maxTokens: params.maxTokens,
    apiKey,
    anthropicApiUrl: baseURL,
    clientOptions: {
      fetch: ctx.modelFetch?.({ requester, caller: modelCallerOf("Chat model", { label, nodeId }), allowedHosts }),
      timeout: sdkBackstopTimeout(ctx.env),
    },
    maxRetries: 0,
  });
};
