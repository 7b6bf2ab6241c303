import type { ExecutedNode, HumanInputAction } from "@/common/schemas/prediction-stream";

/**
 * An agentflow's answer in a chat (the widget, the studio's test chat): its steps (the stream's
 * `agentFlowExecutedData`, the run's nodes so far) and its Human Input pause (`action`). Pure: no DOM,
 * no fetch.
 */

/** One step of an agentflow's answer: which node, how it ended, how long it took (not what it computed). */
export interface FlowStep {
  nodeId: string;
  label: string;
  status: ExecutedNode["status"];
  timeMs?: number;
}

/** A step as a chat keeps it: the node's label, how it ended and how long it took (not its data). */
function toStep(n: ExecutedNode): FlowStep {
  return {
    nodeId: n.nodeId,
    label: n.nodeLabel || n.nodeId,
    status: n.status,
    ...(typeof n.timeMs === "number" ? { timeMs: n.timeMs } : {}),
  };
}

/**
 * The steps of one answer from the run's executed nodes so far. A resumed run reports the steps of
 * its earlier answers too: `from` (how many the paused answer showed) leaves those out.
 */
export function answerSteps(executed: unknown, from = 0): FlowStep[] | undefined {
  if (!Array.isArray(executed)) return undefined;
  const nodes = executed.filter(
    (n): n is ExecutedNode =>
      !!n && typeof n === "object" && typeof n.nodeId === "string" && typeof n.status === "string",
  );
  return nodes.slice(Math.min(from, nodes.length)).map(toStep);
}

/** The label of the node a `nextAgentFlow` event says has started, or null when it says one ended. */
export function startedStep(data: unknown): string | null {
  const d = data as { nodeId?: unknown; nodeLabel?: unknown; status?: unknown } | null;
  if (d?.status !== "INPROGRESS") return null;
  return typeof d.nodeLabel === "string" && d.nodeLabel ? d.nodeLabel : typeof d.nodeId === "string" ? d.nodeId : null;
}

/** The `action` event's Human Input pause, when it has the node to resume at. */
export function readAction(data: unknown): HumanInputAction | undefined {
  const a = data as Partial<HumanInputAction> | null;
  return typeof a?.data?.nodeId === "string" && typeof a.data.nodeLabel === "string"
    ? (a as HumanInputAction)
    : undefined;
}

/** Whether the person may add feedback (the node's "Enable feedback", on unless turned off). */
export function feedbackEnabled(action: HumanInputAction): boolean {
  const input = action.data.input as { humanInputEnableFeedback?: unknown } | undefined;
  return input?.humanInputEnableFeedback !== false;
}

/** How a step ended, in words. */
export function stepStatusLabel(status: FlowStep["status"]): string {
  switch (status) {
    case "FINISHED":
      return "done";
    case "STOPPED":
      return "paused";
    case "ERROR":
      return "failed";
    default:
      return "running";
  }
}
