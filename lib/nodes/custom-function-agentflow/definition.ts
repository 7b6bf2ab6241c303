import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { flowInputAnchor, flowOutput, updateStateParam } from "../shared/agentflow";

/** Flowise's Custom Function (customFunctionAgentflow): JavaScript in the sandbox (lib/sandbox). */
export const customFunctionAgentflowDefinition = {
  name: "customFunctionAgentflow",
  version: 1,
  label: "Custom Function",
  category: "Agent Flows",
  description:
    "Runs JavaScript (the body of an async function) in a sandbox without network, files, process or imports, within time and memory limits. It sees $input (the question), $flow (sessionId, chatId, chatflowId, input, state), $vars and each input variable as $name, and returns a string or JSON: the output.",
  inputs: [
    flowInputAnchor,
    {
      kind: "param",
      name: "customFunctionInputVariables",
      label: "Input variables",
      type: "json",
      optional: true,
      description:
        'A list of { "variableName", "variableValue" }: the code sees $variableName; values may use variables.',
    },
    {
      kind: "param",
      name: "customFunctionJavascriptFunction",
      label: "JavaScript function",
      type: "code",
      placeholder: 'return "Hello " + $input;',
      description: "The body of an async function; it may await and must return a string or a JSON value.",
    },
    updateStateParam("customFunctionUpdateState"),
  ],
  outputs: [flowOutput],
  capabilities: { agentflow: { role: "step" } },
} as const satisfies NodeDefinitionSpec;
