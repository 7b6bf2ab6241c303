import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DEFAULT_REFINE_PROMPT, DEFAULT_TEXT_QA_PROMPT, QT } from "../shared/query-engine-data";

/** The refine and text QA prompts of the compact-and-refine and refine synthesizers. */
export const refinePromptInputs = [
  {
    kind: "param",
    name: "refinePrompt",
    label: "Refine prompt",
    type: "text",
    editor: "prompt",
    default: DEFAULT_REFINE_PROMPT,
    additional: true,
    description: "{query}, {existingAnswer} (the answer so far) and {context} (the next chunks).",
  },
  {
    kind: "param",
    name: "textQAPrompt",
    label: "Text QA prompt",
    type: "text",
    editor: "prompt",
    default: DEFAULT_TEXT_QA_PROMPT,
    additional: true,
    description: "The first answer's prompt: {context} (the chunks) and {query}.",
  },
] as const;

export const compactRefineSynthesizerDefinition = {
  name: "compactRefineSynthesizer",
  version: 1,
  label: "Compact and Refine",
  category: "Chains",
  description:
    "A query engine's response synthesis: the chunks packed into as few prompts as fit, an answer from the first, refined with each next one. The default when a query engine has none.",
  inputs: refinePromptInputs,
  outputs: [{ name: "responseSynthesizer", label: "Response synthesizer", types: [QT.responseSynthesizer] }],
} as const satisfies NodeDefinitionSpec;
