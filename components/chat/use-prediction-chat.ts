"use client";

import { useCallback, useRef, useState } from "react";
import { toGraphProblem, type GraphProblem } from "@/lib/schemas/problems";
import { readEventStream, type PredictionEvent } from "./sse";
import type { ChatMessage, SourceDocument, UsedTool } from "./types";
import { streamErrorMessage } from "@/lib/schemas/stream-error";

type Session = { chatId?: string; sessionId?: string };

/**
 * Chats with a saved chatflow over the streaming prediction API (studio session cookie; the server
 * stores these messages as chatType INTERNAL). Keeps chatId/sessionId for follow-ups until reset.
 */
export function usePredictionChat(chatflowId: string, onServerProblems: (p: GraphProblem[]) => void) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const session = useRef<Session>({});
  const abort = useRef<AbortController | null>(null);
  const nextId = useRef(1);

  const patchLast = (fn: (m: ChatMessage) => ChatMessage) => setMessages((ms) => [...ms.slice(0, -1), fn(ms[ms.length - 1])]);

  const onEvent = useCallback((e: PredictionEvent) => {
    switch (e.event) {
      case "token":
        if (typeof e.data === "string") patchLast((m) => ({ ...m, text: m.text + e.data }));
        break;
      case "usedTools":
        patchLast((m) => ({ ...m, usedTools: e.data as UsedTool[] }));
        break;
      case "sourceDocuments":
        patchLast((m) => ({ ...m, sourceDocuments: e.data as SourceDocument[] }));
        break;
      case "metadata": {
        const d = e.data as Session;
        session.current = { chatId: d.chatId ?? session.current.chatId, sessionId: d.sessionId ?? session.current.sessionId };
        break;
      }
      case "error":
        patchLast((m) => ({ ...m, error: streamErrorMessage(e.data, "The chatflow failed to answer.") }));
        break;
    }
  }, []);

  const send = useCallback(async (question: string) => {
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setMessages((ms) => [...ms, { id: nextId.current++, role: "user", text: question }, { id: nextId.current++, role: "bot", text: "", streaming: true }]);
    const { chatId, sessionId } = session.current;
    try {
      const res = await fetch(`/api/v1/prediction/${chatflowId}`, {
        method: "POST", signal: controller.signal, credentials: "same-origin",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ question, streaming: true, ...(chatId ? { chatId } : {}), overrideConfig: sessionId ? { sessionId } : {} }),
      });
      const type = res.headers.get("content-type") ?? "";
      if (!res.ok || type.includes("application/json")) {
        const body = await res.json().catch(() => undefined);
        if (!res.ok) {
          const err = body?.error ?? { message: `The server answered ${res.status}.` };
          if (Array.isArray(err.details)) onServerProblems(err.details.map(toGraphProblem).filter((p: GraphProblem | undefined) => p !== undefined));
          patchLast((m) => ({ ...m, error: err.message ?? `The server answered ${res.status}.` }));
        } else {
          session.current = { chatId: body.chatId, sessionId: body.sessionId };
          patchLast((m) => ({ ...m, text: body.text ?? "", usedTools: body.usedTools, sourceDocuments: body.sourceDocuments }));
        }
      } else if (res.body) {
        await readEventStream(res.body, onEvent);
      }
    } catch (err) {
      if ((err as Error).name !== "AbortError") patchLast((m) => ({ ...m, error: `Could not reach the server: ${(err as Error).message}` }));
    } finally {
      if (abort.current === controller) abort.current = null;
      setBusy(false);
      setMessages((ms) => ms.map((m) => (m.streaming ? { ...m, streaming: false } : m)));
    }
  }, [chatflowId, onEvent, onServerProblems]);

  const reset = useCallback(() => {
    abort.current?.abort();
    session.current = {};
    setMessages([]);
  }, []);

  return { messages, busy, send, reset };
}
