import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import type { ProviderKindId } from "@/common/providers/catalogue";
import type { RuntimeOf } from "../define";
import { OpenAIChat } from "./openai-chat";
import { modelCallerOf, resolveOpenAIConnection } from "./openai-connection";

/**
 * Chat models of hosted providers that speak OpenAI's Chat Completions (Groq, DeepSeek, Mistral,
 * OpenRouter, Together): one definition shape and one runtime, told apart by the provider's
 * credential kind (its key goes only to the provider's host, or the credential's base URL).
 * Streaming, tool calling and usage come from OpenAIChat, as for the OpenAI-compatible node.
 */
export interface HostedChatProvider<Name extends string> {
  /** The node type, e.g. "chatGroq". */
  name: Name;
  label: string;
  description: string;
  credentialType: ProviderKindId;
  defaultModel: string;
  /** Offered in the model field; any other name is accepted (providers add models every month). */
  models: readonly string[];
}

/** The params every hosted chat model has after its credential and model. */
export const samplingParams = [
  { kind: "param", name: "temperature", label: "Temperature", type: "number", default: 0.7, min: 0, max: 2 },
  {
    kind: "param",
    name: "maxTokens",
    label: "Max tokens",
    type: "number",
    optional: true,
    integer: true,
    min: 1,
    additional: true,
  },
  { kind: "param", name: "topP", label: "Top P", type: "number", optional: true, min: 0, max: 1, additional: true },
  {
    kind: "param",
    name: "timeout",
    label: "Timeout (ms)",
    type: "number",
    optional: true,
    integer: true,
    min: 100,
    additional: true,
    description: "Deadline of one model call. Can only shorten the server's MODEL_TIMEOUT_MS.",
  },
  {
    kind: "param",
    name: "allowImageUploads",
    label: "Allow image uploads",
    type: "boolean",
    default: false,
    description: "Send uploaded images to the model (it must accept images).",
  },
] as const;

export function hostedChatDefinition<const Name extends string>(provider: HostedChatProvider<Name>) {
  return {
    name: provider.name,
    version: 1,
    label: provider.label,
    category: "Chat Models",
    description: provider.description,
    inputs: [
      {
        kind: "param",
        name: "credential",
        label: "Credential",
        type: "credential",
        credentialTypes: [provider.credentialType],
      },
      {
        kind: "param",
        name: "model",
        label: "Model name",
        type: "string",
        default: provider.defaultModel,
        suggestions: [...provider.models],
      },
      ...samplingParams,
    ],
    outputs: [{ name: "chatModel", label: "Chat model", types: [T.chatModel, T.languageModel] }],
    capabilities: { acceptsImages: { toggle: "allowImageUploads" } },
  } as const satisfies NodeDefinitionSpec;
}

type HostedChatDefinition = ReturnType<typeof hostedChatDefinition<string>>;

/** Builds the model with the credential's key, sent only to the provider's host (resolveOpenAIConnection). */
export const buildHostedChat: RuntimeOf<HostedChatDefinition> = async ({ params, ctx, label, nodeId }) => {
  const connection = await resolveOpenAIConnection({
    params: { credential: params.credential, timeout: params.timeout },
    ctx,
    label,
    nodeId,
    kind: "Chat model",
  });
  return new OpenAIChat({
    model: params.model,
    temperature: params.temperature,
    ...(params.maxTokens ? { maxTokens: params.maxTokens } : {}),
    ...(params.topP === undefined ? {} : { topP: params.topP }),
    apiKey: connection.apiKey,
    baseURL: connection.baseURL,
    request: ctx.modelRequest?.(connection.guard),
    timeoutMs: connection.timeout,
    caller: modelCallerOf("Chat model", { label, nodeId }),
  });
};
