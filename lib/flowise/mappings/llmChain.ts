import { anchor, defineMapping, ignore } from "../rules";

/** Flowise "LLM Chain" → our LLM Chain. Its "Output Prediction" output (text into another prompt) has no equivalent. */
export const llmChain = defineMapping({
  flowise: "llmChain",
  type: "llmChain",
  inputs: {
    model: anchor("model"),
    prompt: anchor("prompt"),
    chainName: ignore("the chain name is only a label"),
  },
  outputs: { llmChain: "chain" },
});
