"use client";

import { useCallback, useRef, useState } from "react";
import { answerSteps, startedStep } from "@/browser/client/agentflow-steps";
import { PredictionRefused, streamPrediction, type StreamEvent } from "@/browser/client/prediction-stream";
import { readPredictionEvent } from "@/common/schemas/prediction-stream";
import { toGraphProblem, type GraphProblem } from "@/common/schemas/problems";
import type { ChatMessage } from "./types";
import { streamErrorMessage } from "@/common/schemas/stream-error";

type Session = { chatId?: string; sessionId?: string };
type HumanInput = { type: "proceed" | "reject"; startNodeId: string; feedback?: string };

/** The graph problems an error's details list (a refused run of an invalid flow). */
function problemsOf(details: unknown): GraphProblem[] {
  return Array.isArray(details) ? details.map(toGraphProblem).filter((p) => p !== undefined) : [];
}

/** The node an error's details name (`{node: {id, label}}`, as model failures carry), if any. */
function failedNodeOf(details: unknown): { id: string; label: string } | undefined {
  const node = (details as { node?: { id?: unknown; label?: unknown } } | null)?.node;
  return typeof node?.id === "string" && typeof node.label === "string"
    ? { id: node.id, label: node.label }
    : undefined;
}

/**
 * Chats with a saved chatflow's draft over the streaming prediction API (studio session cookie,
 * `?version=draft`; the server stores these messages as chatType INTERNAL). Keeps chatId/sessionId for follow-ups until reset.
 */
export function usePredictionChat(chatflowId: string, onServerProblems: (p: GraphProblem[]) => void) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const session = useRef<Session>({});
  const abort = useRef<AbortController | null>(null);
  const nextId = useRef(1);

  const patchLast = useCallback(
    (fn: (m: ChatMessage) => ChatMessage) => setMessages((ms) => [...ms.slice(0, -1), fn(ms[ms.length - 1])]),
    [],
  );

  const onEvent = useCallback(
    (raw: StreamEvent) => {
      const e = readPredictionEvent(raw);
      switch (e?.event) {
        case "token":
          patchLast((m) => ({ ...m, text: m.text + e.data }));
          break;
        case "toolStart":
          patchLast((m) => ({ ...m, runningTools: [...(m.runningTools ?? []), e.data] }));
          break;
        case "usedTools":
          // The finished calls replace the running steps (the same calls, in the same order).
          patchLast((m) => ({ ...m, usedTools: e.data, runningTools: undefined }));
          break;
        case "sourceDocuments":
          patchLast((m) => ({ ...m, sourceDocuments: e.data }));
          break;
        case "metadata":
          session.current = { chatId: e.data.chatId, sessionId: e.data.sessionId };
          if (e.data.chatflowVersion !== undefined) patchLast((m) => ({ ...m, version: e.data.chatflowVersion }));
          break;
        case "action":
          patchLast((m) => ({ ...m, action: e.data }));
          break;
        case "nextAgentFlow": {
          const started = startedStep(e.data);
          patchLast(({ runningStep: _was, ...m }) => (started ? { ...m, runningStep: started } : m));
          break;
        }
        case "agentFlowExecutedData":
          patchLast((m) => ({ ...m, steps: answerSteps(e.data, m.stepsFrom ?? 0) }));
          break;
        case "error":
          patchLast((m) => ({
            ...m,
            error: streamErrorMessage(e.data, "The chatflow failed to answer."),
            failedNode: failedNodeOf(e.data.details),
          }));
          break;
      }
    },
    [patchLast],
  );

  /** Shows `shown` as the user's turn and streams the answer to `body` (plus the session's ids). */
  const run = useCallback(
    async (shown: string, body: { question?: string; humanInput?: HumanInput }, stepsFrom = 0) => {
      const controller = new AbortController();
      abort.current = controller;
      setBusy(true);
      setMessages((ms) => [
        ...ms,
        { id: nextId.current++, role: "user", text: shown },
        { id: nextId.current++, role: "bot", text: "", streaming: true, ...(stepsFrom ? { stepsFrom } : {}) },
      ]);
      const { chatId, sessionId } = session.current;
      try {
        await streamPrediction({
          // The studio's test chat always runs the draft (the latest saved version), never the published one.
          url: `/api/v1/prediction/${chatflowId}?version=draft`,
          signal: controller.signal,
          onEvent,
          body: { ...body, ...(chatId ? { chatId } : {}), overrideConfig: sessionId ? { sessionId } : {} },
        });
      } catch (err) {
        if (err instanceof PredictionRefused) {
          if (Array.isArray(err.error?.details)) onServerProblems(problemsOf(err.error.details));
          patchLast((m) => ({ ...m, error: err.message, failedNode: failedNodeOf(err.error?.details) }));
        } else if ((err as Error).name !== "AbortError") {
          patchLast((m) => ({ ...m, error: `Could not reach the server: ${(err as Error).message}` }));
        }
      } finally {
        if (abort.current === controller) abort.current = null;
        setBusy(false);
        setMessages((ms) => ms.map(({ runningStep: _done, ...m }) => (m.streaming ? { ...m, streaming: false } : m)));
      }
    },
    [chatflowId, onEvent, onServerProblems, patchLast],
  );

  const send = useCallback((question: string) => run(question, { question }), [run]);

  /**
   * Answers an agentflow's Human Input (`action` of message `messageId`, with the optional feedback
   * the node asks for): resumes the same chat from that node with Flowise's `humanInput`, so only the
   * chosen branch runs. The resumed run reports the paused answer's steps again: its answer shows
   * the ones after them.
   */
  const decide = useCallback(
    (messageId: number, type: "proceed" | "reject", feedback = "") => {
      const m = messages.find((x) => x.id === messageId);
      if (!m?.action || m.decided || busy) return;
      const note = feedback.trim();
      setMessages((ms) =>
        ms.map((x) => (x.id === messageId ? { ...x, decided: type, ...(note ? { decisionNote: note } : {}) } : x)),
      );
      void run(
        type === "proceed" ? "Approved" : "Rejected",
        { humanInput: { type, startNodeId: m.action.data.nodeId, ...(note ? { feedback: note } : {}) } },
        (m.stepsFrom ?? 0) + (m.steps?.length ?? 0),
      );
    },
    [messages, busy, run],
  );

  const reset = useCallback(() => {
    abort.current?.abort();
    session.current = {};
    setMessages([]);
  }, []);

  return { messages, busy, send, decide, reset };
}
