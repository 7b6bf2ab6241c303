import { AzureOpenAIEmbeddings, OpenAIEmbeddings } from "@langchain/openai";
import { AZURE_DEFAULT_API_VERSION, type ProviderKindId } from "@/common/providers/catalogue";
import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { credentialText } from "../../security/credential-hosts";
import { DT } from "../../vector/node-types";
import type { RuntimeOf } from "../define";
import { resolveOpenAIConnection } from "./openai-connection";

/**
 * Embeddings of hosted providers that speak OpenAI's embeddings API (Mistral, Together), and Azure
 * OpenAI's deployments: one definition shape, the provider told by its credential kind (the key goes
 * only to the provider's host or the credential's base URL). No retries: the deadline is
 * MODEL_TIMEOUT_MS, and a refused key answers at once.
 */
export interface HostedEmbeddingsProvider<Name extends string> {
  name: Name;
  label: string;
  description: string;
  credentialType: ProviderKindId;
  defaultModel: string;
  models: readonly string[];
}

/** Azure OpenAI's extra param: the deployment to call (empty: the model name). */
export const deploymentParam = {
  kind: "param",
  name: "deployment",
  label: "Deployment name",
  type: "string",
  optional: true,
  pattern: "^[A-Za-z0-9._-]{1,64}$",
  description: "The deployment to call; empty: the model name.",
} as const;

export function hostedEmbeddingsDefinition<const Name extends string>(p: HostedEmbeddingsProvider<Name>) {
  return {
    name: p.name,
    version: 1,
    label: p.label,
    category: "Embeddings",
    description: p.description,
    inputs: [
      {
        kind: "param",
        name: "credential",
        label: "Credential",
        type: "credential",
        credentialTypes: [p.credentialType],
      },
      {
        kind: "param",
        name: "model",
        label: "Model name",
        type: "string",
        default: p.defaultModel,
        suggestions: [...p.models],
      },
      {
        kind: "param",
        name: "batchSize",
        label: "Batch size",
        type: "number",
        default: 128,
        integer: true,
        min: 1,
        max: 2048,
        additional: true,
        description: "Texts sent in one request.",
      },
    ],
    outputs: [{ name: "embeddings", label: "Embeddings", types: [DT.embeddings] }],
  } as const satisfies NodeDefinitionSpec;
}

type HostedEmbeddingsDefinition = ReturnType<typeof hostedEmbeddingsDefinition<string>>;

export function hostedEmbeddingsRuntime(azure: boolean): RuntimeOf<HostedEmbeddingsDefinition> {
  return async ({ params, ctx, label, nodeId }) => {
    const connection = await resolveOpenAIConnection({
      params: { credential: params.credential },
      ctx,
      label,
      nodeId,
      kind: "Embeddings model",
    });
    const fetch = ctx.modelFetch?.(connection.guard);
    if (azure) {
      const apiVersion =
        (connection.credential && credentialText(connection.credential, "apiVersion")) || AZURE_DEFAULT_API_VERSION;
      return new AzureOpenAIEmbeddings({
        model: params.model,
        azureOpenAIApiKey: connection.apiKey,
        azureOpenAIBasePath: `${(connection.baseURL ?? "").replace(/\/+$/, "")}/openai/deployments`,
        azureOpenAIApiDeploymentName: (params as { deployment?: string }).deployment || params.model,
        azureOpenAIApiVersion: apiVersion,
        timeout: connection.timeout,
        batchSize: params.batchSize,
        maxRetries: 0,
        configuration: fetch ? { fetch } : {},
      });
    }
    return new OpenAIEmbeddings({
      model: params.model,
      apiKey: connection.apiKey,
      timeout: connection.timeout,
      configuration: { ...(connection.baseURL ? { baseURL: connection.baseURL } : {}), ...(fetch ? { fetch } : {}) },
      batchSize: params.batchSize,
      maxRetries: 0,
    });
  };
}
