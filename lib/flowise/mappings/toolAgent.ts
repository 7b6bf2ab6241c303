import { anchor, defineMapping, ignore, param, toInteger, toText } from "../rules";

/** Flowise "Tool Agent" → our Tool Agent. */
export const toolAgent = defineMapping({
  flowise: "toolAgent",
  type: "toolAgent",
  inputs: {
    tools: anchor("tools"),
    memory: anchor("memory"),
    model: anchor("model"),
    systemMessage: param("systemMessage", toText),
    maxIterations: param("maxIterations", toInteger),
    enableDetailedStreaming: ignore("streamed tool events are always sent when the prediction streams"),
  },
});
