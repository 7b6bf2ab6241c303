import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor, flowOutput, updateStateParam } from "../shared/agentflow";

const keyValueList = (name: string, label: string, what: string) =>
  ({
    kind: "param",
    name,
    label,
    type: "json",
    optional: true,
    description: `A list of { "key", "value" }: ${what}; values may use variables.`,
  }) as const;

/** Flowise's HTTP (httpAgentflow): one request through the outbound guard. */
export const httpAgentflowDefinition = {
  name: "httpAgentflow",
  version: 1,
  label: "HTTP",
  category: "Agent Flows",
  description:
    "Sends one HTTP request (method, URL, headers, query, body; variables allowed) through the outbound guard: private addresses are refused unless the operator allows them. The answer's body is the output ({{nodeId.status}}, {{nodeId.data}}); a non-2xx answer fails the node.",
  inputs: [
    flowInputAnchor,
    {
      kind: "param",
      name: "method",
      label: "Method",
      type: "options",
      default: "GET",
      options: [
        { label: "GET", name: "GET" },
        { label: "POST", name: "POST" },
        { label: "PUT", name: "PUT" },
        { label: "DELETE", name: "DELETE" },
        { label: "PATCH", name: "PATCH" },
      ],
    },
    {
      kind: "param",
      name: "url",
      label: "URL",
      type: "string",
      placeholder: "https://api.example.com/items/{{$flow.state.id}}",
    },
    {
      kind: "param",
      name: "credential",
      label: "Request headers",
      type: "credential",
      credentialTypes: ["httpHeaders"],
      optional: true,
      description: "Headers sent with the request (e.g. an API key); the credential must allow the URL's host.",
    },
    keyValueList("headers", "Headers", "request headers (the credential's win)"),
    keyValueList("queryParams", "Query parameters", "added to the URL's query"),
    {
      kind: "param",
      name: "bodyType",
      label: "Body type",
      type: "options",
      default: "json",
      options: [
        { label: "JSON", name: "json" },
        { label: "Raw", name: "raw" },
        { label: "x-www-form-urlencoded", name: "xWwwFormUrlencoded" },
      ],
    },
    {
      kind: "param",
      name: "body",
      label: "Body",
      type: "text",
      optional: true,
      description: "Sent with methods other than GET; may use variables. JSON and form bodies are JSON objects.",
    },
    {
      kind: "param",
      name: "responseType",
      label: "Response type",
      type: "options",
      default: "json",
      options: [
        { label: "JSON", name: "json" },
        { label: "Text", name: "text" },
      ],
    },
    updateStateParam("httpUpdateState"),
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
