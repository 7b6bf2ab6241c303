import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { refinePromptInputs } from "../compact-refine-synthesizer/definition";
import { QT } from "../shared/query-engine-data";

export const refineSynthesizerDefinition = {
  name: "refineSynthesizer",
  version: 1,
  label: "Refine",
  category: "Chains",
  description:
    "A query engine's response synthesis: an answer from the first chunk, refined with each next chunk (one model call per chunk). Good for detailed answers.",
  inputs: refinePromptInputs,
  outputs: [{ name: "responseSynthesizer", label: "Response synthesizer", types: [QT.responseSynthesizer] }],
} as const satisfies NodeDefinitionSpec;
