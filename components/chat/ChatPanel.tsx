"use client";

import { CloseButton } from "@/components/ui/controls";
import { useEffect, useRef, useState } from "react";
import type { GraphProblem } from "@/common/schemas/problems";
import { MessageView } from "./MessageView";
import { usePredictionChat } from "./use-prediction-chat";
import { toolsOfConversation } from "@/browser/client/test-case-draft";

type Props = {
  chatflowId: string;
  dirty: boolean;
  onClose: () => void;
  onServerProblems: (p: GraphProblem[]) => void;
  /** Selects the node on the canvas (false when it is not there). */
  onShowNode?: (nodeId: string) => boolean;
};

/** Test chat beside the canvas: talks to the saved flow, streaming. */
export function ChatPanel({ chatflowId, dirty, onClose, onServerProblems, onShowNode }: Props) {
  const { messages, busy, send, decide, reset } = usePredictionChat(chatflowId, onServerProblems);
  const [draft, setDraft] = useState("");
  const list = useRef<HTMLOListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls to the end whenever the messages change.
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [messages]);
  return (
    <aside
      aria-label="Test chat"
      className="flex w-[22rem] shrink-0 flex-col border-l border-slate-200 bg-slate-50 max-[1100px]:w-80 max-md:absolute max-md:inset-y-0 max-md:right-0 max-md:z-20 max-md:w-full max-md:max-w-[24rem] max-md:shadow-xl"
    >
      <div className="flex h-11 items-center gap-2 border-b border-slate-200 bg-white px-3">
        <h2 className="flex-1 text-sm font-semibold">Test chat</h2>
        <button
          type="button"
          onClick={reset}
          className="rounded-md px-2 py-1 text-xs font-medium text-slate-600 ring-1 ring-slate-300 hover:bg-slate-50"
        >
          New session
        </button>
        <CloseButton label="Close test chat" onClick={onClose} />
      </div>
      {dirty && (
        <p className="border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-xs text-amber-900">
          You have unsaved changes: the chat runs the last saved version.
        </p>
      )}
      <ol
        ref={list}
        className="flex flex-1 flex-col gap-3 overflow-y-auto p-3"
        aria-live="polite"
        aria-label="Messages"
      >
        {messages.length === 0 && (
          <li className="m-auto max-w-[16rem] text-center text-sm text-slate-500">
            Ask the saved flow something. Tool calls and source documents appear with each answer.
          </li>
        )}
        {messages.map((m, i) => {
          const asked = messages[i - 1];
          const saveAsTest =
            m.role === "bot" && asked?.role === "user"
              ? { chatflowId, question: asked.text, knownTools: toolsOfConversation(messages) }
              : undefined;
          return (
            <MessageView
              key={m.id}
              m={m}
              onShowNode={onShowNode}
              saveAsTest={saveAsTest}
              onDecide={busy ? undefined : decide}
            />
          );
        })}
      </ol>
      <form
        className="flex gap-2 border-t border-slate-200 bg-white p-3"
        onSubmit={(e) => {
          e.preventDefault();
          const q = draft.trim();
          if (q && !busy) {
            setDraft("");
            void send(q);
          }
        }}
      >
        <label htmlFor="chat-question" className="sr-only">
          Message
        </label>
        <input
          id="chat-question"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="Type a message…"
          autoComplete="off"
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
        />
        <button
          type="submit"
          disabled={busy || !draft.trim()}
          className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:bg-brand-600/50"
        >
          {busy ? "…" : "Send"}
        </button>
      </form>
    </aside>
  );
}
