import {
  PredictionRefused,
  PredictionUnreachable,
  streamPrediction as streamPredictionOnce,
  type StreamEvent,
} from "@/browser/client/prediction-stream";
import type { FeedbackRating, HumanDecision, PublicConfig, Upload } from "./types";

/** A refusal or failure with a message meant for the visitor. */
export class WidgetError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const base = (apiHost: string) => apiHost.replace(/\/+$/, "");

/** The visitor's words for a refusal: its status, the server's message and a 429's Retry-After. */
function refusal(status: number, server: string | undefined, retryAfter: string | null): WidgetError {
  if (status === 429) {
    const wait = Number(retryAfter);
    return new WidgetError(`Too many messages right now. Try again in ${wait > 0 ? `${wait} s` : "a moment"}.`, 429);
  }
  if (status === 403) return new WidgetError(server ?? "This website is not allowed to use this chatbot.", 403);
  if (status === 404) return new WidgetError("This chatbot is not available.", 404);
  if (status >= 500) return new WidgetError(server ?? "The chatbot had a problem answering. Please try again.", status);
  return new WidgetError(server ?? `The request failed (HTTP ${status}).`, status);
}

async function errorFrom(res: Response): Promise<WidgetError> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return refusal(res.status, body?.error?.message, res.headers.get("retry-after"));
}

// A browser reports a CORS refusal and a dead server alike: as a failed fetch with no status.
const unreachable = () =>
  new WidgetError(
    "Couldn't reach the chatbot. Check your connection; if it persists, this website may not be allowed to use it.",
    0,
  );

/** Loads the chatflow's public widget settings. */
export async function fetchConfig(apiHost: string, chatflowId: string): Promise<PublicConfig> {
  let res: Response;
  try {
    res = await fetch(`${base(apiHost)}/api/v1/public-chatbotConfig/${encodeURIComponent(chatflowId)}`);
  } catch {
    throw unreachable();
  }
  if (!res.ok) throw await errorFrom(res);
  return (await res.json()) as PublicConfig;
}

export interface PredictionRequest {
  question: string;
  chatId: string;
  uploads?: Upload[];
  overrideConfig?: Record<string, unknown>;
  /** Resumes the chat's agentflow run paused at Human Input (then no question is sent). */
  humanInput?: HumanDecision;
}

/**
 * Asks for a streamed answer and reports each event; resolves when the stream ends. Aborting the
 * signal stops it (an AbortError is thrown). Refusals before streaming throw a WidgetError.
 */
export async function streamPrediction(
  apiHost: string,
  chatflowId: string,
  req: PredictionRequest,
  onEvent: (e: StreamEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const body = {
    ...(req.humanInput ? { humanInput: req.humanInput } : { question: req.question }),
    chatId: req.chatId,
    overrideConfig: { ...req.overrideConfig, sessionId: req.chatId },
    ...(req.uploads?.length ? { uploads: req.uploads } : {}),
  };
  const url = `${base(apiHost)}/api/v1/prediction/${encodeURIComponent(chatflowId)}`;
  try {
    await streamPredictionOnce({ url, body, onEvent, signal });
  } catch (e) {
    if (e instanceof PredictionUnreachable) throw unreachable();
    if (e instanceof PredictionRefused) throw refusal(e.status, e.error?.message, e.retryAfter);
    throw e;
  }
}

/** What a thumb sends: the rated answer of this chat, the rating and the comment typed after it. */
export interface FeedbackChange {
  chatId: string;
  messageId: string;
  rating?: FeedbackRating;
  content?: string;
}

/**
 * Rates an answer (Flowise's POST /api/v1/feedback/{chatflowid}) or, once rated, changes the rating
 * or adds the comment (PUT /api/v1/feedback/{feedbackId}). Resolves to the stored feedback.
 */
export async function saveFeedback(
  apiHost: string,
  chatflowId: string,
  feedbackId: string | undefined,
  change: FeedbackChange,
): Promise<{ id: string; rating: FeedbackRating; content: string }> {
  const path = encodeURIComponent(feedbackId ?? chatflowId);
  let res: Response;
  try {
    res = await fetch(`${base(apiHost)}/api/v1/feedback/${path}`, {
      method: feedbackId ? "PUT" : "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(feedbackId ? change : { chatflowid: chatflowId, ...change }),
    });
  } catch {
    throw unreachable();
  }
  if (res.ok) return res.json();
  const said = ((await res.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message;
  // An unknown answer is not an unavailable chatbot: the server's words say which.
  if (res.status === 404) throw new WidgetError(said ?? "This answer can no longer be rated.", 404);
  throw refusal(res.status, said, res.headers.get("retry-after"));
}
