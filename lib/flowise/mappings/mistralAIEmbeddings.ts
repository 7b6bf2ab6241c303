import { defineMapping, ignore } from "../rules";
import { embeddingsInputs } from "./embeddingsInputs";

/** Flowise "MistralAI Embeddings" → ours. */
export const mistralAIEmbeddings = defineMapping({
  flowise: "mistralAIEmbeddings",
  type: "mistralAIEmbeddings",
  credential: "credential",
  inputs: {
    ...embeddingsInputs,
    overrideEndpoint: ignore(
      "an endpoint override goes in the Mistral AI credential's base URL",
      undefined,
      "the endpoint override is not carried over: set it as the credential's base URL",
    ),
  },
});
