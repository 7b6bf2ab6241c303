import { PromptTemplate } from "@langchain/core/prompts";
import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import type { promptTemplateDefinition } from "./definition";
import { chainsById, partialWithValues } from "../shared/prompts";

/**
 * Builds a PromptTemplate with the fixed values filled in; variables given as {{question}},
 * {{chat_history}} or {{nodeId}} of a connected chain are filled each turn; others stay open.
 */
export const buildPromptTemplate: RuntimeOf<typeof promptTemplateDefinition> = async ({
  params,
  label,
  inputs,
  sources,
}) => {
  let prompt: PromptTemplate;
  try {
    prompt = PromptTemplate.fromTemplate(params.template);
  } catch (e) {
    throw new AppError("invalid_graph", `${label}: the template is not valid: ${(e as Error).message}`);
  }
  return partialWithValues(prompt, params.promptValues, chainsById(inputs.chains, sources?.chains));
};
