import { createSseReader, type StreamEvent } from "./sse";
import type { PublicConfig, Upload } from "./types";

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

async function errorFrom(res: Response): Promise<WidgetError> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  const server = body?.error?.message;
  if (res.status === 429) {
    const wait = Number(res.headers.get("retry-after"));
    return new WidgetError(`Too many messages right now. Try again in ${wait > 0 ? `${wait} s` : "a moment"}.`, 429);
  }
  if (res.status === 403) return new WidgetError(server ?? "This website is not allowed to use this chatbot.", 403);
  if (res.status === 404) return new WidgetError("This chatbot is not available.", 404);
  if (res.status >= 500) return new WidgetError(server ?? "The chatbot had a problem answering. Please try again.", res.status);
  return new WidgetError(server ?? `The request failed (HTTP ${res.status}).`, res.status);
}

// A browser reports a CORS refusal and a dead server alike: as a failed fetch with no status.
const unreachable = () =>
  new WidgetError("Couldn't reach the chatbot. Check your connection; if it persists, this website may not be allowed to use it.", 0);

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
    question: req.question,
    streaming: true,
    chatId: req.chatId,
    overrideConfig: { ...req.overrideConfig, sessionId: req.chatId },
    ...(req.uploads?.length ? { uploads: req.uploads } : {}),
  };
  let res: Response;
  try {
    res = await fetch(`${base(apiHost)}/api/v1/prediction/${encodeURIComponent(chatflowId)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal.aborted) throw e;
    throw unreachable();
  }
  if (!res.ok) throw await errorFrom(res);
  if (!res.headers.get("content-type")?.includes("text/event-stream") || !res.body) {
    const json = (await res.json()) as { text?: string };
    onEvent({ event: "token", data: json.text ?? "" });
    return onEvent({ event: "end", data: "[DONE]" });
  }
  const reader = createSseReader(onEvent);
  const stream = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await stream.read();
    if (done) break;
    reader.push(value);
  }
  reader.end();
}
