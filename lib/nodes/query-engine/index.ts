import { defineNode } from "../define";
import { RetrieverQueryEngine } from "../shared/query-engine";
import { queryEngineDefinition } from "./definition";

export const queryEngine = defineNode({
  definition: queryEngineDefinition,
  runtime: async ({ params, inputs }) =>
    new RetrieverQueryEngine({
      model: inputs.model,
      retriever: inputs.retriever,
      synthesizer: inputs.responseSynthesizer,
      returnSourceDocuments: params.returnSourceDocuments,
    }),
});
