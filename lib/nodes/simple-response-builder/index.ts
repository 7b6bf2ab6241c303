import { defineNode } from "../define";
import { responseSynthesizer } from "../shared/response-synthesis";
import { simpleResponseBuilderDefinition } from "./definition";

export const simpleResponseBuilder = defineNode({
  definition: simpleResponseBuilderDefinition,
  runtime: async ({ params }) => responseSynthesizer("simple", params),
});
