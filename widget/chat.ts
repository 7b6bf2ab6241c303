import { streamPrediction, WidgetError } from "./api";
import type { StreamEvent } from "@/browser/client/prediction-stream";
import type { PredictionMetadata } from "@/common/schemas/prediction-stream";
import { newId, type Session, type SessionStore } from "./store";
import type { ChatMessage, SourceDocument, Upload, UsedTool } from "./types";
import { streamErrorMessage } from "@/common/schemas/stream-error";
import { readToolStart } from "@/browser/client/tool-progress";

interface Ask {
  question: string;
  uploads: Upload[];
}

export interface ChatOptions {
  apiHost: string;
  chatflowId: string;
  overrideConfig?: Record<string, unknown>;
  store: SessionStore;
  /** Called after every change (a token, a new message, busy on/off). */
  onChange: () => void;
}

/**
 * The conversation and its one request in flight: send (streamed), stop (aborts the fetch, which
 * aborts the run on the server), retry the last question after a failure, start a new chat.
 */
export class ChatController {
  session: Session;
  /** The bot message being written, while a request is in flight. */
  streamingId: string | null = null;
  /** Token events per answer of this page load (shown as data-tokens: proof the answer streamed). */
  readonly tokenCounts = new Map<string, number>();
  private abort: AbortController | null = null;
  private lastAsk: Ask | null = null;

  constructor(private readonly opts: ChatOptions) {
    this.session = opts.store.load();
  }

  get busy(): boolean {
    return this.streamingId !== null;
  }

  /** Whether the last exchange failed and can be sent again. */
  get canRetry(): boolean {
    const last = this.session.messages[this.session.messages.length - 1];
    return !this.busy && !!last?.error;
  }

  /** Sends a question (and uploads); an audio upload may stand in for the question. */
  async send(question: string, uploads: Upload[] = []): Promise<void> {
    if (this.busy || (!question.trim() && !uploads.length)) return;
    this.lastAsk = { question: question.trim(), uploads };
    const voice = uploads.some((u) => u.type === "audio");
    const images = uploads.filter((u) => u.type === "file").map((u) => u.name);
    const user: ChatMessage = {
      id: newId(),
      role: "user",
      text: question.trim(),
      ...(images.length ? { attachments: images } : {}),
      ...(voice ? { voice } : {}),
    };
    const bot: ChatMessage = { id: newId(), role: "bot", text: "" };
    this.session.messages.push(user, bot);
    this.streamingId = bot.id;
    this.tokenCounts.set(bot.id, 0);
    this.abort = new AbortController();
    this.changed();
    try {
      const req = {
        question: question.trim(),
        chatId: this.session.chatId,
        uploads,
        overrideConfig: this.opts.overrideConfig,
      };
      await streamPrediction(
        this.opts.apiHost,
        this.opts.chatflowId,
        req,
        (e) => this.onEvent(e, user, bot),
        this.abort.signal,
      );
      if (!bot.text && !bot.error) bot.error = "The chatbot sent an empty answer.";
    } catch (e) {
      if (this.abort.signal.aborted) bot.stopped = true;
      else {
        // Refused or unreachable before any answer: the question failed, not the answer.
        this.session.messages.splice(this.session.messages.indexOf(bot), 1);
        user.error = e instanceof WidgetError ? e.message : "Something went wrong. Please try again.";
      }
    } finally {
      // Steps of calls that never finished (a failure, a stop) are not kept with the conversation.
      delete bot.runningTools;
      this.streamingId = null;
      this.abort = null;
      this.changed();
    }
  }

  private onEvent(e: StreamEvent, user: ChatMessage, bot: ChatMessage) {
    if (e.event === "token" && typeof e.data === "string") {
      bot.text += e.data;
      this.tokenCounts.set(bot.id, (this.tokenCounts.get(bot.id) ?? 0) + 1);
    } else if (e.event === "toolStart") {
      const start = readToolStart(e.data);
      if (!start) return;
      bot.runningTools = [...(bot.runningTools ?? []), start];
    } else if (e.event === "usedTools" && Array.isArray(e.data)) {
      // The finished calls replace the running steps (the same calls, in the same order).
      bot.usedTools = e.data as UsedTool[];
      delete bot.runningTools;
    } else if (e.event === "sourceDocuments" && Array.isArray(e.data)) bot.sourceDocuments = e.data as SourceDocument[];
    else if (e.event === "metadata") {
      const q = (e.data as Partial<PredictionMetadata> | null)?.question;
      if (user.voice && typeof q === "string") user.text = q;
    } else if (e.event === "error") bot.error = streamErrorMessage(e.data, "The chatbot failed to answer.");
    else return;
    this.opts.onChange();
  }

  /** Stops the answer being written; what arrived so far is kept. */
  stop(): void {
    this.abort?.abort();
  }

  /** Sends the failed question again. */
  retry(): void {
    if (!this.canRetry) return;
    const msgs = this.session.messages;
    const lastUser = [...msgs].reverse().find((m) => m.role === "user");
    const ask = this.lastAsk ?? (lastUser ? { question: lastUser.text, uploads: [] } : null);
    if (!ask || !lastUser) return;
    msgs.splice(msgs.indexOf(lastUser));
    void this.send(ask.question, ask.uploads);
  }

  /** Forgets the conversation and starts a new session. */
  newChat(): void {
    this.stop();
    this.session = { chatId: newId(), messages: [] };
    this.lastAsk = null;
    this.changed();
  }

  private changed() {
    this.opts.store.save(this.session);
    this.opts.onChange();
  }
}
