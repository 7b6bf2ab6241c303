import { randomUUID } from "node:crypto";
import { AppError } from "@/common/errors";
import type { ExecutedNode, HumanInputAction } from "@/common/schemas/prediction-stream";
import type { HistoryMessage, ToolStart, UsedTool } from "../flow/types";
import type { FlowGraph } from "@/common/agentflow/graph";
import { edgeOutput, loopTargetId, rootsOf } from "@/common/agentflow/graph";
import { decideEdge, initialPosition, loopBack, type Position } from "./position";
import {
  type AgentflowStep,
  type HumanInputAnswer,
  ITERATION_WAITING_KEY,
  type IterationPass,
  type RunSubflow,
  type StepJournal,
  type StepOutcome,
} from "./types";
import { resolveVariables, type VariableScope } from "@/common/agentflow/variables";
import { type OpenJournal, prefixedJournal, savingJournal, takeUnfinishedCalls } from "./journal";
import { inSpan, tracingOn } from "../telemetry/traces";
import type { ModelTokens } from "../usage/prices";
import { UsageRecorder } from "../usage/recorder";
import type { NodeUsage } from "@/common/schemas/execution";

/**
 * The agentflow engine: runs the ready steps one at a time, each once its incoming control edges are
 * decided; a branching step decides which of its edges are taken (untaken branches never run); a
 * Loop sends the run back to an earlier step at most N times. After every step the execution (state,
 * position, executed data) is saved before the next starts, so a run continues from the last finished
 * step in any process; a Human Input step stops the run (paused) until a resume answers it. A step's
 * side effects (tool and HTTP calls) are saved as each finishes (./journal.ts), so a run continued
 * after a crash does not make a finished call again. An Iteration runs its sub-graph through this
 * same loop, once per item.
 */

export type { ExecutedNode, HumanInputAction };

export type ExecutionStatus = "running" | "paused" | "finished" | "error" | "timeout";

/** What is saved after every step. */
export interface ExecutionSnapshot {
  status: ExecutionStatus;
  state: Record<string, unknown>;
  position: Position;
  executedData: ExecutedNode[];
  action?: HumanInputAction | null;
  error?: string | null;
}

export interface EngineRun {
  graph: FlowGraph;
  /** The built step of every step node. */
  stepOf(nodeId: string): AgentflowStep;
  ids: { chatflowId: string; chatId: string; sessionId: string };
  question: string;
  /** Stored session history and request history, oldest first. */
  history: HistoryMessage[];
  form?: Record<string, unknown>;
  humanInput?: HumanInputAnswer;
  /** Where the run starts: a new position, or the stored one of a paused or interrupted run. */
  start: Pick<ExecutionSnapshot, "state" | "position" | "executedData">;
  /** The most steps one run may take (loops included). */
  maxSteps: number;
  save(snapshot: ExecutionSnapshot): Promise<void>;
  signal?: AbortSignal;
  onToken?(token: string): void;
  /** Flowise's progress events: agentFlowEvent, nextAgentFlow, agentFlowExecutedData, action. */
  onEvent?(name: string, data: unknown): void;
  /** A tool call of a step begins. */
  onToolStart?(start: ToolStart): void;
  /** Global variables (`{{$vars.name}}`), read when the run starts. */
  vars?: Readonly<Record<string, string>>;
  /** Runs another flow (Execute Flow). */
  runSubflow?: RunSubflow;
  /** A step's model cost in USD at the prices in force (null: a model has no price); absent: not priced. */
  priceUsage?(models: ModelTokens[]): Promise<number | null>;
  /** Inside an Iteration: the current item, the ids of the steps around it, and its journal. */
  pass?: { item: unknown; outerIds: ReadonlySet<string>; journalFor(nodeId: string): OpenJournal };
}

export interface EngineResult {
  status: "finished" | "paused";
  text: string;
  state: Record<string, unknown>;
  executedData: ExecutedNode[];
  action?: HumanInputAction;
  /** The tool calls of the steps this call ran, in order. */
  usedTools: UsedTool[];
}

interface RunState {
  state: Record<string, unknown>;
  position: Position;
  executedData: ExecutedNode[];
}

function labelOf(run: EngineRun, id: string): string {
  const step = run.graph.steps.get(id);
  return step?.node.data.label || step?.def.label || id;
}

/** A step's span (`node <label>`), with the node's id and kind: model, tool and HTTP calls it makes nest under it. */
function traceStep(run: EngineRun, id: string, step: () => Promise<StepOutcome>): Promise<StepOutcome> {
  const def = run.graph.steps.get(id)?.def as { name?: string } | undefined;
  return inSpan(
    `node ${labelOf(run, id)}`,
    { "switchyard.node.id": id, "switchyard.node.name": def?.name, "switchyard.node.label": labelOf(run, id) },
    step,
  );
}

function stepLimitError(run: EngineRun, pos: Position): AppError {
  const loop = pos.lastLoop;
  const what = loop ? `loop "${labelOf(run, loop)}" (${loop})` : "the flow";
  return new AppError(
    "unprocessable",
    `The run took more than ${run.maxSteps} steps, going round ${what}: lower its Max Loop Count or end the loop sooner.`,
    { details: loop ? [{ nodeId: loop, message: "step limit reached" }] : undefined },
  );
}

function scopeFor(run: EngineRun, rs: RunState): VariableScope {
  return {
    question: run.question,
    chatHistory: [...run.history, ...rs.position.runtimeHistory],
    runtimeMessagesLength: Math.max(0, rs.position.runtimeHistory.length - 1),
    state: rs.state,
    flow: run.ids,
    ...(run.form ? { form: run.form } : {}),
    outputs: rs.position.outputs,
    nodeIds: new Set([...run.graph.steps.keys(), ...(run.pass?.outerIds ?? [])]),
    ...(run.vars ? { vars: run.vars } : {}),
    ...(run.pass ? { iteration: run.pass.item } : {}),
  };
}

/** The journal of a step: its pass's (inside an Iteration), else kept in the run's executed data. */
function journalOf(run: EngineRun, rs: RunState, id: string, startedAt: Date): OpenJournal {
  if (run.pass) return run.pass.journalFor(id);
  return savingJournal(takeUnfinishedCalls(rs.executedData, id), async (calls) => {
    const entry = executedEntry(run, rs, id, startedAt, "INPROGRESS", { calls });
    await run.save({ ...rs, executedData: [...rs.executedData, entry], status: "running", action: null });
  });
}

/** Where a pass paused at a Human Input stood, kept in its Iteration's journal. */
type PausedPass = Pick<ExecutionSnapshot, "state" | "position" | "executedData">;

/**
 * One pass of an Iteration's sub-graph with `item` as `{{$iteration}}`, through this engine. A pass
 * that reaches a Human Input pauses: its position is journaled and the pass answers `paused`, and
 * the Iteration pauses the run (its finished passes stay journaled, so a resume does not run them).
 */
async function runPass(
  run: EngineRun,
  rs: RunState,
  id: string,
  journal: StepJournal,
  item: unknown,
  index: number,
): Promise<IterationPass> {
  const sub = run.graph.subgraphs.get(id)!;
  const outerIds = new Set([...run.graph.steps.keys(), ...(run.pass?.outerIds ?? [])]);
  // A pass that paused at a Human Input goes on from where it stopped; the answer is its own only
  // when the run waits for this pass (another paused pass meets its Human Input again).
  const paused = journal.get(`${index}/paused`) as PausedPass | undefined;
  const answer = rs.position.waiting && journal.get(ITERATION_WAITING_KEY) === index ? run.humanInput : undefined;
  const start = paused ?? {
    state: { ...rs.state },
    position: {
      ...initialPosition("", run.question),
      ready: rootsOf(sub),
      outputs: { ...rs.position.outputs },
      ...(rs.position.summaries ? { summaries: rs.position.summaries } : {}),
    },
    executedData: [],
  };
  let last: ExecutionSnapshot | undefined;
  const result = await runAgentflow({
    ...run,
    graph: sub,
    humanInput: paused ? answer : undefined,
    start,
    save: async (snapshot) => {
      last = snapshot;
    },
    onToken: undefined,
    onEvent: undefined,
    pass: { item, outerIds, journalFor: (nodeId) => prefixedJournal(journal, `${index}/${nodeId}/`) },
  });
  // Summaries its steps made are the run's (the chat's next run starts with them).
  if (last?.position.summaries) rs.position.summaries = { ...rs.position.summaries, ...last.position.summaries };
  if (result.status === "paused") {
    const { state, position, executedData } = structuredClone(last!);
    await journal.record(`${index}/paused`, { state, position, executedData } satisfies PausedPass);
    const waiting = result.action!.data;
    return {
      content: "",
      state: result.state,
      usedTools: result.usedTools,
      paused: { nodeId: waiting.nodeId, nodeLabel: waiting.nodeLabel, description: result.text },
    };
  }
  const lastOutput = result.executedData.at(-1)?.data.output as { content?: unknown } | undefined;
  const content = result.text || (typeof lastOutput?.content === "string" ? lastOutput.content : "");
  return { content, state: result.state, usedTools: result.usedTools };
}

async function runStep(run: EngineRun, rs: RunState, id: string, journal: OpenJournal): Promise<StepOutcome> {
  const scope = scopeFor(run, rs);
  const isLast = (run.graph.out.get(id) ?? []).length === 0;
  // The answer goes to the Human Input the run waits at, or to the Iteration holding it (runPass).
  const resumed = rs.position.waiting === id || (rs.position.waiting !== undefined && run.graph.subgraphs.has(id));
  const humanInput = run.humanInput && resumed ? run.humanInput : undefined;
  return run.stepOf(id).run({
    nodeId: id,
    label: labelOf(run, id),
    question: run.question,
    ids: run.ids,
    vars: run.vars ?? {},
    journal,
    chatHistory: scope.chatHistory,
    runtimeHistory: rs.position.runtimeHistory,
    state: rs.state,
    resolve: (template, extra) => resolveVariables(template, { ...scope, ...(extra ?? {}) }),
    ...(run.form ? { form: run.form } : {}),
    ...(humanInput ? { humanInput } : {}),
    isLast,
    ...(run.signal ? { signal: run.signal } : {}),
    ...(isLast && run.onToken ? { onToken: run.onToken } : {}),
    ...(run.onToolStart ? { onToolStart: run.onToolStart } : {}),
    ...(run.runSubflow ? { runSubflow: run.runSubflow } : {}),
    memorySummary: {
      get: () => rs.position.summaries?.[id],
      set: (summary) => {
        rs.position.summaries = { ...rs.position.summaries, [id]: summary };
      },
    },
    ...(run.graph.subgraphs.has(id)
      ? { runIteration: (item: unknown, index: number) => runPass(run, rs, id, journal, item, index) }
      : {}),
  });
}

/** What an executed-data entry holds besides its status: the outcome, error, journaled calls, model usage. */
interface EntryParts {
  outcome?: StepOutcome;
  error?: string;
  calls?: Record<string, unknown>;
  usage?: NodeUsage;
}

function executedEntry(
  run: EngineRun,
  rs: RunState,
  id: string,
  startedAt: Date,
  status: ExecutedNode["status"],
  { outcome, error, calls, usage }: EntryParts = {},
): ExecutedNode {
  const step = run.graph.steps.get(id)!;
  return {
    nodeId: id,
    nodeLabel: labelOf(run, id),
    data: {
      id,
      name: step.def.name,
      ...(outcome?.input !== undefined ? { input: outcome.input } : {}),
      ...(outcome ? { output: outcome.output } : {}),
      // The output a branching step took (the studio lights that edge of the run's path).
      ...(outcome?.branch !== undefined ? { branch: outcome.branch } : {}),
      ...(outcome?.usedTools?.length ? { usedTools: outcome.usedTools } : {}),
      ...(calls && Object.keys(calls).length ? { calls } : {}),
      ...(usage ? { usage } : {}),
      state: { ...rs.state },
    },
    previousNodeIds: (run.graph.in.get(id) ?? []).map((e) => e.source),
    status,
    ...(outcome?.state ? { stateChange: outcome.state } : {}),
    ...(error ? { error } : {}),
    startedAt: startedAt.toISOString(),
    timeMs: Date.now() - startedAt.getTime(),
  };
}

/** A step's model tokens (undefined when it called no model), priced when the run prices usage. */
async function stepUsage(run: EngineRun, meter: UsageRecorder): Promise<NodeUsage | undefined> {
  const usage = meter.tally.summary();
  if (!usage) return undefined;
  // A price table that cannot be read leaves the cost out; it does not fail the step.
  const costUsd = run.priceUsage ? await run.priceUsage(usage.models).catch(() => undefined) : undefined;
  return {
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    estimated: usage.estimated,
    models: usage.models,
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/** Decides the step's outgoing edges, or goes back for a Loop. */
function advance(run: EngineRun, rs: RunState, id: string, outcome: StepOutcome): void {
  const pos = rs.position;
  if (outcome.loopTo) {
    const count = pos.loops[id] ?? 0;
    if (count < outcome.loopTo.max) {
      pos.loops[id] = count + 1;
      pos.lastLoop = id;
      const target = loopTargetId(outcome.loopTo.nodeId, run.graph);
      // Validation refuses a target that is no earlier step; a graph saved before it is refused here.
      if (!target)
        throw new AppError("invalid_graph", `Loop "${labelOf(run, id)}" (${id}) goes back to no node of the flow.`);
      loopBack(run.graph, pos, target);
      return;
    }
    if (outcome.loopTo.fallback) pos.answer = outcome.loopTo.fallback;
  }
  for (const e of run.graph.out.get(id) ?? []) {
    const taken = outcome.branch === undefined || edgeOutput(e) === outcome.branch;
    decideEdge(run.graph, pos, e.id, e.target, taken);
  }
}

function humanInputAction(run: EngineRun, id: string, outcome: StepOutcome): HumanInputAction {
  const at = outcome.pause?.at;
  return {
    id: randomUUID(),
    mapping: { approve: "Proceed", reject: "Reject" },
    elements: [
      { type: "agentflowv2-approve-button", label: "Proceed" },
      { type: "agentflowv2-reject-button", label: "Reject" },
    ],
    data: { nodeId: at?.nodeId ?? id, nodeLabel: at?.nodeLabel ?? labelOf(run, id), input: outcome.input },
  };
}

/**
 * Stops the run at a Human Input step (or an Iteration whose pass reached one): stored paused, its
 * action answered, the step's journal kept in its entry for the resume.
 */
async function pause(
  run: EngineRun,
  rs: RunState,
  id: string,
  outcome: StepOutcome,
  startedAt: Date,
  journal: OpenJournal,
  usage?: NodeUsage,
) {
  const action = humanInputAction(run, id, outcome);
  const description = outcome.pause!.description;
  const entry = executedEntry(run, rs, id, startedAt, "STOPPED", {
    outcome: { ...outcome, output: { ...outcome.output, humanInputAction: action } },
    calls: journal.calls(),
    ...(usage ? { usage } : {}),
  });
  rs.executedData.push(entry);
  rs.position.waiting = action.data.nodeId;
  rs.position.ready = [id, ...rs.position.ready.filter((r) => r !== id)];
  await run.save({ ...rs, status: "paused", action });
  if (description) run.onToken?.(description);
  run.onEvent?.("nextAgentFlow", { nodeId: id, nodeLabel: entry.nodeLabel, status: "STOPPED" });
  run.onEvent?.("agentFlowExecutedData", rs.executedData);
  run.onEvent?.("agentFlowEvent", "STOPPED");
  run.onEvent?.("action", action);
  return {
    status: "paused" as const,
    text: description,
    state: rs.state,
    executedData: rs.executedData,
    action,
    usedTools: [],
  };
}

async function fail(
  run: EngineRun,
  rs: RunState,
  error: unknown,
  at?: { id: string; startedAt: Date; journal: OpenJournal; usage?: NodeUsage },
): Promise<never> {
  const message = error instanceof Error ? error.message : String(error);
  const id = at?.id;
  if (at)
    rs.executedData.push(
      executedEntry(run, rs, at.id, at.startedAt, "ERROR", {
        error: message,
        calls: at.journal.calls(),
        ...(at.usage ? { usage: at.usage } : {}),
      }),
    );
  const status: ExecutionStatus =
    error instanceof AppError && (error.code === "upstream_timeout" || error.code === "job_timeout")
      ? "timeout"
      : "error";
  await run.save({ ...rs, status, error: message, action: null });
  if (id) run.onEvent?.("nextAgentFlow", { nodeId: id, nodeLabel: labelOf(run, id), status: "ERROR" });
  run.onEvent?.("agentFlowExecutedData", rs.executedData);
  run.onEvent?.("agentFlowEvent", "ERROR");
  throw error;
}

/**
 * Runs an agentflow from `run.start` until no step is ready (finished) or a Human Input step waits
 * (paused). A step that fails stores the run as `error` (or `timeout`) and its error is rethrown;
 * more than `maxSteps` steps is 422 naming the loop that went round last.
 */
export async function runAgentflow(input: EngineRun): Promise<EngineResult> {
  // The Start step's ephemeral memory: the conversation's earlier messages are left out (an
  // Iteration's passes, run with this run's fields, inherit that).
  const run = input.graph.start?.data.inputs.ephemeralMemory === true ? { ...input, history: [] } : input;
  const rs: RunState = {
    state: { ...run.start.state },
    position: structuredClone(run.start.position),
    executedData: [...run.start.executedData],
  };
  const usedTools: UsedTool[] = [];
  run.onEvent?.("agentFlowEvent", "INPROGRESS");
  while (rs.position.ready.length > 0) {
    const id = rs.position.ready[0];
    if (rs.position.steps >= run.maxSteps) return fail(run, rs, stepLimitError(run, rs.position));
    const startedAt = new Date();
    run.onEvent?.("nextAgentFlow", { nodeId: id, nodeLabel: labelOf(run, id), status: "INPROGRESS" });
    const journal = journalOf(run, rs, id, startedAt);
    // The step's model calls, counted apart (the run's own recorder counts them too).
    const meter = new UsageRecorder();
    let outcome: StepOutcome;
    try {
      outcome = await meter.around(() =>
        tracingOn() ? traceStep(run, id, () => runStep(run, rs, id, journal)) : runStep(run, rs, id, journal),
      );
    } catch (e) {
      const usage = await stepUsage(run, meter);
      return fail(run, rs, e, { id, startedAt, journal, ...(usage ? { usage } : {}) });
    }
    const usage = await stepUsage(run, meter);
    if (outcome.usedTools) usedTools.push(...outcome.usedTools);
    if (outcome.pause) return pause(run, rs, id, outcome, startedAt, journal, usage);
    rs.position.ready.shift();
    rs.position.steps++;
    delete rs.position.waiting;
    if (outcome.state) rs.state = { ...rs.state, ...outcome.state };
    rs.position.outputs[id] = outcome.output;
    if (outcome.messages) rs.position.runtimeHistory.push(...outcome.messages);
    if (outcome.answer) rs.position.answer = outcome.output.content;
    rs.executedData.push(
      executedEntry(run, rs, id, startedAt, "FINISHED", {
        outcome,
        calls: journal.calls(),
        ...(usage ? { usage } : {}),
      }),
    );
    advance(run, rs, id, outcome);
    const finished = rs.position.ready.length === 0;
    // A pure step's end rides with the next save (a step's, a pause's, the run's end).
    if (finished || !run.stepOf(id).pure)
      await run.save({ ...rs, status: finished ? "finished" : "running", action: null });
    run.onEvent?.("nextAgentFlow", { nodeId: id, nodeLabel: labelOf(run, id), status: "FINISHED" });
    run.onEvent?.("agentFlowExecutedData", rs.executedData);
  }
  run.onEvent?.("agentFlowEvent", "FINISHED");
  return { status: "finished", text: rs.position.answer, state: rs.state, executedData: rs.executedData, usedTools };
}
