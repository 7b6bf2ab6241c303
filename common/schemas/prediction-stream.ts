import { z } from "zod";
import { streamErrorMessage } from "./stream-error";

/**
 * What POST /api/v1/prediction/{id} answers, as zod schemas: the JSON answer, and the events of
 * the streamed answer (`streaming: true`). The server writes them through these types
 * (lib/http/prediction-stream.ts); the studio reads them with `readPredictionEvent`; the widget
 * imports the inferred types only (no zod in embed.js).
 *
 * The stream is Flowise's: every message is one `data: {"event": E, "data": D}` line, in this
 * order: `start`, `token`s, then `usedTools` and `sourceDocuments` when there are any, then
 * `metadata`; a failure sends `error` instead of what is left; `end` ("[DONE]") always comes last.
 * An agentflow adds Flowise's progress events among the tokens: `agentFlowEvent` (INPROGRESS, then
 * FINISHED, STOPPED or ERROR), `nextAgentFlow` as each node starts and ends, `agentFlowExecutedData`
 * (the nodes so far) after each, and `action` when the run stops at a Human Input node.
 * `toolStart` is ours (a Flowise client ignores it): sent when a tool call begins, among the tokens
 * and before its result, for the same calls `usedTools` reports afterwards, in the same order.
 * (Flowise's `calledTools` is not reused: it is an Agentflow v2 array per model turn in the
 * usedTools shape with an empty output, not one event per call as it starts.)
 * Comment lines (`: heartbeat`) keep a quiet connection open.
 */

/** An HTTP request a tool call made (our addition to Flowise's usedTools): what was called and how it went. */
export const toolRequestSchema = z.object({
  method: z.string(),
  /** Without user, password or fragment; secret-named query values are `***`. */
  url: z.string(),
  /** The answer's status; absent when none came (refused, unreachable, timed out: see `error`). */
  status: z.number().int().optional(),
  /** Time to the answer's headers (or to the failure). */
  ms: z.number(),
  error: z.string().optional(),
});

export const usedToolSchema = z.object({
  tool: z.string(),
  toolInput: z.unknown(),
  toolOutput: z.string(),
  /** The HTTP requests the call made, in order (at most 20), when it made any. */
  requests: z.array(toolRequestSchema).optional(),
});

/** A tool call as it starts (the `toolStart` event): the tool's name, its input, and an id of the call. */
export const toolStartSchema = z.object({
  tool: z.string(),
  input: z.unknown(),
  /** Unique per call of the run; `usedTools` entries come in the order of the starts. */
  runId: z.string().optional(),
});

export const sourceDocumentSchema = z.object({
  pageContent: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});

/** The ids a follow-up question reuses, and what the server made of the question. */
export const predictionMetadataSchema = z.object({
  chatId: z.string(),
  chatMessageId: z.string(),
  question: z.string(),
  sessionId: z.string(),
  /** The memory node's type label (e.g. "Buffer Memory") when the flow has one. */
  memoryType: z.string().optional(),
  /** The chatflow version that answered (also the X-Chatflow-Version header). */
  chatflowVersion: z.number().int().optional(),
});

/** Flowise's human-input `action` (an agentflow paused at a Human Input node): what to decide, and how. */
export const humanInputActionSchema = z.object({
  id: z.string(),
  mapping: z.object({ approve: z.string(), reject: z.string() }),
  elements: z.array(z.object({ type: z.string(), label: z.string() })),
  data: z.object({ nodeId: z.string(), nodeLabel: z.string(), input: z.unknown().optional() }),
});

/** One node of an agentflow run (Flowise's executed data, with our timing and state change). */
export const executedNodeSchema = z.object({
  nodeId: z.string(),
  nodeLabel: z.string(),
  data: z.record(z.string(), z.unknown()),
  previousNodeIds: z.array(z.string()),
  status: z.enum(["INPROGRESS", "FINISHED", "STOPPED", "ERROR"]),
  stateChange: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  startedAt: z.string().optional(),
  timeMs: z.number().optional(),
});

/** An agentflow's progress (`nextAgentFlow`): a node starts, finishes, stops or fails. */
export const nextAgentFlowSchema = z.object({
  nodeId: z.string(),
  nodeLabel: z.string(),
  status: z.enum(["INPROGRESS", "FINISHED", "STOPPED", "ERROR"]),
});

/** The JSON answer (`streaming` not set): the text and the metadata, plus tools and documents. */
export const predictionResponseSchema = predictionMetadataSchema
  .extend({
    text: z.string(),
    usedTools: z.array(usedToolSchema).optional(),
    /**
     * When the flow's node reports source documents ("Return Source Documents" on) or the request
     * asks (overrideConfig.returnSourceDocuments: true); `false` in the request leaves them out.
     */
    sourceDocuments: z.array(sourceDocumentSchema).optional(),
    /**
     * Tokens of this answer's model calls (absent when it called none): as the provider reported them,
     * or `estimated: true` (4 characters a token) where it reported none; `costUsd` at the prices in
     * force (null when a model has no price).
     */
    usage: z
      .object({
        promptTokens: z.number().int(),
        completionTokens: z.number().int(),
        estimated: z.literal(true).optional(),
        costUsd: z.number().nullable().optional(),
      })
      .optional(),
    /** Agentflows: the run (GET /api/v1/executions/{id}, a later slice) and its nodes. */
    executionId: z.string().optional(),
    agentFlowExecutedData: z.array(executedNodeSchema).optional(),
    /** Agentflows paused at a Human Input node: what to decide; resume with `humanInput`. */
    action: humanInputActionSchema.optional(),
  })
  .meta({ id: "PredictionResponse" });

/** The `error` event: the same `{ code, message, details? }` as a JSON error body. */
export const streamErrorSchema = z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() });

export const predictionEventSchema = z.discriminatedUnion("event", [
  z.object({ event: z.literal("start"), data: z.literal("") }),
  z.object({ event: z.literal("token"), data: z.string() }),
  z.object({ event: z.literal("toolStart"), data: toolStartSchema }),
  z.object({ event: z.literal("usedTools"), data: z.array(usedToolSchema) }),
  z.object({ event: z.literal("sourceDocuments"), data: z.array(sourceDocumentSchema) }),
  z.object({ event: z.literal("metadata"), data: predictionMetadataSchema }),
  z.object({ event: z.literal("agentFlowEvent"), data: z.enum(["INPROGRESS", "FINISHED", "STOPPED", "ERROR"]) }),
  z.object({ event: z.literal("nextAgentFlow"), data: nextAgentFlowSchema }),
  z.object({ event: z.literal("agentFlowExecutedData"), data: z.array(executedNodeSchema) }),
  z.object({ event: z.literal("action"), data: humanInputActionSchema }),
  z.object({ event: z.literal("error"), data: streamErrorSchema }),
  z.object({ event: z.literal("end"), data: z.literal("[DONE]") }),
]);

export type UsedTool = z.infer<typeof usedToolSchema>;
export type ToolRequest = z.infer<typeof toolRequestSchema>;
export type ToolStart = z.infer<typeof toolStartSchema>;
export type SourceDocument = z.infer<typeof sourceDocumentSchema>;
export type PredictionMetadata = z.infer<typeof predictionMetadataSchema>;
export type PredictionResponse = z.infer<typeof predictionResponseSchema>;
export type StreamError = z.infer<typeof streamErrorSchema>;
export type PredictionEvent = z.infer<typeof predictionEventSchema>;
export type HumanInputAction = z.infer<typeof humanInputActionSchema>;
export type ExecutedNode = z.infer<typeof executedNodeSchema>;
/** The events of an agentflow's progress, as the engine emits them. */
export const AGENTFLOW_EVENTS = ["agentFlowEvent", "nextAgentFlow", "agentFlowExecutedData", "action"] as const;
export type AgentflowEventName = (typeof AGENTFLOW_EVENTS)[number];
export type PredictionEventName = PredictionEvent["event"];
/** The data of one event, by name. */
export type PredictionEventData<E extends PredictionEventName> = Extract<PredictionEvent, { event: E }>["data"];

/** One event as it goes on the wire: a `data:` line holding `{"event","data"}`, then a blank line. */
export function encodeEvent(e: PredictionEvent): string {
  return `data: ${JSON.stringify({ event: e.event, data: e.data })}\n\n`;
}

/**
 * Reads one event of the stream as ours: the typed event, or undefined for an event that is not
 * (an unknown name, data of the wrong shape). An `error` whose data is not `{ code, message }`
 * (Flowise and older servers send a plain string) still counts, its words kept as the message.
 */
export function readPredictionEvent(raw: { event: string; data: unknown }): PredictionEvent | undefined {
  const parsed = predictionEventSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  if (raw.event === "error")
    return { event: "error", data: { code: "error", message: streamErrorMessage(raw.data, "") } };
  return undefined;
}
