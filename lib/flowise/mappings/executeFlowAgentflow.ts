import { defineMapping, ignore, oneOf, param, toJson } from "../rules";
import { jsonList, optionOf, stepText } from "../step-rules";

/** Flowise "Execute Flow" (agentflow) → our Execute Flow; the Flowise flow it names is not here (choose one of ours). */
export const executeFlowAgentflow = defineMapping({
  flowise: "executeFlowAgentflow",
  type: "executeFlowAgentflow",
  step: {},
  richText: true,
  inputs: {
    executeFlowSelectedFlow: ignore(
      "the flow it runs is a Flowise flow",
      undefined,
      "The flow it runs is a Flowise flow, not one of ours: choose one of your flows in “Flow id”.",
    ),
    executeFlowInput: param("executeFlowInput", stepText),
    executeFlowOverrideConfig: param("executeFlowOverrideConfig", toJson),
    // Flows are run on this server; another base URL (another Flowise) has no equivalent.
    executeFlowBaseURL: ignore("running a flow of another server has no equivalent", oneOf("")),
    executeFlowReturnResponseAs: param("executeFlowReturnResponseAs", optionOf("userMessage", "assistantMessage")),
    executeFlowUpdateState: param("executeFlowUpdateState", jsonList),
  },
});
