import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

/**
 * Where an OpenAPI node's spec comes from (pasted, a file or a URL), the server it calls and the
 * headers it sends: the OpenAPI chain's and the OpenAPI toolkit's alike.
 */
export const openApiSpecInputs = [
  {
    kind: "param",
    name: "spec",
    label: "OpenAPI spec (YAML or JSON)",
    type: "code",
    optional: true,
    description: "Paste the spec. Or upload it as a file, or give its URL.",
  },
  {
    kind: "param",
    name: "file",
    label: "OpenAPI spec file",
    type: "file",
    optional: true,
    fileTypes: [".yaml", ".yml", ".json"],
  },
  {
    kind: "param",
    name: "specUrl",
    label: "OpenAPI spec URL",
    type: "string",
    optional: true,
    pattern: "^https?://",
    placeholder: "https://api.example.com/openapi.yaml",
    description: "Fetched when the flow is built.",
  },
  {
    kind: "param",
    name: "serverUrl",
    label: "Server URL override",
    type: "string",
    optional: true,
    pattern: "^https?://",
    additional: true,
    description: "Call this server instead of the spec's first server.",
  },
  {
    kind: "param",
    name: "headersCredential",
    label: "Request headers",
    type: "credential",
    credentialTypes: ["httpHeaders"],
    optional: true,
    additional: true,
    description: "Headers sent with every API call (e.g. an API key).",
  },
] as const;

export const openApiChainDefinition = {
  name: "openApiChain",
  version: 1,
  label: "OpenAPI Chain",
  category: "Chains",
  description:
    "Lets the chat model call one operation of an OpenAPI 3.0 API and answer from its response. It only calls the API; to also chat, wrap it in a Chain Tool under a Tool Agent.",
  inputs: [
    { kind: "anchor", name: "model", label: "Chat model", accepts: [T.chatModel] },
    ...openApiSpecInputs,
    {
      kind: "param",
      name: "timeoutSeconds",
      label: "API timeout (seconds)",
      type: "number",
      default: 20,
      min: 1,
      max: 120,
      additional: true,
    },
    { kind: "anchor", name: "memory", label: "Memory", accepts: [T.memory], optional: true },
  ],
  outputs: [{ name: "chain", label: "OpenAPI chain", types: [T.chain, "OpenAPIChain"] }],
  requiresOneOf: ["spec", "file", "specUrl"],
} as const satisfies NodeDefinitionSpec;
