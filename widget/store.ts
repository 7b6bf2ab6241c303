import type { ChatMessage } from "./types";

const MAX_KEPT = 100;

/** A random id; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newId(): string {
  if (typeof crypto.randomUUID === "function" && window.isSecureContext) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export interface Session {
  chatId: string;
  messages: ChatMessage[];
}

/** The conversation of one chatflow on this site, kept across reloads in localStorage. */
export class SessionStore {
  private readonly key: string;

  constructor(
    chatflowId: string,
    private readonly storage: Storage | null = safeStorage(),
  ) {
    this.key = `switchyard.chat.${chatflowId}`;
  }

  /** The saved session, or a fresh one. */
  load(): Session {
    try {
      const raw = this.storage?.getItem(this.key);
      const parsed = raw ? (JSON.parse(raw) as Partial<Session>) : null;
      if (parsed && typeof parsed.chatId === "string" && Array.isArray(parsed.messages)) {
        return { chatId: parsed.chatId, messages: parsed.messages };
      }
    } catch {
      // Corrupt or unreadable: start over.
    }
    return { chatId: newId(), messages: [] };
  }

  save(session: Session): void {
    try {
      this.storage?.setItem(
        this.key,
        JSON.stringify({ chatId: session.chatId, messages: session.messages.slice(-MAX_KEPT) }),
      );
    } catch {
      // Full or blocked storage: the chat still works, it just won't survive a reload.
    }
  }
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
