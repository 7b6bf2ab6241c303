import type { FlowStep } from "@/browser/client/agentflow-steps";
// The server's types, not copies: type-only imports are erased, so neither zod nor lib/ is bundled.
import type { z } from "zod";
import type { WidgetTheme } from "@/common/schemas/chatflow";
import type { publicChatbotConfigResponseSchema } from "@/common/schemas/responses";
import type { FeedbackRating } from "@/common/schemas/feedback";
import type {
  ExecutedNode,
  HumanInputAction,
  SourceDocument,
  ToolStart,
  UsedTool,
} from "@/common/schemas/prediction-stream";
export type { FeedbackRating, WidgetTheme };
/** What the prediction stream's `usedTools`, `sourceDocuments`, `agentFlowExecutedData` and `action` events carry. */
export type { ExecutedNode, HumanInputAction, SourceDocument, ToolStart, UsedTool };
/** GET /api/v1/public-chatbotConfig/{id}. */
export type PublicConfig = z.output<typeof publicChatbotConfigResponseSchema>;

/** Options of `Switchyard.init(…)`. */
export interface WidgetOptions {
  chatflowId: string;
  /** The Switchyard server, e.g. https://flows.example.com (default: where embed.js came from). */
  apiHost?: string;
  /** Overrides the chatflow's theme. */
  theme?: WidgetTheme;
  /** Sent with every prediction (node inputs the chatflow's allow-list permits). */
  overrideConfig?: Record<string, unknown>;
  /** "bubble" (default): a chat bubble in a corner. "full": the chat fills `target`. */
  mode?: "bubble" | "full";
  /** The element (or a CSS selector) a full-page chat fills. */
  target?: HTMLElement | string;
  /** Open the chat at once (bubble mode). */
  open?: boolean;
  /**
   * Overrides the chatflow's saved texts and switches (the studio's live preview of unsaved
   * chatbot settings). Only how the widget looks: the server still decides what it answers.
   */
  preview?: {
    title?: string;
    welcomeMessage?: string;
    starterPrompts?: string[];
    inputPlaceholder?: string;
    showToolCalls?: boolean;
  };
}

/** An upload as the prediction endpoint takes it. */
export interface Upload {
  type: "file" | "audio";
  data: string;
  name: string;
  mime: string;
}

/** One step of an agentflow's answer (shared with the studio's test chat). */
export type { FlowStep };

/** Flowise's answer to a Human Input: approve (proceed) or reject, with optional feedback. */
export interface HumanDecision {
  type: "proceed" | "reject";
  /** The node the run waits at (the action's data.nodeId). */
  startNodeId: string;
  feedback?: string;
}

/** One message of the conversation, as kept in localStorage. */
export interface ChatMessage {
  id: string;
  role: "user" | "bot";
  text: string;
  /** Names of attached images (their data is not kept: localStorage is small). */
  attachments?: string[];
  voice?: boolean;
  usedTools?: UsedTool[];
  /** Tool calls begun (toolStart) whose results have not arrived: running steps, while the answer streams. */
  runningTools?: ToolStart[];
  sourceDocuments?: SourceDocument[];
  /** A bot answer the visitor stopped. */
  stopped?: boolean;
  /** Why the answer failed (shown with a Retry button). */
  error?: string;
  /** An agentflow's answer: the steps its run took (shown collapsed). */
  steps?: FlowStep[];
  /** How many of its run's steps earlier answers showed (a resumed run reports them again). */
  stepsFrom?: number;
  /** The step running now, while the answer streams. */
  runningStep?: string;
  /** An agentflow paused at Human Input: what to decide (Approve / Reject under the message). */
  action?: HumanInputAction;
  /** The decision sent for `action`: kept, so a reload shows it taken (no buttons). */
  decided?: HumanDecision["type"];
  /** A user turn that answered a Human Input (sent as `humanInput`, not as a question). */
  decision?: HumanDecision;
  /** The server's id of a stored answer (the stream's `metadata.chatMessageId`): what a thumb rates. */
  messageId?: string;
  /** The visitor's thumb on this answer and the comment typed after it, as stored (Flowise's feedback). */
  feedback?: { id: string; rating: FeedbackRating; content?: string };
}
