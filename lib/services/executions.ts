import { z } from "zod";
import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import { type Action, chatflowScope, mayAct, ownerFilter } from "@/common/access/permissions";
import {
  encodeExecutionCursor,
  executionNodeSchema,
  type ExecutionDetail,
  type ExecutionNode,
  type ExecutionSummary,
  FLOWISE_STATE_OF,
  type ListExecutionsQuery,
  nodeUsageSchema,
} from "@/common/schemas/execution";
import { executedNodeSchema, humanInputActionSchema } from "@/common/schemas/prediction-stream";
import type { ExecutionStatus } from "../db/generated/client";
import {
  countExecutions,
  deleteExecutionsByIds,
  type ExecutionWhere,
  findExecutionOwners,
  findExecutionWithFlow,
  listExecutions,
} from "../db/queries/executions";
import { parseStoredJson } from "../db/stored-json";
import { expireOverduePausedRuns } from "./agentflow-runs";
import { usageOfExecution } from "./usage";

/**
 * The Executions API (Flowise's): agentflow runs as their callers may see them. Admins see every
 * run, builders and their keys the runs of the flows they own (a key: of its chatflow scope too).
 * Another owner's run answers 404, like an unknown id.
 */

type SummaryRow = {
  id: string;
  chatflowId: string;
  version: number;
  sessionId: string;
  chatId: string;
  status: ExecutionStatus;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  nodeCount: number;
  chatflow: { name: string };
};

function toSummary(r: SummaryRow): ExecutionSummary {
  const finishedAt = r.finishedAt?.toISOString() ?? null;
  return {
    id: r.id,
    agentflowId: r.chatflowId,
    agentflow: { id: r.chatflowId, name: r.chatflow.name },
    version: r.version,
    sessionId: r.sessionId,
    chatId: r.chatId,
    status: r.status,
    state: FLOWISE_STATE_OF[r.status],
    error: r.error,
    nodeCount: r.nodeCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    finishedAt,
    createdDate: r.createdAt.toISOString(),
    updatedDate: r.updatedAt.toISOString(),
    stoppedDate: finishedAt,
  };
}

/** The flows a caller's list may hold: the filter's flow within a key's scope (two different flows named: none). */
function flowsWanted(caller: Caller, filter: string[]): string[] | undefined {
  const wanted = [...new Set(filter)];
  if (wanted.length > 1) return [];
  const scope = chatflowScope(caller);
  if (!wanted.length) return scope;
  return !scope || scope.includes(wanted[0]!) ? wanted : [];
}

/**
 * Runs the caller may see, newest first, without per-node data: `limit` of them after `cursor`
 * (and `skip`, Flowise's page), the number of all matches, and the cursor of the next page.
 */
export async function listExecutionsFor(caller: Caller, query: ListExecutionsQuery) {
  const statuses = [...new Set(query.statuses)];
  const chatflowIds = flowsWanted(caller, query.chatflowIds);
  const where: ExecutionWhere = {
    ...(query.id ? { id: query.id } : {}),
    ...(chatflowIds ? { chatflowIds } : {}),
    ...(statuses.length ? { statuses: statuses.length > 1 ? [] : statuses } : {}),
    ...(query.sessionId ? { sessionId: query.sessionId } : {}),
    ...(query.createdAt ? { createdAt: query.createdAt } : {}),
  };
  const ownerId = ownerFilter(caller, "execution.read");
  if (ownerId) where.ownerId = ownerId;
  // A paused run past its expiry is listed (and filtered) as expired.
  await expireOverduePausedRuns();
  const [rows, total] = await Promise.all([
    listExecutions({
      where,
      ...(query.cursor ? { after: query.cursor } : {}),
      skip: query.skip,
      take: query.limit + 1,
    }),
    countExecutions({ where }),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map(toSummary),
    total,
    nextCursor: rows.length > query.limit && last ? encodeExecutionCursor(last) : null,
  };
}

/** A node with the model usage the engine stored in its data (`data.usage`), when it called a model. */
function withUsage(node: z.output<typeof executedNodeSchema>): ExecutionNode {
  const usage = nodeUsageSchema.safeParse(node.data.usage);
  if (!usage.success) return node;
  const { promptTokens, completionTokens } = usage.data;
  return executionNodeSchema.parse({ ...node, tokens: { promptTokens, completionTokens }, usage: usage.data });
}

async function findVisibleExecution(id: string, caller: Caller, action: Action) {
  const row = await findExecutionWithFlow({ id });
  const scope = chatflowScope(caller);
  if (!row || !mayAct(caller, action, row.chatflow.ownerId) || (scope && !scope.includes(row.chatflowId)))
    throw new AppError("not_found", `Execution ${id} not found.`);
  return row;
}

/**
 * One run the caller may see, node by node (inputs, output, state change, time, error, model usage),
 * with its flow state, paused action and total usage (its answers' usage records).
 */
export async function getExecutionOrThrow(id: string, caller: Caller): Promise<ExecutionDetail> {
  await expireOverduePausedRuns();
  const row = await findVisibleExecution(id, caller, "execution.read");
  const at = (column: string) => ({ table: "Execution", column, id: row.id });
  const nodes = parseStoredJson(z.array(executedNodeSchema), row.executedData, at("executedData"));
  return {
    ...toSummary({ ...row, nodeCount: nodes.length }),
    flowState: parseStoredJson(z.record(z.string(), z.unknown()), row.state, at("state")),
    action: parseStoredJson(humanInputActionSchema.nullable(), row.action ?? null, at("action")),
    executionData: nodes.map(withUsage),
    usage: await usageOfExecution(row.id),
  };
}

/**
 * Deletes runs the caller may delete: all of them or none (404 naming the first it may not see;
 * 409 for a run still running, whose engine would go on saving it). Flowise's answer.
 */
export async function deleteExecutionsFor(ids: string[], caller: Caller) {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = new Map((await findExecutionOwners({ ids: unique })).map((r) => [r.id, r]));
  const scope = chatflowScope(caller);
  for (const id of unique) {
    const row = rows.get(id);
    if (!row || !mayAct(caller, "execution.delete", row.chatflow.ownerId) || (scope && !scope.includes(row.chatflowId)))
      throw new AppError("not_found", `Execution ${id} not found.`);
    if (row.status === "running")
      throw new AppError("conflict", `Execution ${id} is running: delete it once it has finished, paused or failed.`);
  }
  return { success: true as const, deletedCount: await deleteExecutionsByIds({ ids: unique }) };
}
