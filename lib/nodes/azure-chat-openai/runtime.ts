import { AZURE_DEFAULT_API_VERSION } from "@/common/providers/catalogue";
import type { RuntimeOf } from "../define";
import { credentialText } from "../../security/credential-hosts";
import { OpenAIChat } from "../shared/openai-chat";
import { modelCallerOf, resolveOpenAIConnection } from "../shared/openai-connection";
import type { azureChatOpenAIDefinition } from "./definition";

/**
 * Azure OpenAI's Chat Completions: the same body and answers as OpenAI's, at
 * `<endpoint>/openai/deployments/<deployment>/chat/completions?api-version=<version>`, with the key
 * in an `api-key` header. The key goes only to the credential's endpoint host.
 */
export const buildAzureChatOpenAI: RuntimeOf<typeof azureChatOpenAIDefinition> = async ({
  params,
  ctx,
  label,
  nodeId,
}) => {
  const connection = await resolveOpenAIConnection({
    params: { credential: params.credential, timeout: params.timeout },
    ctx,
    label,
    nodeId,
    kind: "Chat model",
  });
  const apiVersion =
    (connection.credential && credentialText(connection.credential, "apiVersion")) || AZURE_DEFAULT_API_VERSION;
  const endpoint = (connection.baseURL ?? "").replace(/\/+$/, "");
  const deployment = encodeURIComponent(params.deployment || params.model);
  return new OpenAIChat({
    model: params.model,
    temperature: params.temperature,
    ...(params.maxTokens ? { maxTokens: params.maxTokens } : {}),
    ...(params.topP === undefined ? {} : { topP: params.topP }),
    apiKey: connection.apiKey,
    url: `${endpoint}/openai/deployments/${deployment}/chat/completions?api-version=${encodeURIComponent(apiVersion)}`,
    authHeaders: { "api-key": connection.apiKey },
    request: ctx.modelRequest?.(connection.guard),
    timeoutMs: connection.timeout,
    caller: modelCallerOf("Chat model", { label, nodeId }),
  });
};
