import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { samplingParams } from "../shared/hosted-chat";

export const azureChatOpenAIDefinition = {
  name: "azureChatOpenAI",
  version: 1,
  label: "Azure OpenAI Chat Model",
  category: "Chat Models",
  description:
    "An OpenAI model deployed on Azure OpenAI: the credential holds the resource's endpoint, key and API version.",
  inputs: [
    { kind: "param", name: "credential", label: "Credential", type: "credential", credentialTypes: ["azureOpenAI"] },
    {
      kind: "param",
      name: "model",
      label: "Model name",
      type: "string",
      default: "gpt-4o-mini",
      suggestions: ["gpt-4o-mini", "gpt-4o", "gpt-4.1", "gpt-4.1-mini", "o4-mini", "gpt-35-turbo"],
      description: "The model behind the deployment (for usage and pricing).",
    },
    {
      kind: "param",
      name: "deployment",
      label: "Deployment name",
      type: "string",
      optional: true,
      pattern: "^[A-Za-z0-9._-]{1,64}$",
      description: "The deployment to call; empty: the model name (Azure's default deployment name).",
    },
    ...samplingParams,
  ],
  outputs: [{ name: "chatModel", label: "Chat model", types: [T.chatModel, T.languageModel] }],
  capabilities: { acceptsImages: { toggle: "allowImageUploads" } },
} as const satisfies NodeDefinitionSpec;
