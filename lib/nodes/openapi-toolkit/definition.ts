import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { openApiSpecInputs } from "../openapi-chain/definition";

export const openApiToolkitDefinition = {
  name: "openApiToolkit",
  version: 1,
  label: "OpenAPI Toolkit",
  category: "Tools",
  description:
    "Every operation of an OpenAPI 3.0 spec as a tool for an agent. The arguments the model chooses are checked against the spec before a request is sent, and requests only go to the spec's server.",
  inputs: [
    ...openApiSpecInputs,
    {
      kind: "param",
      name: "returnDirect",
      label: "Return direct",
      type: "boolean",
      default: false,
      description: "The API's answer is the agent's answer, without the model rewording it.",
    },
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
  ],
  // "Toolkit": several tools in one; only agents' Tools lists accept it (not a single-tool anchor).
  outputs: [{ name: "tools", label: "Tools", types: ["Toolkit", "OpenAPIToolkit"] }],
  requiresOneOf: ["spec", "file", "specUrl"],
} as const satisfies NodeDefinitionSpec;
