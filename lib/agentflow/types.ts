import { T } from "@/common/nodes/types";
import type { HistoryMessage, ToolStart, UsedTool } from "../flow/types";

/**
 * Types of the agentflow engine (./engine.ts) and of the nodes it runs. An agentflow node's runtime
 * (lib/nodes/*-agentflow) builds an AgentflowStep once per flow build; the engine calls its `run`
 * once per visit, in order, and stores what it returns before the next node starts.
 */

/** The connection type of an agentflow's control edges: "this node runs after that one". */
export const FLOW_EDGE_TYPE = T.flow;

/** Flowise's human-input answer (`humanInput` in a prediction body). */
export interface HumanInputAnswer {
  type: "proceed" | "reject";
  startNodeId: string;
  feedback?: string;
}

/** What a node produced: `content` is what `{{nodeId}}` reads; other keys are `{{nodeId.key}}`. */
export interface StepOutput {
  content: string;
  [key: string]: unknown;
}

/**
 * What a node's side effects left so far in this run (tool and HTTP calls, a sub-flow's answer), by
 * a key the node chooses: stored in the node's executed data as each call finishes, so a run that
 * continues after a crash finds a finished call's result here instead of making the call again.
 */
export interface StepJournal {
  /** The stored result of a call, or undefined when it has not finished before. */
  get(key: string): unknown;
  /** Stores a finished call's result (saved with the run before this resolves). */
  record(key: string, value: unknown): Promise<void>;
}

/** The run's ids (`$flow` of a Custom Function). */
export interface RunIds {
  chatflowId: string;
  chatId: string;
  sessionId: string;
}

/** What an Execute Flow step asks the service for: another flow's answer to `question`. */
export interface SubflowRequest {
  chatflowId: string;
  question: string;
  /** The requesting node, for error messages. */
  nodeId: string;
  label: string;
  overrideConfig?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** Runs another flow (given by the service: lib/services/agentflow-runs.ts), with its owner's rights. */
export type RunSubflow = (request: SubflowRequest) => Promise<{ text: string }>;

/** One pass of an Iteration's sub-graph: its answer (or last output), and the state it left. */
export interface IterationPass {
  content: string;
  state: Record<string, unknown>;
  usedTools: UsedTool[];
  /** The pass stopped at a Human Input (the node, and what the person is asked): the run pauses. */
  paused?: { nodeId: string; nodeLabel: string; description: string };
}

/** The Iteration journal's key of the pass (its index) whose Human Input the paused run waits for. */
export const ITERATION_WAITING_KEY = "waiting";

/**
 * A step's summary of the conversation's earlier messages (LLM and Agent memory): its text, and a
 * digest of the last `tailLength` messages it covers, so a later run finds where it ends in the
 * history and summarises only what came after (lib/nodes/shared/memory-summary.ts).
 */
export interface MemorySummary {
  summary: string;
  tail: string;
  tailLength: number;
}

/** What a step sees of the run when it runs. */
export interface StepContext {
  nodeId: string;
  label: string;
  question: string;
  /** The run's ids. */
  ids: RunIds;
  /** The global variables (`$vars`), read when the run started. */
  vars: Readonly<Record<string, string>>;
  /** This node's side effects so far (see StepJournal). */
  journal: StepJournal;
  /** The session's stored history (oldest first), then the messages of this run so far. */
  chatHistory: HistoryMessage[];
  /** The messages this run added (oldest first): Flowise's runtime chat history. */
  runtimeHistory: HistoryMessage[];
  /** The flow state before this node ($flow.state). */
  state: Readonly<Record<string, unknown>>;
  /** Replaces `{{…}}` variables (./variables.ts); `extra` adds names such as `output`. */
  resolve(template: string, extra?: Record<string, unknown>): string;
  /** The form a Start node in form mode received (Flowise's `form`). */
  form?: Record<string, unknown>;
  /** Set only on the Human Input node a resume names. */
  humanInput?: HumanInputAnswer;
  /** Whether this node ends its path (no control edge leaves it): its model tokens are the answer's. */
  isLast: boolean;
  signal?: AbortSignal;
  onToken?(token: string): void;
  /** A tool call of this node begins (the stream's `toolStart`). */
  onToolStart?(start: ToolStart): void;
  /** Runs another flow (Execute Flow); absent where the run has no service behind it. */
  runSubflow?: RunSubflow;
  /** This step's kept conversation summary (Position.summaries): read, and replaced when it changes. */
  memorySummary?: { get(): MemorySummary | undefined; set(summary: MemorySummary): void };
  /** Runs this node's sub-graph once with `{{$iteration}}` = `item` (Iteration). */
  runIteration?(item: unknown, index: number): Promise<IterationPass>;
}

/** What a step returns; the engine stores it before the next node runs. */
export interface StepOutcome {
  output: StepOutput;
  /** What the node worked on (shown in executed data). */
  input?: unknown;
  /** Flow-state keys this node sets. */
  state?: Record<string, unknown>;
  /** The output handle taken (branching nodes); undefined: every output. */
  branch?: string;
  /** Loop: go back to `nodeId`, at most `max` times; past it the run goes on without looping. */
  loopTo?: { nodeId: string; max: number; fallback?: string };
  /**
   * Human input: stop here until a resume answers. `at`: the Human Input inside this step that waits
   * (an Iteration's pass), which the resume names; none: this step.
   */
  pause?: { description: string; at?: { nodeId: string; nodeLabel: string } };
  /** This node's content is the flow's answer so far (LLM, Direct Reply, a Loop's fallback). */
  answer?: boolean;
  /** Messages this node adds to the run's history (the LLM's question and reply, feedback…). */
  messages?: HistoryMessage[];
  /** The tool calls this node made (the answer's usedTools). */
  usedTools?: UsedTool[];
}

/** The object an agentflow node's runtime builds. */
export interface AgentflowStep {
  readonly agentflowStep: true;
  /** The step keeps a conversation summary: a new run of the chat starts with the last run's summaries. */
  readonly summarisesMemory?: boolean;
  /**
   * The step reads only the run (question, state, outputs) and calls nothing outside it: no model,
   * tool, HTTP or code. Its end is not saved on its own (the next save carries it): a run that dies
   * right after it runs it again, which repeats nothing.
   */
  readonly pure?: boolean;
  run(ctx: StepContext): Promise<StepOutcome>;
}

/** Whether a built node object is an agentflow step (other nodes of the graph are models etc.). */
export function isAgentflowStep(value: unknown): value is AgentflowStep {
  return typeof value === "object" && value !== null && (value as { agentflowStep?: unknown }).agentflowStep === true;
}
