import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const customFunctionDefinition = {
  name: "customFunction",
  version: 1,
  label: "Custom JS Function",
  category: "Utilities",
  description:
    "JavaScript run in the sandbox (no process, files, imports or network; time and memory limits) with the question as $input, each input variable as $<name> and the global variables as $vars. Its result ends the flow or fills another prompt's variable.",
  inputs: [
    {
      kind: "param",
      name: "inputVariables",
      label: "Input variables",
      type: "json",
      optional: true,
      variablesFrom: "chains",
      description:
        'Values the code sees as $<name>, e.g. {"city": "Paris"}; a value may be {{question}}, {{chat_history}} or {{nodeId}} of a chain connected to “Chain outputs”.',
    },
    {
      kind: "param",
      name: "code",
      label: "JavaScript function",
      type: "code",
      placeholder: "return 'You asked: ' + $input;",
      description: "The body of an async function; it returns a string (or a JSON value, sent as JSON).",
    },
    {
      kind: "anchor",
      name: "chains",
      label: "Chain outputs",
      accepts: [T.prediction],
      optional: true,
      list: true,
      description: "LLM chains whose answer fills an input variable (named as {{nodeId}}).",
    },
  ],
  outputs: [
    { name: "ending", label: "Ending node", types: [T.chain, "CustomFunction"] },
    { name: "output", label: "Output", types: [T.prediction] },
  ],
} as const satisfies NodeDefinitionSpec;
