import type { FlowStep } from "@/browser/client/agentflow-steps";
import type { HumanInputAction, SourceDocument, ToolStart, UsedTool } from "@/common/schemas/prediction-stream";

/** What the prediction stream's `toolStart`, `usedTools` and `sourceDocuments` events carry (inferred from the schemas). */
export type { SourceDocument, ToolStart, UsedTool };
export type ChatMessage = {
  id: number;
  role: "user" | "bot";
  text: string;
  usedTools?: UsedTool[];
  /** Tool calls begun (toolStart) whose results have not arrived yet: shown as running steps. */
  runningTools?: ToolStart[];
  sourceDocuments?: SourceDocument[];
  error?: string;
  /** The node a failure names (`error.details.node`: a model that could not be reached, …). */
  failedNode?: { id: string; label: string };
  streaming?: boolean;
  /** The chatflow version that answered (the stream's metadata). */
  version?: number;
  /** An agentflow paused at a Human Input node: what to decide (answered by resuming the same chat). */
  action?: HumanInputAction;
  /** The decision sent for `action` (its buttons are gone then). */
  decided?: "proceed" | "reject";
  /** The feedback sent with the decision (the node's "Enable feedback"). */
  decisionNote?: string;
  /** An agentflow's answer: the steps its run took (a resumed run's earlier steps left out). */
  steps?: FlowStep[];
  /** How many of its run's steps earlier answers showed (a resumed run reports them again). */
  stepsFrom?: number;
  /** The step running now, while the answer streams. */
  runningStep?: string;
};
