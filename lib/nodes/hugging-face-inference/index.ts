import { defineNode } from "../define";
import { huggingFaceInferenceDefinition } from "./definition";
import { buildHuggingFaceInference } from "./runtime";

export const huggingFaceInference = defineNode({
  definition: huggingFaceInferenceDefinition,
  runtime: buildHuggingFaceInference,
});
