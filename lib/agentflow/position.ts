import type { HistoryMessage } from "../flow/types";
import type { FlowGraph } from "@/common/agentflow/graph";
import { reachableFrom } from "@/common/agentflow/graph";
import type { MemorySummary, StepOutput } from "./types";

/**
 * Where a run stands, stored with its execution after every node (Execution.position): enough to
 * continue in another process without running a finished node again.
 */
export interface Position {
  /** Steps ready to run, in order. */
  ready: string[];
  /** Per step, its incoming control edges decided so far: true taken, false not (an untaken branch). */
  resolved: Record<string, Record<string, boolean>>;
  /** Times each Loop node went back. */
  loops: Record<string, number>;
  /** Nodes run so far (the per-run step limit counts them). */
  steps: number;
  /** The latest output of every node run, for `{{nodeId}}`. */
  outputs: Record<string, StepOutput>;
  /** Messages this run added (Flowise's runtime chat history). */
  runtimeHistory: HistoryMessage[];
  /** The answer so far. */
  answer: string;
  /** The question the run began with (`{{question}}` after a resume too). */
  question?: string;
  /** The form a Start node in form mode received (`{{$form.…}}` after a resume or a takeover too). */
  form?: Record<string, unknown>;
  /** The Loop that last went back (named when the step limit is reached). */
  lastLoop?: string;
  /** The Human Input node a paused run waits at. */
  waiting?: string;
  /**
   * Conversation summaries of the steps with summary memory, by step id: carried from the chat's
   * last run to its next (lib/services/agentflow-runs.ts), so unchanged history is not summarised again.
   */
  summaries?: Record<string, MemorySummary>;
}

/** A new run's position: the Start node ready. */
export function initialPosition(startId: string, question: string, form?: Record<string, unknown>): Position {
  return {
    ready: [startId],
    resolved: {},
    loops: {},
    steps: 0,
    outputs: {},
    runtimeHistory: [],
    answer: "",
    question,
    ...(form ? { form } : {}),
  };
}

/** Reads a stored position (JSON); a malformed one is refused by the caller. */
export function readPosition(value: unknown): Position | undefined {
  if (!value || typeof value !== "object") return undefined;
  const p = value as Partial<Position>;
  if (!Array.isArray(p.ready) || typeof p.steps !== "number" || !p.resolved || !p.outputs) return undefined;
  return {
    ready: p.ready,
    resolved: p.resolved,
    loops: p.loops ?? {},
    steps: p.steps,
    outputs: p.outputs,
    runtimeHistory: p.runtimeHistory ?? [],
    answer: p.answer ?? "",
    ...(typeof p.question === "string" ? { question: p.question } : {}),
    ...(p.form && typeof p.form === "object" && !Array.isArray(p.form) ? { form: p.form } : {}),
    ...(p.lastLoop ? { lastLoop: p.lastLoop } : {}),
    ...(p.waiting ? { waiting: p.waiting } : {}),
    ...(p.summaries && typeof p.summaries === "object" ? { summaries: p.summaries } : {}),
  };
}

function enqueue(pos: Position, id: string): void {
  if (!pos.ready.includes(id)) pos.ready.push(id);
}

/**
 * Decides one control edge. A step becomes ready once every incoming edge is decided and one was
 * taken; when none was, it never runs and its own outgoing edges are decided as not taken, so
 * whatever waits for an untaken branch stops waiting without running it.
 */
export function decideEdge(fg: FlowGraph, pos: Position, edgeId: string, target: string, taken: boolean): void {
  const decided = (pos.resolved[target] ??= {});
  decided[edgeId] = taken;
  const incoming = fg.in.get(target) ?? [];
  if (!incoming.every((e) => e.id in decided)) return;
  if (incoming.some((e) => decided[e.id])) enqueue(pos, target);
  else for (const e of fg.out.get(target) ?? []) decideEdge(fg, pos, e.id, e.target, false);
}

/**
 * Goes back to `target` (a Loop): every step reachable from it forgets the edges decided inside that
 * region (edges from outside stay decided) and leaves the ready list; then `target` is ready again.
 */
export function loopBack(fg: FlowGraph, pos: Position, target: string): void {
  const region = reachableFrom(fg, target);
  for (const id of region) {
    const decided = pos.resolved[id];
    if (!decided) continue;
    for (const e of fg.in.get(id) ?? []) if (region.has(e.source)) delete decided[e.id];
  }
  pos.ready = pos.ready.filter((id) => !region.has(id));
  pos.ready.push(target);
}
