import { anchor, defineMapping, ignore } from "../rules";

/** Flowise "LLM Chain" → our LLM Chain; its "Output Prediction" (text into another prompt) → our "prediction" output. */
export const llmChain = defineMapping({
  flowise: "llmChain",
  type: "llmChain",
  inputs: {
    model: anchor("model"),
    prompt: anchor("prompt"),
    outputParser: anchor("outputParser"),
    inputModeration: anchor("inputModeration"),
    chainName: ignore("the chain name is only a label"),
  },
  outputs: { llmChain: "chain", outputPrediction: "prediction" },
});
