import { component, defineMapping, param } from "../rules";
import { jsonList } from "../step-rules";

/** Flowise "Tool" (agentflow) → our Tool step; the selected tool becomes our tool node connected to it. */
export const toolAgentflow = defineMapping({
  flowise: "toolAgentflow",
  type: "toolAgentflow",
  step: {},
  richText: true,
  inputs: {
    // A tool we have no equivalent of is left out with a warning: connect one of ours before running.
    toolAgentflowSelectedTool: component("tool", "toolAgentflowSelectedToolConfig", "tool", { missing: "warn" }),
    toolInputArgs: param("toolInputArgs", jsonList),
    toolUpdateState: param("toolUpdateState", jsonList),
  },
});
