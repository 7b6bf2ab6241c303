import { defineMapping, param } from "../rules";
import { jsonList, stepText } from "../step-rules";

/**
 * Flowise "Custom Function" (agentflow) → our Custom Function, whose JavaScript runs in the sandbox
 * (QuickJS on a worker thread: no network, files, process or imports; time and memory limits), never
 * in the server's process as Flowise runs it. The code is kept exactly as written.
 */
export const customFunctionAgentflow = defineMapping({
  flowise: "customFunctionAgentflow",
  type: "customFunctionAgentflow",
  step: {},
  richText: { except: ["customFunctionJavascriptFunction"] },
  inputs: {
    customFunctionInputVariables: param("customFunctionInputVariables", jsonList),
    customFunctionJavascriptFunction: param("customFunctionJavascriptFunction", stepText),
    customFunctionUpdateState: param("customFunctionUpdateState", jsonList),
  },
});
