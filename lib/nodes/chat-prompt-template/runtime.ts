import { ChatPromptTemplate } from "@langchain/core/prompts";
import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import type { chatPromptTemplateDefinition } from "./definition";
import { chainsById, partialWithValues } from "../shared/prompts";

/** Builds a ChatPromptTemplate (system + human) with the fixed values filled in. */
export const buildChatPromptTemplate: RuntimeOf<typeof chatPromptTemplateDefinition> = async ({
  params,
  label,
  inputs,
  sources,
}) => {
  let prompt: ChatPromptTemplate;
  try {
    prompt = ChatPromptTemplate.fromMessages([
      ["system", params.systemMessage],
      ["human", params.humanMessage],
    ]);
  } catch (e) {
    throw new AppError("invalid_graph", `${label}: a template is not valid: ${(e as Error).message}`);
  }
  return partialWithValues(prompt, params.promptValues, chainsById(inputs.chains, sources?.chains));
};
