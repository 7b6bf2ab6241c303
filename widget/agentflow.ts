// The widget's agentflow helpers are the studio chat's too: browser/client/agentflow-steps.ts.
export {
  answerSteps,
  feedbackEnabled,
  readAction,
  startedStep,
  stepStatusLabel,
} from "@/browser/client/agentflow-steps";
