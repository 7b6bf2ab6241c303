import { defineMapping, param, toBoolean } from "../rules";
import { jsonList, offOnly, optionOf, stepText } from "../step-rules";

/** Flowise "Start" (agentflow) → our Start. */
export const startAgentflow = defineMapping({
  flowise: "startAgentflow",
  type: "startAgentflow",
  step: {},
  richText: true,
  inputs: {
    startInputType: param("startInputType", optionOf("chatInput", "formInput")),
    formTitle: param("formTitle", stepText),
    formDescription: param("formDescription", stepText),
    formInputTypes: param("formInputTypes", jsonList),
    startState: param("startState", jsonList),
    startEphemeralMemory: param("ephemeralMemory", toBoolean),
    startPersistState: offOnly("keeping the flow state across the runs of a session (persist state)"),
  },
});
