import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import { chatflowScope, ownerFilter } from "@/common/access/permissions";
import type { MessageUsage, ModelPricesResponse, UsageGroup, UsageQuery, UsageResponse } from "@/common/schemas/usage";
import type { ExecutionUsage } from "@/common/schemas/execution";
import {
  aggregateUsage,
  findUsageOfExecution,
  findUsageOfMessages,
  insertUsageRecord,
  listModelPrices,
  replaceModelPrices,
  type UsageGroupRow,
} from "../db/queries/usage";
import { DEFAULT_PRICES_AS_OF } from "../usage/default-prices";
import { costOf, effectivePrices, type ModelPrice } from "../usage/prices";
import type { RunUsage } from "../usage/tally";
import { getChatflowOrThrow } from "./chatflows";
import { Cache, on, PROCESS_STATE, processState, publishChange, stateBus } from "../state";

/**
 * Usage and cost of answers (issue 33): each prediction's tokens, models, latency and outcome are
 * stored when it ends, priced at that moment (a later price edit changes no stored cost); the
 * Usage API sums them per day or model for the flows a caller may read.
 */

/** The price table in force, as every answer's cost reads it: cached ("modelPrices" in lib/state/catalogue.ts). */
const pricesCache = processState("modelPrices", () => {
  const cache = new Cache<ModelPrice[]>(PROCESS_STATE.modelPrices.cache);
  stateBus().subscribe(on({ "modelPrices.changed": () => cache.clear(), "state.resync": () => cache.clear() }));
  return cache;
});

/** The price table in force: built-in defaults under the admins' prices. */
export async function pricesInForce(): Promise<ModelPrice[]> {
  return (await pricesCache.get("all", async () => effectivePrices(await listModelPrices()))) ?? [];
}

/** Stores an answer's usage with its message (and agentflow run), priced now. */
export async function recordAnswerUsage(args: {
  chatflowId: string;
  chatMessageId?: string;
  executionId?: string;
  usage?: RunUsage;
  latencyMs: number;
}): Promise<{ costUsd: number | null }> {
  const { usage } = args;
  const costUsd = usage ? costOf(usage.models, await pricesInForce()) : 0;
  await insertUsageRecord({
    chatflowId: args.chatflowId,
    ...(args.chatMessageId ? { chatMessageId: args.chatMessageId } : {}),
    ...(args.executionId ? { executionId: args.executionId } : {}),
    models: usage?.models.map((m) => m.model) ?? [],
    promptTokens: usage?.promptTokens ?? 0,
    completionTokens: usage?.completionTokens ?? 0,
    estimated: usage?.estimated ?? false,
    costUsd,
    latencyMs: Math.round(args.latencyMs),
  });
  return { costUsd };
}

/**
 * Runs `fn` (a prediction's run); when it fails, stores a failed request (its error's code) before
 * the error goes on. `chatflowId` undefined: nothing is stored (a detached test run).
 */
export async function countFailures<T>(chatflowId: string | undefined, startedAt: number, fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (err) {
    if (chatflowId) {
      const code = err instanceof AppError ? err.code : "internal";
      // A failure to store must not hide the run's own error.
      await insertUsageRecord({
        chatflowId,
        models: [],
        promptTokens: 0,
        completionTokens: 0,
        estimated: false,
        costUsd: 0,
        latencyMs: Math.round(performance.now() - startedAt),
        error: code,
      }).catch(() => {});
    }
    throw err;
  }
}

/** The usage stored with these answers, by message id. */
export async function usageOfMessages(messageIds: string[]): Promise<Map<string, MessageUsage>> {
  const rows = await findUsageOfMessages(messageIds);
  return new Map(rows.map(({ chatMessageId, ...u }) => [chatMessageId!, u]));
}

/**
 * An agentflow run's usage: its answers' records summed (cost null when any was unpriced); null
 * when none was recorded yet (running, or failed before its answer).
 */
export async function usageOfExecution(executionId: string): Promise<ExecutionUsage | null> {
  const rows = await findUsageOfExecution(executionId);
  if (!rows.length) return null;
  const unpriced = rows.some((r) => r.costUsd === null);
  const cost = rows.reduce((n, r) => n + (r.costUsd ?? 0), 0);
  return {
    promptTokens: rows.reduce((n, r) => n + r.promptTokens, 0),
    completionTokens: rows.reduce((n, r) => n + r.completionTokens, 0),
    estimated: rows.some((r) => r.estimated),
    costUsd: unpriced ? null : Math.round(cost * 1e8) / 1e8,
    models: [...new Set(rows.flatMap((r) => r.models))],
    answers: rows.length,
  };
}

function figures(r: UsageGroupRow) {
  return {
    requests: r.requests,
    errors: r.errors,
    promptTokens: Number(r.promptTokens),
    completionTokens: Number(r.completionTokens),
    costUsd: r.costUsd === null ? null : Math.round(Number(r.costUsd) * 1e8) / 1e8,
    unpricedRequests: r.unpriced,
    p50LatencyMs: r.p50LatencyMs === null ? null : Math.round(Number(r.p50LatencyMs)),
    p95LatencyMs: r.p95LatencyMs === null ? null : Math.round(Number(r.p95LatencyMs)),
  };
}

const EMPTY = {
  requests: 0,
  errors: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: null,
  unpricedRequests: 0,
  p50LatencyMs: null,
  p95LatencyMs: null,
};

/** Every UTC day the range touches, so a chart shows quiet days as zero rather than skipping them. */
function daysOf(from: Date, to: Date): string[] {
  const days: string[] = [];
  const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  for (; day < to; day.setUTCDate(day.getUTCDate() + 1)) days.push(day.toISOString().slice(0, 10));
  return days;
}

/**
 * GET /api/v1/usage: the usage of one chatflow (404 unless the caller may read it) or of every
 * chatflow the caller may read (admins: all; builders and their keys: their own, within a key's
 * scope), per UTC day (every day of the range, quiet ones as zero) or per model, with totals.
 */
export async function getUsageFor(caller: Caller, q: UsageQuery): Promise<UsageResponse> {
  if (q.chatflowId) await getChatflowOrThrow(q.chatflowId, caller, "usage.read");
  const rows = await aggregateUsage(
    {
      from: q.from,
      to: q.to,
      ...(q.chatflowId
        ? { chatflowIds: [q.chatflowId] }
        : chatflowScope(caller)
          ? { chatflowIds: chatflowScope(caller) }
          : {}),
      ...(ownerFilter(caller, "usage.read") ? { ownerId: ownerFilter(caller, "usage.read") } : {}),
    },
    q.groupBy,
  );
  const total = rows.find((r) => r.total === 1);
  let groups: UsageGroup[] = rows.filter((r) => r.total === 0).map((r) => ({ key: r.key ?? "", ...figures(r) }));
  if (q.groupBy === "day") {
    const byDay = new Map(groups.map((g) => [g.key, g]));
    groups = daysOf(q.from, q.to).map((key) => byDay.get(key) ?? { key, ...EMPTY });
  }
  return {
    chatflowId: q.chatflowId ?? null,
    from: q.from.toISOString(),
    to: q.to.toISOString(),
    groupBy: q.groupBy,
    groups,
    totals: total ? figures(total) : EMPTY,
  };
}

/** GET /api/v1/usage/prices: the table in force, each price marked default or admin. */
export async function getModelPrices(): Promise<ModelPricesResponse> {
  return {
    currency: "USD",
    unit: "per 1M tokens",
    defaultsAsOf: DEFAULT_PRICES_AS_OF,
    prices: effectivePrices(await listModelPrices()),
  };
}

/** PUT /api/v1/usage/prices: the admins' prices become these (costs already stored keep their prices). */
export async function setModelPrices(prices: ModelPrice[]): Promise<ModelPricesResponse> {
  await replaceModelPrices(prices.map((p) => ({ ...p, model: p.model.trim() })));
  await publishChange({ type: "modelPrices.changed" });
  return getModelPrices();
}
