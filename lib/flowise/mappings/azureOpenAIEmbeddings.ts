import { defineMapping, ignore } from "../rules";
import { embeddingsInputs } from "./embeddingsInputs";

/** Flowise "Azure OpenAI Embeddings" → ours (instance, deployment and version go in the Azure OpenAI credential and the node). */
export const azureOpenAIEmbeddings = defineMapping({
  flowise: "azureOpenAIEmbeddings",
  type: "azureOpenAIEmbeddings",
  credential: "credential",
  inputs: {
    ...embeddingsInputs,
    basepath: ignore(
      "a base path goes in the Azure OpenAI credential's endpoint",
      undefined,
      "the base path is not carried over: set the endpoint in the Azure OpenAI credential",
    ),
  },
});
