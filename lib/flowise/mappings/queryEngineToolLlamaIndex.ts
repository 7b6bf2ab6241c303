import { anchor, defineMapping, param, toText } from "../rules";

/** Flowise "QueryEngine Tool" (LlamaIndex) → our Query Engine Tool. */
export const queryEngineToolLlamaIndex = defineMapping({
  flowise: "queryEngineToolLlamaIndex",
  type: "queryEngineTool",
  inputs: {
    baseQueryEngine: anchor("queryEngine"),
    toolName: param("toolName", toText),
    toolDesc: param("description", toText),
  },
  outputs: { queryEngineToolLlamaIndex: "queryEngineTool" },
});
