import type { PredictionRun } from "../services/predictions";
import { sseResponse } from "./sse";
import { rateLimitHeaders } from "../access/rate-limit";
import type { AgentflowEventName } from "@/common/schemas/prediction-stream";

/**
 * The streamed answer of a prediction, in the order common/schemas/prediction-stream.ts describes:
 * `start`, the tokens as the model writes them (and a `toolStart` as each tool call begins), `usedTools` and `sourceDocuments` when there are
 * any, `metadata`; sseResponse adds `error` on a failure and `end` last. An agentflow adds its progress
 * events (agentFlowEvent, nextAgentFlow, agentFlowExecutedData, action) among the tokens.
 */
export function predictionStreamResponse(prepared: PredictionRun, requestSignal: AbortSignal): Response {
  const res = sseResponse(async (send, signal) => {
    send("start", "");
    const result = await prepared.execute({
      signal,
      onToken: (token) => send("token", token),
      onToolStart: (start) => send("toolStart", start),
      // An agentflow's progress, as the engine emits it (its data has the event's schema).
      onAgentflowEvent: (name, data) => (send as (event: AgentflowEventName, data: unknown) => void)(name, data),
    });
    if (result.usedTools) send("usedTools", result.usedTools);
    if (result.sourceDocuments) send("sourceDocuments", result.sourceDocuments);
    send("metadata", {
      chatId: result.chatId,
      chatMessageId: result.chatMessageId,
      question: result.question,
      sessionId: result.sessionId,
      ...(result.memoryType ? { memoryType: result.memoryType } : {}),
      chatflowVersion: prepared.version,
    });
  }, requestSignal);
  res.headers.set(CHATFLOW_VERSION_HEADER, String(prepared.version));
  for (const [name, value] of Object.entries(rateLimitHeaders(prepared.rateLimit))) res.headers.set(name, value);
  return res;
}

/** The response header naming the chatflow version that answers a prediction. */
export const CHATFLOW_VERSION_HEADER = "X-Chatflow-Version";
