import { defineNode } from "../define";
import { responseSynthesizer } from "../shared/response-synthesis";
import { refineSynthesizerDefinition } from "./definition";

export const refineSynthesizer = defineNode({
  definition: refineSynthesizerDefinition,
  runtime: async ({ params }) => responseSynthesizer("refine", params),
});
