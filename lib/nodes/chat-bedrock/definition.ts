import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

/** Model ids offered in the model field; any other id (or an inference profile) is accepted. */
export const BEDROCK_MODELS = [
  "anthropic.claude-3-5-haiku-20241022-v1:0",
  "anthropic.claude-3-5-sonnet-20241022-v2:0",
  "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
  "amazon.nova-pro-v1:0",
  "amazon.nova-lite-v1:0",
  "amazon.nova-micro-v1:0",
  "meta.llama3-1-70b-instruct-v1:0",
  "mistral.mistral-large-2407-v1:0",
  "cohere.command-r-plus-v1:0",
] as const;

/** Flowise's AWSChatBedrock: a model on Amazon Bedrock through the Converse API. */
export const awsChatBedrockDefinition = {
  name: "awsChatBedrock",
  version: 1,
  label: "AWS Bedrock Chat Model",
  category: "Chat Models",
  description:
    "A chat model on Amazon Bedrock (Converse API, SigV4-signed with an AWS access key): streaming and tool calling.",
  inputs: [
    {
      kind: "param",
      name: "credential",
      label: "AWS credential",
      type: "credential",
      credentialTypes: ["awsBedrock"],
      description: "Its region decides where the model runs (bedrock-runtime.<region>.amazonaws.com).",
    },
    {
      kind: "param",
      name: "model",
      label: "Model ID",
      type: "string",
      default: "anthropic.claude-3-5-haiku-20241022-v1:0",
      suggestions: [...BEDROCK_MODELS],
      description: "A Bedrock model ID, an inference profile ID (us.…) or an ARN.",
    },
    { kind: "param", name: "temperature", label: "Temperature", type: "number", default: 0.7, min: 0, max: 1 },
    {
      kind: "param",
      name: "maxTokens",
      label: "Max tokens",
      type: "number",
      default: 1024,
      integer: true,
      min: 1,
      additional: true,
    },
    { kind: "param", name: "topP", label: "Top P", type: "number", optional: true, min: 0, max: 1, additional: true },
    {
      kind: "param",
      name: "streaming",
      label: "Streaming",
      type: "boolean",
      default: true,
      additional: true,
      description: "Off: the answer is asked for whole (Converse), even when the prediction streams.",
    },
    {
      kind: "param",
      name: "allowImageUploads",
      label: "Allow image uploads",
      type: "boolean",
      default: false,
      description: "Send uploaded images to the model (it must accept images).",
    },
  ],
  outputs: [{ name: "chatModel", label: "Chat model", types: [T.chatModel, T.languageModel] }],
  capabilities: { acceptsImages: { toggle: "allowImageUploads" } },
} as const satisfies NodeDefinitionSpec;
