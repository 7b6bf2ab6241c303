import { defineNode } from "../define";
import type { QueryEngineToolSpec } from "../shared/query-engine";
import { queryEngineToolDefinition } from "./definition";

export const queryEngineTool = defineNode({
  definition: queryEngineToolDefinition,
  runtime: async ({ params, inputs }): Promise<QueryEngineToolSpec> => ({
    kind: "queryEngineTool",
    name: params.toolName,
    description: params.description,
    engine: inputs.queryEngine,
  }),
});
