import { saveFeedback, streamPrediction, WidgetError } from "./api";
import type { StreamEvent } from "@/browser/client/prediction-stream";
import type { PredictionMetadata } from "@/common/schemas/prediction-stream";
import { newId, type Session, type SessionStore } from "./store";
import type { ChatMessage, FeedbackRating, HumanDecision, SourceDocument, Upload, UsedTool } from "./types";
import { streamErrorMessage } from "@/common/schemas/stream-error";
import { readToolStart } from "@/browser/client/tool-progress";
import { answerSteps, readAction, startedStep } from "@/browser/client/agentflow-steps";

interface Ask {
  question: string;
  uploads: Upload[];
  /** A Human Input answered: resumes the chat's paused agentflow run instead of asking. */
  decision?: HumanDecision;
}

const DECIDED_TEXT = { proceed: "Approved", reject: "Rejected" } as const;

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
    const voice = uploads.some((u) => u.type === "audio");
    const images = uploads.filter((u) => u.type === "file").map((u) => u.name);
    const user: ChatMessage = {
      id: newId(),
      role: "user",
      text: question.trim(),
      ...(images.length ? { attachments: images } : {}),
      ...(voice ? { voice } : {}),
    };
    await this.ask(user, { question: question.trim(), uploads });
  }

  /** The paused answer whose Human Input may still be answered: the last message, while nothing streams. */
  get openAction(): ChatMessage | undefined {
    const last = this.session.messages[this.session.messages.length - 1];
    return !this.busy && last?.action && !last.decided ? last : undefined;
  }

  /**
   * Answers the Human Input of the paused answer `messageId` (approve: proceed, or reject, with
   * optional feedback): resumes the same chat with Flowise's `humanInput`, so the run goes on from
   * that node. The decision is kept with the message: its buttons are gone, also after a reload.
   */
  async decide(messageId: string, type: HumanDecision["type"], feedback = ""): Promise<void> {
    const paused = this.openAction;
    if (!paused?.action || paused.id !== messageId) return;
    paused.decided = type;
    const note = feedback.trim();
    await this.resume({ type, startNodeId: paused.action.data.nodeId, ...(note ? { feedback: note } : {}) });
  }

  private resume(decision: HumanDecision): Promise<void> {
    const user: ChatMessage = { id: newId(), role: "user", text: DECIDED_TEXT[decision.type], decision };
    return this.ask(user, { question: "", uploads: [], decision });
  }

  private async ask(user: ChatMessage, ask: Ask): Promise<void> {
    this.lastAsk = ask;
    // A resumed run reports its earlier answers' steps too: this answer shows the ones after them.
    const paused = ask.decision ? this.pausedAnswer() : undefined;
    const stepsBefore = paused ? (paused.stepsFrom ?? 0) + (paused.steps?.length ?? 0) : 0;
    const bot: ChatMessage = { id: newId(), role: "bot", text: "", ...(stepsBefore ? { stepsFrom: stepsBefore } : {}) };
    this.session.messages.push(user, bot);
    this.streamingId = bot.id;
    this.tokenCounts.set(bot.id, 0);
    this.abort = new AbortController();
    this.changed();
    try {
      const req = {
        question: ask.question,
        chatId: this.session.chatId,
        uploads: ask.uploads,
        overrideConfig: this.opts.overrideConfig,
        ...(ask.decision ? { humanInput: ask.decision } : {}),
      };
      await streamPrediction(
        this.opts.apiHost,
        this.opts.chatflowId,
        req,
        (e) => this.onEvent(e, user, bot, stepsBefore),
        this.abort.signal,
      );
      if (!bot.text && !bot.error && !bot.action) bot.error = "The chatbot sent an empty answer.";
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
      delete bot.runningStep;
      this.streamingId = null;
      this.abort = null;
      this.changed();
    }
  }

  /** The last answer that paused at Human Input (the one a decision resumes). */
  private pausedAnswer(): ChatMessage | undefined {
    return [...this.session.messages].reverse().find((m) => m.role === "bot" && m.action);
  }

  private onEvent(e: StreamEvent, user: ChatMessage, bot: ChatMessage, stepsBefore: number) {
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
    else if (e.event === "nextAgentFlow") {
      const started = startedStep(e.data);
      if (started) bot.runningStep = started;
      else delete bot.runningStep;
    } else if (e.event === "agentFlowExecutedData") {
      const steps = answerSteps(e.data, stepsBefore);
      if (steps) bot.steps = steps;
    } else if (e.event === "action") {
      const action = readAction(e.data);
      if (action) bot.action = action;
    } else if (e.event === "metadata") {
      const meta = e.data as Partial<PredictionMetadata> | null;
      if (user.voice && typeof meta?.question === "string") user.text = meta.question;
      // The stored answer's id: what a thumb under it rates.
      if (typeof meta?.chatMessageId === "string") bot.messageId = meta.chatMessageId;
    } else if (e.event === "error") bot.error = streamErrorMessage(e.data, "The chatbot failed to answer.");
    else return;
    this.opts.onChange();
  }

  /**
   * Rates the answer `id` (a thumb), changes its rating, or adds the comment typed after the thumb:
   * the first thumb creates the feedback, later changes update it. Kept with the message, so a
   * reload shows the thumb given. A refusal throws a WidgetError.
   */
  async rate(id: string, change: { rating?: FeedbackRating; content?: string }): Promise<void> {
    const m = this.session.messages.find((x) => x.id === id);
    if (!m?.messageId || (!m.feedback && !change.rating)) return;
    const { chatId } = this.session;
    const saved = await saveFeedback(this.opts.apiHost, this.opts.chatflowId, m.feedback?.id, {
      chatId,
      messageId: m.messageId,
      ...change,
    });
    // A new chat started meanwhile: the answer is gone from the conversation, nothing to keep.
    if (this.session.chatId !== chatId) return;
    m.feedback = { id: saved.id, rating: saved.rating, ...(saved.content ? { content: saved.content } : {}) };
    this.changed();
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
    const ask =
      this.lastAsk ?? (lastUser ? { question: lastUser.text, uploads: [], decision: lastUser.decision } : null);
    if (!ask || !lastUser) return;
    msgs.splice(msgs.indexOf(lastUser));
    if (ask.decision) void this.resume(ask.decision);
    else void this.send(ask.question, ask.uploads);
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
