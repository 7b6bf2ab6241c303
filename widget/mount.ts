import { fetchConfig, WidgetError } from "./api";
import { ChatController } from "./chat";
import { el } from "./render-markdown";
import { SessionStore } from "./store";
import type { ChatMessage, FeedbackRating, PublicConfig, WidgetOptions, WidgetTheme } from "./types";
import { createComposer } from "./ui/composer";
import type { FeedbackOptions } from "./ui/feedback-view";
import { icon } from "./ui/icons";
import { avatarView, messageView } from "./ui/message-view";
import { STYLES } from "./ui/styles";

/** What `init` returns: a handle to drive or remove the widget. */
export interface WidgetHandle {
  open(): void;
  close(): void;
  newChat(): void;
  destroy(): void;
}

const THEME_VARS: [keyof WidgetTheme, string][] = [
  ["primaryColor", "--sy-primary"],
  ["backgroundColor", "--sy-bg"],
  ["textColor", "--sy-text"],
  ["botBubbleColor", "--sy-bot"],
  ["userBubbleColor", "--sy-user"],
];

function resolveTarget(target: WidgetOptions["target"]): HTMLElement {
  const found = typeof target === "string" ? document.querySelector<HTMLElement>(target) : target;
  if (!found) throw new Error(`Switchyard: full-page mode needs a target element (got ${String(target)}).`);
  return found;
}

/** Mounts the chat (bubble or full-page) in a shadow root and returns its handle. */
export function mountWidget(opts: WidgetOptions, apiHost: string): WidgetHandle {
  const full = opts.mode === "full";
  const host = el("div", { "data-switchyard-chatflow": opts.chatflowId });
  if (full) Object.assign(host.style, { display: "block", width: "100%", height: "100%" });
  const root = host.attachShadow({ mode: "open" });
  const shell = el("div", { class: `shell ${full ? "full" : "bubble-mode"}` });
  root.append(el("style", {}, [STYLES]), shell);
  (full ? resolveTarget(opts.target) : document.body).append(host);

  const titleEl = el("h2", {}, ["Chat"]);
  const headerAvatar = el("span");
  const newChatBtn = el("button", { type: "button", "aria-label": "New chat", title: "New chat" }, [icon("plus")]);
  const closeBtn = full
    ? null
    : el("button", { type: "button", "aria-label": "Close chat", title: "Close" }, [icon("close")]);
  const log = el("div", { class: "log", role: "log", "aria-live": "polite", "aria-label": "Conversation" });
  const starters = el("div", { class: "starters", role: "group", "aria-label": "Suggested questions" });
  const banner = el("div", { class: "banner", role: "alert" });
  banner.hidden = true;
  const panel = el("section", { class: "panel", role: full ? "region" : "dialog", "aria-label": "Chat" }, [
    el("header", {}, [headerAvatar, titleEl, newChatBtn, closeBtn]),
    banner,
    log,
    starters,
  ]);
  const launcher = full
    ? null
    : el("button", { class: "launcher", type: "button", "aria-label": "Open chat", "aria-expanded": "false" }, [
        icon("chat"),
      ]);
  if (launcher) shell.append(launcher);
  shell.append(panel);

  let config: PublicConfig | null = null;
  let refused = false;
  let composer: ReturnType<typeof createComposer> | null = null;
  const chat = new ChatController({
    apiHost,
    chatflowId: opts.chatflowId,
    overrideConfig: opts.overrideConfig,
    store: new SessionStore(opts.chatflowId),
    onChange: () => render(),
  });

  // Rendered rows by message id, reused while unchanged (keeps open <details> and focus).
  let cache = new Map<string, { sig: string; node: HTMLElement }>();
  function render() {
    const theme = { ...config?.theme, ...opts.theme };
    const next = new Map<string, { sig: string; node: HTMLElement }>();
    const last = chat.session.messages[chat.session.messages.length - 1];
    const welcome = config?.welcomeMessage
      ? [{ id: "welcome", role: "bot" as const, text: config.welcomeMessage }]
      : [];
    const rows = [...welcome, ...chat.session.messages].map((m) => {
      const o = {
        avatarUrl: theme.avatarUrl,
        // The server already withholds them from visitors when off; this hides them from builders' previews too.
        showTools: config?.showToolCalls !== false,
        streaming: m.id === chat.streamingId,
        tokenCount: chat.tokenCounts.get(m.id),
        onRetry: m === last && chat.canRetry ? () => chat.retry() : undefined,
        decision: "action" in m && m.action ? { open: m === last, onDecide: decideHandler(m.id) } : undefined,
        feedback: feedbackFor(m),
      };
      const sig = JSON.stringify([
        m,
        o.avatarUrl,
        o.showTools,
        o.streaming,
        o.tokenCount,
        !!o.onRetry,
        o.decision?.open,
        !!o.decision?.onDecide,
        o.feedback && rating.get(m.id),
        !!o.feedback,
      ]);
      const hit = cache.get(m.id);
      const node = hit?.sig === sig ? hit.node : keepOpen(hit?.node, messageView(m, o));
      next.set(m.id, { sig, node });
      return node;
    });
    cache = next;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.replaceChildren(...rows);
    if (atBottom || chat.busy) log.scrollTop = log.scrollHeight;
    if (focusAfter) cache.get(focusAfter.id)?.node.querySelector<HTMLElement>(focusAfter.selector)?.focus();
    focusAfter = null;
    starters.hidden = refused || chat.session.messages.length > 0 || !starterTexts(config).length;
    composer?.setBusy(chat.busy);
  }

  // The thumbs of this page load per answer: comment box open, a request on its way, a refusal.
  const rating = new Map<string, { asking?: boolean; busy?: boolean; error?: string; draft?: string }>();
  let focusAfter: { id: string; selector: string } | null = null;

  /** Thumbs under a stored, finished answer, when the chatflow asks for feedback. */
  function feedbackFor(m: ChatMessage): FeedbackOptions | undefined {
    if (!config?.chatFeedback?.status || m.role !== "bot" || !m.messageId || m.error || m.id === chat.streamingId)
      return undefined;
    return {
      rating: m.feedback?.rating,
      comment: m.feedback?.content,
      ...rating.get(m.id),
      onRate: (r: FeedbackRating) => void sendFeedback(m.id, { rating: r }),
      onComment: (content: string) => void sendFeedback(m.id, { content }),
      onSkip: () => {
        rating.delete(m.id);
        focusAfter = { id: m.id, selector: ".thumb[aria-pressed=true]" };
        render();
      },
    };
  }

  /** A thumb opens the comment box once stored; a comment closes it. A refusal is said under the thumbs. */
  async function sendFeedback(id: string, change: { rating?: FeedbackRating; content?: string }) {
    const asking = !!change.rating;
    rating.set(id, { busy: true, asking: !asking && rating.get(id)?.asking, draft: change.content });
    render();
    try {
      await chat.rate(id, change);
      rating.set(id, { asking });
      focusAfter = { id, selector: asking ? "textarea" : ".thumb[aria-pressed=true]" };
    } catch (e) {
      const error = e instanceof WidgetError ? e.message : "Your feedback could not be saved.";
      rating.set(id, { error, asking: !asking, draft: change.content });
    }
    render();
  }

  /** Approve / Reject of the answer waiting at Human Input (none while an answer streams). */
  function decideHandler(messageId: string) {
    if (chat.openAction?.id !== messageId) return undefined;
    return (type: "proceed" | "reject", feedback: string) => {
      void chat.decide(messageId, type, feedback);
      // The clicked button goes with the panel: the message box takes the focus.
      composer?.focus();
    };
  }

  function applyConfig(saved: PublicConfig) {
    const c = withPreview(saved, opts.preview);
    config = c;
    const theme = { ...c.theme, ...opts.theme };
    for (const [key, cssVar] of THEME_VARS) if (theme[key]) shell.style.setProperty(cssVar, theme[key]!);
    shell.classList.toggle("left", theme.position === "left");
    shell.classList.toggle("light", theme.colorScheme === "light");
    shell.classList.toggle("dark", theme.colorScheme === "dark");
    titleEl.textContent = c.title;
    panel.setAttribute("aria-label", c.title);
    headerAvatar.replaceWith(avatarView(theme.avatarUrl));
    starters.replaceChildren(
      ...starterTexts(c).map((p) => {
        const b = el("button", { type: "button" }, [p]);
        b.addEventListener("click", () => void chat.send(p));
        return b;
      }),
    );
    composer = createComposer({
      placeholder: c.inputPlaceholder,
      images: c.uploads.images,
      audio: c.uploads.audio,
      maxBytes: c.uploads.maxBytes,
      maxFiles: c.uploads.maxFiles,
      onSend: (text, uploads) => void chat.send(text, uploads),
      onStop: () => chat.stop(),
    });
    panel.append(composer.element);
    if (c.originAllowed === false)
      refuse(
        `This chatbot is not enabled on this website (${location.origin}). The site owner can allow it in the chatflow's settings.`,
      );
    render();
    // Opened before the settings arrived (bubble mode): focus goes to the box once it exists.
    if (launcher && !panel.hidden) composer.focus();
  }

  function refuse(message: string) {
    refused = true;
    banner.textContent = message;
    banner.hidden = false;
    starters.hidden = true;
    composer?.setDisabled(true);
  }

  const setOpen = (open: boolean) => {
    if (!launcher) return;
    panel.hidden = !open;
    shell.classList.toggle("open", open);
    launcher.setAttribute("aria-expanded", String(open));
    launcher.setAttribute("aria-label", open ? "Close chat" : "Open chat");
    launcher.replaceChildren(icon(open ? "close" : "chat"));
    if (open) composer?.focus();
  };
  launcher?.addEventListener("click", () => setOpen(panel.hidden));
  closeBtn?.addEventListener("click", () => {
    setOpen(false);
    launcher?.focus();
  });
  panel.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && launcher) {
      setOpen(false);
      launcher.focus();
    }
  });
  newChatBtn.addEventListener("click", () => {
    chat.newChat();
    composer?.focus();
  });
  setOpen(full || !!opts.open);

  fetchConfig(apiHost, opts.chatflowId).then(applyConfig, (e: unknown) => {
    refuse(e instanceof WidgetError ? e.message : "The chatbot could not be loaded.");
  });
  render();

  return {
    open: () => setOpen(true),
    close: () => setOpen(false),
    newChat: () => chat.newChat(),
    destroy: () => {
      chat.stop();
      composer?.destroy();
      host.remove();
    },
  };
}

/** A message drawn again keeps the sections (steps, tools, sources) the visitor had opened. */
function keepOpen(old: HTMLElement | undefined, fresh: HTMLElement): HTMLElement {
  for (const d of old?.querySelectorAll("details[open]") ?? []) {
    const kind = d.classList[0];
    if (kind) fresh.querySelector(`details.${kind}`)?.setAttribute("open", "");
  }
  return fresh;
}

/** The starter prompts' texts, in order (the config sends Flowise's `{"0": {prompt}, …}`). */
function starterTexts(c: PublicConfig | null): string[] {
  if (!c) return [];
  return Object.keys(c.starterPrompts)
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => c.starterPrompts[k]?.prompt ?? "")
    .filter((p) => p.trim() !== "");
}

/** The saved config with a preview's unsaved texts and switches over it (Flowise's starter prompt shape kept). */
function withPreview(c: PublicConfig, p: WidgetOptions["preview"]): PublicConfig {
  if (!p) return c;
  return {
    ...c,
    ...(p.title !== undefined ? { title: p.title.trim() || c.title } : {}),
    ...(p.welcomeMessage !== undefined ? { welcomeMessage: p.welcomeMessage } : {}),
    ...(p.inputPlaceholder !== undefined ? { inputPlaceholder: p.inputPlaceholder } : {}),
    ...(p.showToolCalls !== undefined ? { showToolCalls: p.showToolCalls } : {}),
    ...(p.starterPrompts
      ? {
          starterPrompts: Object.fromEntries(
            p.starterPrompts.filter((t) => t.trim() !== "").map((prompt, i) => [String(i), { prompt }]),
          ),
        }
      : {}),
  };
}
