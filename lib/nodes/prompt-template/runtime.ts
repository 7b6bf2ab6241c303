import { PromptTemplate } from "@langchain/core/prompts";
import { AppError } from "../../errors";
import type { NodeRuntime } from "../runtime-types";
import { partialWithValues } from "../shared/prompts";

/** Builds a PromptTemplate with the fixed values filled in; other variables stay open. */
export const buildPromptTemplate: NodeRuntime = async ({ params, label }) => {
  let prompt: PromptTemplate;
  try {
    prompt = PromptTemplate.fromTemplate(params.template as string);
  } catch (e) {
    throw new AppError("invalid_graph", `${label}: the template is not valid: ${(e as Error).message}`);
  }
  return partialWithValues(prompt, params.promptValues);
};
