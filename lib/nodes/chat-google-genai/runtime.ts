import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import type { RuntimeOf } from "../define";
import { modelCallerOf, requesterOf, sdkBackstopTimeout } from "../shared/openai-connection";
import type { chatGoogleGenerativeAIDefinition } from "./definition";
import { GeminiChat } from "./gemini-chat";

/**
 * Builds a Gemini chat model from a "googleGenerativeAI" credential ({ apiKey, baseURL? }). The base
 * URL is the node's, else the credential's, else Google's; the key goes only to the credential's
 * host (its baseURL's, or generativelanguage.googleapis.com), through the guarded model fetch.
 */
export const buildChatGoogleGenerativeAI: RuntimeOf<typeof chatGoogleGenerativeAIDefinition> = async ({
  params,
  ctx,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const caller = modelCallerOf("Chat model", { label, nodeId });
  const cred = await ctx.resolveCredential(params.credential);
  const apiKey = credentialText(cred, "apiKey");
  if (!apiKey) throw new AppError("not_configured", `${label}: the chosen credential has no apiKey.`);
  const baseUrl = params.baseUrl || credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL.googleGenerativeAI;
  const allowedHosts = assertCredentialHost(cred, baseUrl, requester);
  return new GeminiChat({
    model: params.modelName,
    temperature: params.temperature,
    maxOutputTokens: params.maxOutputTokens,
    topP: params.topP,
    topK: params.topK,
    streaming: params.streaming,
    apiKey,
    baseUrl,
    fetch: ctx.modelFetch?.({ requester, caller, allowedHosts }),
    timeoutMs: sdkBackstopTimeout(ctx.env),
    caller,
  });
};
