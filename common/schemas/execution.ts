import { cursorParam as listCursorParam, encodeCursor } from "./pagination";
import { z } from "zod";
import { positiveIntParam } from "./query-params";
import { dateRange, isoDateParam } from "./chat-message-dates";
import { executedNodeSchema, humanInputActionSchema } from "./prediction-stream";

/**
 * The Executions API (`/api/v1/executions`, Flowise's): agentflow runs, listed with filters and
 * read node by node. A run's status has two vocabularies: ours (`running | paused | finished | error
 * | timeout`, the stored one) and Flowise's `state` (INPROGRESS, STOPPED, FINISHED, ERROR, TIMEOUT,
 * TERMINATED). Filters accept both; answers carry both.
 */

export const EXECUTION_STATUSES = ["running", "paused", "finished", "error", "timeout", "expired"] as const;
export const FLOWISE_EXECUTION_STATES = [
  "INPROGRESS",
  "STOPPED",
  "FINISHED",
  "ERROR",
  "TIMEOUT",
  "TERMINATED",
] as const;
export type ExecutionStatusName = (typeof EXECUTION_STATUSES)[number];
export type FlowiseExecutionState = (typeof FLOWISE_EXECUTION_STATES)[number];

/**
 * Ours → Flowise's. Flowise's STOPPED is a run waiting at Human Input: our `paused`. Flowise has no
 * expiry: a paused run nobody answered in time (`expired`) is its TIMEOUT.
 */
export const FLOWISE_STATE_OF: Record<ExecutionStatusName, FlowiseExecutionState> = {
  running: "INPROGRESS",
  paused: "STOPPED",
  finished: "FINISHED",
  error: "ERROR",
  timeout: "TIMEOUT",
  expired: "TIMEOUT",
};

/** Flowise's → ours. TERMINATED (a run its caller aborted) is stored by us as `error`. */
const STATUS_OF_FLOWISE: Record<FlowiseExecutionState, ExecutionStatusName> = {
  INPROGRESS: "running",
  STOPPED: "paused",
  FINISHED: "finished",
  ERROR: "error",
  TIMEOUT: "timeout",
  TERMINATED: "error",
};

const statusParam = z
  .enum([...EXECUTION_STATUSES, ...FLOWISE_EXECUTION_STATES], {
    error: `must be one of ${[...EXECUTION_STATUSES, ...FLOWISE_EXECUTION_STATES].join(", ")}`,
  })
  .transform(
    (s): ExecutionStatusName =>
      s in STATUS_OF_FLOWISE ? STATUS_OF_FLOWISE[s as FlowiseExecutionState] : (s as ExecutionStatusName),
  );

/** Where a page ends: the last run's creation time and id (newest first, id breaks ties). */
export type ExecutionCursor = { createdAt: Date; id: string };

/** The opaque cursor every list uses (common/schemas/pagination.ts), of the executions list. */
export function encodeExecutionCursor(c: ExecutionCursor): string {
  return encodeCursor("executions", { key: c.createdAt.getTime(), id: c.id });
}

const cursorParam = listCursorParam("executions").pipe(
  z
    .object({ key: z.number().int().nonnegative(), id: z.uuid() })
    .transform((p): ExecutionCursor => ({ createdAt: new Date(p.key), id: p.id.toLowerCase() })),
);

const flowId = z.uuid({ error: "must be a flow UUID" });

/** Most runs one page holds; 20 when `limit` is not given. */
export const EXECUTIONS_MAX_LIMIT = 100;

/**
 * GET /api/v1/executions: filters (Flowise's names, plus `chatflowId` and `status`), newest first,
 * `limit` runs per page, then `cursor` (the previous page's `nextCursor`) or Flowise's `page`.
 */
export const listExecutionsQuery = z
  .object({
    id: z.uuid({ error: "must be an execution UUID" }).optional(),
    agentflowId: flowId.optional(),
    chatflowId: flowId.optional(),
    state: statusParam.optional(),
    status: statusParam.optional(),
    sessionId: z.string().trim().min(1).max(200).optional(),
    startDate: isoDateParam.optional(),
    endDate: isoDateParam.optional(),
    limit: positiveIntParam(EXECUTIONS_MAX_LIMIT).optional(),
    cursor: cursorParam.optional(),
    page: positiveIntParam().optional(),
  })
  .superRefine((q, ctx) => {
    if (q.startDate && q.endDate && q.startDate.at > q.endDate.at)
      ctx.addIssue({ code: "custom", path: ["startDate"], message: "The start date must not be after the end date." });
    if (q.cursor && q.page)
      ctx.addIssue({
        code: "custom",
        path: ["page"],
        message: "cannot be combined with cursor (pages follow a cursor)",
      });
  })
  .transform(({ agentflowId, chatflowId, state, status, startDate, endDate, limit, page, ...rest }) => ({
    ...rest,
    // Both given: both apply (different flows match nothing), as two statuses do.
    chatflowIds: [agentflowId, chatflowId].filter((v): v is string => v !== undefined),
    statuses: [state, status].filter((v): v is ExecutionStatusName => v !== undefined),
    createdAt: dateRange(startDate, endDate),
    limit: limit ?? 20,
    skip: ((page ?? 1) - 1) * (limit ?? 20),
  }));

export type ListExecutionsQuery = z.output<typeof listExecutionsQuery>;

/** DELETE /api/v1/executions (Flowise's bulk delete): the runs to delete. */
export const deleteExecutionsBody = z
  .object({
    executionIds: z
      .array(z.uuid({ error: "must be an execution UUID" }))
      .min(1)
      .max(EXECUTIONS_MAX_LIMIT),
  })
  .strict()
  .meta({ id: "ExecutionsDelete" });

const isoDate = z.iso.datetime();

/** A run as listed: no per-node data, flow state or action (GET /api/v1/executions/{id} has them). */
export const executionSummarySchema = z
  .object({
    id: z.string(),
    agentflowId: z.string(),
    agentflow: z.object({ id: z.string(), name: z.string() }),
    /** The flow version that ran (a resume runs the same one). */
    version: z.number().int(),
    sessionId: z.string(),
    chatId: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    /** The same status in Flowise's words. */
    state: z.enum(FLOWISE_EXECUTION_STATES),
    error: z.string().nullable(),
    /** How many node entries the run has so far. */
    nodeCount: z.number().int(),
    createdAt: isoDate,
    updatedAt: isoDate,
    finishedAt: isoDate.nullable(),
    /** Flowise's names of the three dates. */
    createdDate: isoDate,
    updatedDate: isoDate,
    stoppedDate: isoDate.nullable(),
  })
  .meta({ id: "ExecutionSummary" });

export const executionListResponseSchema = z
  .object({
    data: z.array(executionSummarySchema),
    /** Every run matching the filters (all pages). */
    total: z.number().int(),
    /** Pass as `cursor` for the next page; null on the last one. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "ExecutionList" });

const tokenCount = z.number().int().nonnegative();

/**
 * A node's model calls (a summary call of its memory included), counted apart from the rest of the
 * run: tokens as the provider reported them, or `estimated` (4 characters a token) where it reported
 * none; each model's share; the cost in USD at the prices of the moment (null: a model has no price).
 * Stored in the node's executed data (`data.usage`).
 */
export const nodeUsageSchema = z
  .object({
    promptTokens: tokenCount,
    completionTokens: tokenCount,
    estimated: z.boolean(),
    models: z.array(z.object({ model: z.string(), promptTokens: tokenCount, completionTokens: tokenCount })),
    costUsd: z.number().nullable().optional(),
  })
  .meta({ id: "NodeUsage" });

export type NodeUsage = z.output<typeof nodeUsageSchema>;

/** One node of a run: Flowise's executed data (inputs in data.input, output in data.output, data.state after it), our timing, state change and error. */
export const executionNodeSchema = executedNodeSchema.extend({
  /** Tokens of the node's model calls, when it made any (the same as usage's). */
  tokens: z.object({ promptTokens: tokenCount, completionTokens: tokenCount }).optional(),
  /** The node's model usage and cost, when it called a model. */
  usage: nodeUsageSchema.optional(),
});

/**
 * A run's usage as stored with its answers (the Usage API's records): a run that paused and was
 * resumed has one record per answer, summed. `costUsd` null when a model had no price.
 */
export const executionUsageSchema = z
  .object({
    promptTokens: tokenCount,
    completionTokens: tokenCount,
    estimated: z.boolean(),
    costUsd: z.number().nullable(),
    /** Models called, as the provider named them, in first-call order. */
    models: z.array(z.string()),
    /** Answers recorded for the run (more than one after a resume). */
    answers: z.number().int().nonnegative(),
  })
  .meta({ id: "ExecutionUsage" });

export type ExecutionUsage = z.output<typeof executionUsageSchema>;

export const executionDetailSchema = executionSummarySchema
  .extend({
    /** The flow state ($flow.state) after the last finished node. */
    flowState: z.record(z.string(), z.unknown()),
    /** What a paused run waits for (Flowise's human-input action); null otherwise. */
    action: humanInputActionSchema.nullable(),
    /** Node by node, in the order they ran. */
    executionData: z.array(executionNodeSchema),
    /** The run's total usage and cost; null until an answer of it was recorded (running, or failed). */
    usage: executionUsageSchema.nullable(),
  })
  .meta({ id: "Execution" });

/** What deleting runs answers (Flowise's shape). */
export const executionsDeletedSchema = z
  .object({ success: z.literal(true), deletedCount: z.number().int() })
  .meta({ id: "ExecutionsDeleted" });

export type ExecutionSummary = z.output<typeof executionSummarySchema>;
export type ExecutionDetail = z.output<typeof executionDetailSchema>;
export type ExecutionNode = z.output<typeof executionNodeSchema>;
