import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { deploymentParam, hostedEmbeddingsDefinition } from "../shared/hosted-embeddings";

const base = hostedEmbeddingsDefinition({
  name: "azureOpenAIEmbeddings",
  label: "Azure OpenAI Embeddings",
  description:
    "Embeddings from an OpenAI model deployed on Azure OpenAI (the credential holds endpoint, key and API version).",
  credentialType: "azureOpenAI",
  defaultModel: "text-embedding-3-small",
  models: ["text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002"],
});

export const azureOpenAIEmbeddingsDefinition = {
  ...base,
  inputs: [...base.inputs.slice(0, 2), deploymentParam, ...base.inputs.slice(2)],
} as const satisfies NodeDefinitionSpec;
