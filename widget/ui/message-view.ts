import { el, renderMarkdown } from "../render-markdown";
import { safeHref } from "../markdown";
import { runningStepLabel, summariseToolInput } from "@/browser/client/tool-progress";
import type { ChatMessage, SourceDocument, ToolStart, UsedTool } from "../types";
import { icon } from "./icons";
import { type DecisionOptions, decisionView, flowStepsView, runningStepView } from "./agentflow-view";
import { type FeedbackOptions, feedbackView } from "./feedback-view";

export interface MessageViewOptions {
  avatarUrl?: string;
  /** Show the tools the answer used (false: the chatbot settings hide them from visitors). */
  showTools?: boolean;
  streaming: boolean;
  /** Token events this answer arrived in (this page load only). */
  tokenCount?: number;
  /** Shown on the last failed message. */
  onRetry?: () => void;
  /** A paused agentflow answer's Human Input (approve / reject). */
  decision?: DecisionOptions;
  /** Thumbs under a stored answer (when the chatflow asks for feedback). */
  feedback?: FeedbackOptions;
}

const pretty = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

function toolsView(tools: UsedTool[]): HTMLElement {
  const names = [...new Set(tools.map((t) => t.tool))].join(", ");
  return el("details", { class: "tools" }, [
    el("summary", {}, [icon("tool"), `Used ${tools.length === 1 ? "tool" : "tools"}: ${names}`]),
    ...tools.map((t) =>
      el("div", { class: "call" }, [
        tools.length > 1 ? el("strong", {}, [t.tool]) : null,
        el("div", { class: "label" }, ["Input"]),
        el("pre", {}, [pretty(t.toolInput)]),
        el("div", { class: "label" }, ["Output"]),
        el("pre", {}, [pretty(t.toolOutput)]),
      ]),
    ),
  ]);
}

/** Tool calls in flight: "Calling product_search…" and the input in one line. */
function runningToolsView(starts: ToolStart[]): HTMLElement {
  return el(
    "div",
    { class: "steps", role: "status", "aria-live": "polite" },
    starts.map((s) => {
      const summary = summariseToolInput(s.input);
      return el("div", { class: "step", "data-tool": s.tool }, [
        el("span", { class: "spin", "aria-hidden": "true" }),
        el("span", {}, [runningStepLabel(s)]),
        summary ? el("code", {}, [summary]) : null,
      ]);
    }),
  );
}

function sourcesView(docs: SourceDocument[]): HTMLElement {
  const items = docs.map((d) => {
    const src = typeof d.metadata?.source === "string" ? d.metadata.source : "";
    const href = src ? safeHref(src) : null;
    const label = src || "Document";
    const snippet = (d.pageContent ?? "").slice(0, 280);
    return el("li", {}, [
      href
        ? el("a", { href, target: "_blank", rel: "noopener noreferrer nofollow ugc" }, [label])
        : el("strong", {}, [label]),
      snippet ? el("div", {}, [snippet]) : null,
    ]);
  });
  return el("details", { class: "sources" }, [el("summary", {}, [`Sources (${docs.length})`]), el("ul", {}, items)]);
}

function typingView(): HTMLElement {
  return el("span", { class: "typing", role: "status", "aria-label": "Assistant is typing" }, [
    el("i"),
    el("i"),
    el("i"),
  ]);
}

function errorView(message: string, onRetry?: () => void): HTMLElement {
  const retry = onRetry ? el("button", { type: "button" }, [icon("retry"), "Retry"]) : null;
  retry?.addEventListener("click", onRetry!);
  return el("div", { class: "error", role: "alert" }, [el("span", {}, [message]), retry]);
}

/** The bot's avatar image, or a chat icon when the theme has none. */
export function avatarView(url?: string): HTMLElement {
  return url
    ? el("img", { class: "avatar", alt: "", src: url })
    : el("span", { class: "avatar avatar-icon" }, [icon("chat")]);
}

/** One message: its bubble (Markdown for the bot), collapsed tools and sources, and any failure. */
export function messageView(m: ChatMessage, opts: MessageViewOptions): HTMLElement {
  const bubble = el("div", { class: "bubble" });
  if (m.role === "bot") {
    if (m.steps?.length) bubble.append(flowStepsView(m.steps));
    if (opts.streaming && m.runningStep) bubble.append(runningStepView(m.runningStep));
    if (opts.streaming && opts.showTools !== false && m.runningTools?.length)
      bubble.append(runningToolsView(m.runningTools));
    if (m.text) bubble.append(renderMarkdown(m.text));
    else if (opts.streaming) bubble.append(typingView());
    else if (m.stopped) bubble.append(el("p", {}, ["(stopped)"]));
    if (opts.showTools !== false && m.usedTools?.length) bubble.append(toolsView(m.usedTools));
    if (m.sourceDocuments?.length) bubble.append(sourcesView(m.sourceDocuments));
    if (m.stopped && m.text) bubble.append(el("div", { class: "note" }, ["Stopped"]));
    if (m.action) bubble.append(decisionView(m.action, m.decided, opts.decision ?? { open: false }));
    if (opts.feedback) bubble.append(feedbackView(opts.feedback));
  } else {
    bubble.append(el("p", {}, [m.text || (m.voice ? "🎤 Voice message" : "")]));
    if (m.decision?.feedback) bubble.append(el("p", { class: "feedback-sent" }, [m.decision.feedback]));
    if (m.attachments?.length) bubble.append(el("div", { class: "attach" }, [`📎 ${m.attachments.join(", ")}`]));
  }
  const row = el("div", {
    class: `row ${m.role}${opts.streaming ? " streaming" : ""}`,
    "data-role": m.role,
    ...(m.role === "bot" ? { "aria-busy": String(opts.streaming), "data-tokens": opts.tokenCount?.toString() } : {}),
  });
  if (m.role === "bot") row.append(avatarView(opts.avatarUrl));
  row.append(bubble);
  if (!m.error) return row;
  // A bot answer that failed before saying anything is only its error (no empty bubble above it).
  const parts = m.role === "bot" && !bubble.hasChildNodes() ? [] : [row];
  return el("div", { class: `wrap ${m.role}` }, [...parts, errorView(m.error, opts.onRetry)]);
}
