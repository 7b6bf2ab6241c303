import { defineMapping, param, toText } from "../rules";

/** Flowise's LlamaIndex response synthesizers → ours, prompts kept ({context}, {query}, {existingAnswer}). */
const refinePrompts = {
  refinePrompt: param("refinePrompt", toText),
  textQAPrompt: param("textQAPrompt", toText),
};

export const compactrefineLlamaIndex = defineMapping({
  flowise: "compactrefineLlamaIndex",
  type: "compactRefineSynthesizer",
  inputs: refinePrompts,
});

export const refineLlamaIndex = defineMapping({
  flowise: "refineLlamaIndex",
  type: "refineSynthesizer",
  inputs: refinePrompts,
});

export const treeSummarizeLlamaIndex = defineMapping({
  flowise: "treeSummarizeLlamaIndex",
  type: "treeSummarizeSynthesizer",
  inputs: { prompt: param("prompt", toText) },
});

export const simpleResponseBuilderLlamaIndex = defineMapping({
  flowise: "simpleResponseBuilderLlamaIndex",
  type: "simpleResponseBuilder",
  inputs: {},
});
