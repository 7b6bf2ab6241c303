import { AppError } from "@/common/errors";
import type { ExecutedNode } from "@/common/schemas/prediction-stream";
import type { StepContext, StepJournal } from "./types";

/**
 * A step's journal (./types.ts StepJournal) kept in the run's executed data: while the step runs, its
 * finished calls sit in an INPROGRESS entry at the end of the executed data, saved with the run after
 * each call; a run continued after a crash starts the step again with those calls known.
 */

/** A journal whose calls the engine reads back when the step ends (to record them in its entry). */
export interface OpenJournal extends StepJournal {
  calls(): Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Takes the INPROGRESS entry of `nodeId` off the end of `executedData` (a run interrupted while the
 * step ran), returning the calls it had finished; for a step resumed after it paused (an Iteration
 * whose pass reached a Human Input), the calls its STOPPED entry kept (the entry stays); none for a
 * step that starts afresh.
 */
export function takeUnfinishedCalls(executedData: ExecutedNode[], nodeId: string): Record<string, unknown> {
  const last = executedData.at(-1);
  if (last?.nodeId === nodeId && last.status === "STOPPED")
    return isRecord(last.data.calls) ? { ...last.data.calls } : {};
  if (last?.nodeId !== nodeId || last.status !== "INPROGRESS") return {};
  executedData.pop();
  return isRecord(last.data.calls) ? { ...last.data.calls } : {};
}

/**
 * A journal over `calls` that, after each recorded call, saves the run with the step's INPROGRESS
 * entry (made by `entry` from the calls so far). Saves run one after another, in call order.
 */
export function savingJournal(
  calls: Record<string, unknown>,
  save: (calls: Record<string, unknown>) => Promise<void>,
): OpenJournal {
  let saving: Promise<void> = Promise.resolve();
  return {
    get: (key) => calls[key],
    record(key, value) {
      calls[key] = value;
      const snapshot = { ...calls };
      saving = saving.then(() => save(snapshot));
      return saving;
    },
    calls: () => calls,
  };
}

/** A view of `journal` under a key prefix (one pass of an Iteration, one node inside it). */
export function prefixedJournal(journal: StepJournal, prefix: string): OpenJournal {
  const mine: Record<string, unknown> = {};
  return {
    get: (key) => journal.get(prefix + key),
    record(key, value) {
      mine[key] = value;
      return journal.record(prefix + key, value);
    },
    calls: () => mine,
  };
}

/**
 * Makes a call with side effects (an HTTP request, a tool call, another flow's run) at most once per
 * run: its start is journaled before it is made and its result once it is back. A run continued after
 * a crash reuses a finished call's result; a call that started and never came back may have happened,
 * so the step fails saying so instead of making it a second time.
 */
export async function callOnce<T>(
  ctx: Pick<StepContext, "journal" | "label" | "nodeId">,
  key: string,
  what: string,
  make: () => Promise<T>,
): Promise<T> {
  const stored = ctx.journal.get(key);
  if (stored !== undefined) return stored as T;
  const started = `${key}:started`;
  if (ctx.journal.get(started) !== undefined)
    throw new AppError(
      "conflict",
      `"${ctx.label}" (${ctx.nodeId}): ${what} had started when the server running this run stopped, and may have been made; it is not made a second time.`,
    );
  await ctx.journal.record(started, true);
  const result = await make();
  await ctx.journal.record(key, result);
  return result;
}
