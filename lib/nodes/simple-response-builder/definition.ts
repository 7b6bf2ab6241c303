import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DEFAULT_TEXT_QA_PROMPT, QT } from "../shared/query-engine-data";

export const simpleResponseBuilderDefinition = {
  name: "simpleResponseBuilder",
  version: 1,
  label: "Simple Response Builder",
  category: "Chains",
  description: "A query engine's response synthesis: every chunk in one prompt, one model call.",
  inputs: [
    {
      kind: "param",
      name: "textQAPrompt",
      label: "Text QA prompt",
      type: "text",
      editor: "prompt",
      default: DEFAULT_TEXT_QA_PROMPT,
      additional: true,
      description: "{context} (the chunks) and {query}.",
    },
  ],
  outputs: [{ name: "responseSynthesizer", label: "Response synthesizer", types: [QT.responseSynthesizer] }],
} as const satisfies NodeDefinitionSpec;
