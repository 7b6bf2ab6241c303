import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const webBrowserDefinition = {
  name: "webBrowser",
  version: 1,
  label: "Web Browser",
  category: "Tools",
  description:
    "Reads a web page the agent names and hands it the page's readable text (no scripts run; private addresses only where the operator allows).",
  inputs: [
    {
      kind: "param",
      name: "toolName",
      label: "Tool name",
      type: "string",
      default: "web_browser",
      pattern: "^[A-Za-z0-9_-]{1,64}$",
      additional: true,
    },
    {
      kind: "param",
      name: "toolDescription",
      label: "Tool description",
      type: "text",
      default: "Reads a web page and returns its text. Input: the page's full http(s) URL.",
      additional: true,
    },
    {
      kind: "param",
      name: "maxOutputLength",
      label: "Max output length",
      type: "number",
      default: 8000,
      integer: true,
      min: 200,
      max: 100_000,
      description: "Characters of the page handed to the agent.",
    },
  ],
  outputs: [{ name: "tool", label: "Tool", types: [T.tool] }],
} as const satisfies NodeDefinitionSpec;
