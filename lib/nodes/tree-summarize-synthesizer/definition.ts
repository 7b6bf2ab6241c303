import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DEFAULT_TREE_SUMMARIZE_PROMPT, QT } from "../shared/query-engine-data";

export const treeSummarizeSynthesizerDefinition = {
  name: "treeSummarizeSynthesizer",
  version: 1,
  label: "Tree Summarize",
  category: "Chains",
  description:
    "A query engine's response synthesis: the chunks packed and answered pack by pack, those answers packed and answered again, until one answer is left. Good for summaries.",
  inputs: [
    {
      kind: "param",
      name: "prompt",
      label: "Prompt",
      type: "text",
      editor: "prompt",
      default: DEFAULT_TREE_SUMMARIZE_PROMPT,
      additional: true,
      description: "{context} (the chunks, or the answers of the level below) and {query}.",
    },
  ],
  outputs: [{ name: "responseSynthesizer", label: "Response synthesizer", types: [QT.responseSynthesizer] }],
} as const satisfies NodeDefinitionSpec;
