import { defineNode } from "../define";
import { AppError } from "@/common/errors";
import { SubQuestionQueryEngine } from "../shared/sub-question";
import { subQuestionQueryEngineDefinition } from "./definition";

export const subQuestionQueryEngine = defineNode({
  definition: subQuestionQueryEngineDefinition,
  runtime: async ({ label, params, inputs }) => {
    const names = inputs.queryEngineTools.map((t) => t.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) throw new AppError("invalid_graph", `${label}: two query engine tools are named "${twice}".`);
    return new SubQuestionQueryEngine({
      label,
      model: inputs.model,
      tools: inputs.queryEngineTools,
      synthesizer: inputs.responseSynthesizer,
      returnSourceDocuments: params.returnSourceDocuments,
    });
  },
});
