"use client";

import { memo } from "react";
import { runningStepLabel, summariseToolInput } from "@/browser/client/tool-progress";
import type { ChatMessage, SourceDocument, ToolStart, UsedTool } from "./types";
import { SaveAsTestButton } from "@/components/ui/SaveAsTestButton";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 2));

/**
 * A chat bubble; a bot answer also lists the tools it used and the documents it read, and a
 * finished answer can be saved as a test case (`saveAsTest`: the chatflow and the question asked).
 */
export const MessageView = memo(function MessageView({
  m,
  onShowNode,
  saveAsTest,
  onDecide,
}: {
  m: ChatMessage;
  /** Answers the message's Human Input `action` (approve: proceed, or reject); absent while a run streams. */
  onDecide?: (messageId: number, type: "proceed" | "reject") => void;
  /** Selects a node on the canvas (the test chat beside the editor); absent elsewhere. */
  onShowNode?: (nodeId: string) => boolean;
  saveAsTest?: { chatflowId: string; question: string; knownTools?: string[] };
}) {
  if (m.role === "user") {
    return (
      <li
        className="ml-8 self-end rounded-2xl rounded-br-sm bg-brand-600 px-3 py-2 text-sm text-white"
        data-testid="chat-user"
      >
        {m.text}
      </li>
    );
  }
  return (
    <li className="mr-4 flex flex-col gap-2" data-testid="chat-bot">
      {m.usedTools?.map((t, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: tool calls have no id; they are only appended, in order, never reordered
        <ToolCall key={i} t={t} />
      ))}
      {m.runningTools?.map((s, i) => (
        <RunningTool key={s.runId ?? i} s={s} running={!!m.streaming} />
      ))}
      {(m.text || m.streaming) && (
        <div
          className="whitespace-pre-wrap rounded-2xl rounded-bl-sm bg-white px-3 py-2 text-sm text-slate-800 ring-1 ring-slate-200"
          data-testid="chat-answer"
        >
          {m.text}
          {m.streaming && (
            <span
              className="ml-0.5 inline-block h-3.5 w-1.5 animate-pulse bg-slate-400 align-middle"
              role="img"
              aria-label="Answer streaming"
            />
          )}
        </div>
      )}
      {m.sourceDocuments && m.sourceDocuments.length > 0 && <Sources docs={m.sourceDocuments} />}
      {m.version !== undefined && !m.streaming && (
        <p className="text-[10px] text-slate-400" data-testid="chat-answer-version">
          version {m.version}
        </p>
      )}
      {m.error && (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          data-testid="chat-error"
        >
          {m.error}
        </p>
      )}
      {m.error && m.failedNode && onShowNode && (
        <button
          type="button"
          className="-mt-1 self-start px-1 text-xs font-medium text-red-800 underline"
          onClick={() => onShowNode(m.failedNode!.id)}
        >
          Show “{m.failedNode.label}” on the canvas
        </button>
      )}
      {m.action && <Decision m={m} onDecide={onDecide} />}
      {saveAsTest && !m.streaming && !m.error && !m.action && m.text && (
        <SaveAsTestButton {...saveAsTest} answer={m.text} usedTools={m.usedTools} />
      )}
    </li>
  );
});

/** The Approve / Reject buttons of an agentflow paused at a Human Input node, or the decision sent. */
function Decision({ m, onDecide }: { m: ChatMessage; onDecide?: (id: number, type: "proceed" | "reject") => void }) {
  if (m.decided)
    return (
      <p className="text-xs text-slate-500" data-testid="chat-decided">
        {m.decided === "proceed" ? "Approved" : "Rejected"} at “{m.action?.data.nodeLabel}”.
      </p>
    );
  const button = "rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-50";
  return (
    <fieldset className="flex gap-2" aria-label={`Decision for ${m.action?.data.nodeLabel}`}>
      <button
        type="button"
        disabled={!onDecide || m.streaming}
        onClick={() => onDecide?.(m.id, "proceed")}
        className={`${button} bg-emerald-600 text-white hover:bg-emerald-700`}
      >
        Approve
      </button>
      <button
        type="button"
        disabled={!onDecide || m.streaming}
        onClick={() => onDecide?.(m.id, "reject")}
        className={`${button} bg-white text-red-700 ring-1 ring-red-300 hover:bg-red-50`}
      >
        Reject
      </button>
    </fieldset>
  );
}

/** A tool call begun and not reported finished: running while the answer streams, else it never finished. */
function RunningTool({ s, running }: { s: ToolStart; running: boolean }) {
  const summary = summariseToolInput(s.input);
  return (
    <div
      className="flex items-center gap-2 rounded-lg border border-orange-200 bg-orange-50 px-3 py-1.5 text-xs text-orange-900"
      data-testid="running-tool"
      data-state={running ? "running" : "unfinished"}
      role="status"
    >
      {running && (
        <span
          className="inline-block h-3 w-3 animate-spin rounded-full border-2 border-orange-300 border-t-orange-700"
          aria-hidden
        />
      )}
      <span className="font-medium">{running ? runningStepLabel(s) : <>{s.tool} did not finish</>}</span>
      {summary && <code className="truncate font-mono text-[11px] text-orange-800">{summary}</code>}
    </div>
  );
}

function ToolCall({ t }: { t: UsedTool }) {
  return (
    <details className="rounded-lg border border-orange-200 bg-orange-50 text-xs" data-testid="used-tool" open>
      <summary className="cursor-pointer px-3 py-1.5 font-medium text-orange-900">
        Used tool <code className="font-mono">{t.tool}</code>
      </summary>
      <div className="space-y-1.5 px-3 pb-2">
        <p className="font-semibold text-slate-600">Input</p>
        <pre className="max-h-32 overflow-auto whitespace-pre-wrap break-words rounded bg-white p-2 font-mono text-[11px] text-slate-700">
          {show(t.toolInput)}
        </pre>
        <p className="font-semibold text-slate-600">Output</p>
        <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-words rounded bg-white p-2 font-mono text-[11px] text-slate-700">
          {show(t.toolOutput)}
        </pre>
      </div>
    </details>
  );
}

function Sources({ docs }: { docs: SourceDocument[] }) {
  return (
    <details className="rounded-lg border border-slate-200 bg-slate-50 text-xs" data-testid="source-documents">
      <summary className="cursor-pointer px-3 py-1.5 font-medium text-slate-700">Sources ({docs.length})</summary>
      <ol className="space-y-2 px-3 pb-2">
        {docs.map((d, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: source documents have no id; the list of a finished answer never changes
          <li key={i} className="rounded bg-white p-2 ring-1 ring-slate-200">
            <p className="line-clamp-4 text-slate-700">{d.pageContent}</p>
            {d.metadata && Object.keys(d.metadata).length > 0 && (
              <p className="mt-1 truncate font-mono text-[10px] text-slate-400">{JSON.stringify(d.metadata)}</p>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
