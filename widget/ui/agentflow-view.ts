import { el } from "../render-markdown";
import { feedbackEnabled, stepStatusLabel } from "@/browser/client/agentflow-steps";
import type { FlowStep, HumanDecision, HumanInputAction } from "../types";
import { icon } from "./icons";

/** What the Human Input panel of a paused answer offers. */
export interface DecisionOptions {
  /** Whether it may still be answered (the last message: a later question started another run). */
  open: boolean;
  /** Sends the decision; absent while an answer streams (the buttons are disabled then). */
  onDecide?: (type: HumanDecision["type"], feedback: string) => void;
}

const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** The step running now, while the answer streams: "Running Check the product…". */
export function runningStepView(label: string): HTMLElement {
  return el("div", { class: "steps", role: "status", "aria-live": "polite" }, [
    el("div", { class: "step" }, [el("span", { class: "spin", "aria-hidden": "true" }), el("span", {}, [`${label}…`])]),
  ]);
}

/** The agentflow's steps of one answer, collapsed: each node's label, how it ended and its time. */
export function flowStepsView(steps: FlowStep[]): HTMLElement {
  const items = steps.map((s) => {
    const status = s.status.toLowerCase();
    const time = s.timeMs !== undefined && s.status === "FINISHED" ? ` · ${duration(s.timeMs)}` : "";
    return el("li", { "data-status": status, "data-node": s.nodeId }, [
      el("span", { class: `dot ${status}`, "aria-hidden": "true" }),
      el("span", { class: "name" }, [s.label]),
      el("span", { class: "state" }, [`${stepStatusLabel(s.status)}${time}`]),
    ]);
  });
  return el("details", { class: "flow-steps" }, [
    el("summary", {}, [icon("steps"), `Steps (${steps.length})`]),
    el("ol", { "aria-label": "Steps" }, items),
  ]);
}

const DECIDED = { proceed: "Approved", reject: "Rejected" } as const;

/**
 * The Human Input of a paused answer: its Approve / Reject buttons and, when the node enables it,
 * a feedback box (Flowise's approve and reject buttons). Answered, only the decision is shown.
 */
export function decisionView(action: HumanInputAction, decided: HumanDecision["type"] | undefined, o: DecisionOptions) {
  const label = action.data.nodeLabel;
  if (decided || !o.open)
    return el("p", { class: `decided ${decided ?? "unanswered"}`, "data-decided": decided ?? "none" }, [
      decided ? `${DECIDED[decided]} at “${label}”.` : "Not answered: a later message started a new run.",
    ]);
  const feedbackId = `sy-feedback-${action.id}`;
  const feedback = feedbackEnabled(action)
    ? el("textarea", { id: feedbackId, class: "feedback", rows: "2", placeholder: "Add a note for the next step" })
    : null;
  const approve = el("button", { type: "button", class: "approve" }, [icon("check"), "Approve"]);
  const reject = el("button", { type: "button", class: "reject" }, [icon("close"), "Reject"]);
  for (const [button, type] of [
    [approve, "proceed"],
    [reject, "reject"],
  ] as const) {
    button.disabled = !o.onDecide;
    button.addEventListener("click", () => {
      approve.disabled = reject.disabled = true;
      o.onDecide?.(type, feedback?.value ?? "");
    });
  }
  return el("div", { class: "decision", role: "group", "aria-label": `Decision for ${label}` }, [
    feedback ? el("label", { for: feedbackId }, ["Feedback (optional)"]) : null,
    feedback,
    el("div", { class: "actions" }, [approve, reject]),
  ]);
}
