import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const mcpToolsDefinition = {
  name: "mcpTools",
  version: 1,
  label: "MCP Tools",
  category: "Tools",
  description:
    "The tools of a remote MCP server (Streamable HTTP, or the older SSE transport) for an agent. Pick the tools to offer; each call goes to the server through the outbound rules.",
  inputs: [
    {
      kind: "param",
      name: "serverUrl",
      label: "MCP server URL",
      type: "string",
      pattern: "^https?://",
      placeholder: "https://mcp.example.com/mcp",
    },
    {
      kind: "param",
      name: "tools",
      label: "Tools to offer",
      type: "json",
      optional: true,
      description: 'Names of the server\'s tools the agent may call, e.g. ["search", "fetch"] (default: all of them).',
    },
    {
      kind: "param",
      name: "headersCredential",
      label: "Request headers",
      type: "credential",
      credentialTypes: ["httpHeaders"],
      optional: true,
      description: "Headers sent to the server (e.g. Authorization); the credential must list the server's host.",
    },
    {
      kind: "param",
      name: "timeoutSeconds",
      label: "Timeout (seconds)",
      type: "number",
      default: 30,
      min: 1,
      max: 300,
      additional: true,
      description: "Longest wait for the server: listing its tools, or one tool call.",
    },
  ],
  // "Toolkit": several tools in one; only agents' Tools lists accept it.
  outputs: [{ name: "toolkit", label: "Tools", types: ["Toolkit", "MCPTools"] }],
} as const satisfies NodeDefinitionSpec;
