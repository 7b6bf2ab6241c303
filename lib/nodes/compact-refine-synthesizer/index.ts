import { defineNode } from "../define";
import { responseSynthesizer } from "../shared/response-synthesis";
import { compactRefineSynthesizerDefinition } from "./definition";

export const compactRefineSynthesizer = defineNode({
  definition: compactRefineSynthesizerDefinition,
  runtime: async ({ params }) => responseSynthesizer("compactRefine", params),
});
