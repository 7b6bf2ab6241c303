"use client";

import { memo, useId, useState } from "react";
import { feedbackEnabled, type FlowStep, stepStatusLabel } from "@/browser/client/agentflow-steps";
import { runningStepLabel, summariseToolInput } from "@/browser/client/tool-progress";
import type { ChatMessage, SourceDocument, ToolStart, UsedTool } from "./types";
import { SaveAsTestButton } from "@/components/ui/SaveAsTestButton";
import { ToolRequests } from "@/components/ui/ToolRequests";

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
  onDecide?: (messageId: number, type: "proceed" | "reject", feedback: string) => void;
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
      {m.steps && m.steps.length > 0 && <FlowSteps steps={m.steps} onShowNode={onShowNode} />}
      {m.runningStep && m.streaming && (
        <div
          className="flex items-center gap-2 rounded-lg border border-sky-200 bg-sky-50 px-3 py-1.5 text-xs text-sky-900"
          role="status"
          data-testid="running-step"
        >
          <span
            className="inline-block h-3 w-3 animate-spin rounded-full border-2 border-sky-300 border-t-sky-700"
            aria-hidden
          />
          <span className="font-medium">{m.runningStep}…</span>
        </div>
      )}
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

/**
 * The Approve / Reject buttons of an agentflow paused at a Human Input node, with the feedback box
 * when the node enables it (Flowise's "Enable feedback"), or the decision sent and its feedback.
 */
function Decision({
  m,
  onDecide,
}: {
  m: ChatMessage;
  onDecide?: (id: number, type: "proceed" | "reject", feedback: string) => void;
}) {
  const noteId = useId();
  const [note, setNote] = useState("");
  if (m.decided)
    return (
      <div className="text-xs text-slate-500" data-testid="chat-decided">
        <p>
          {m.decided === "proceed" ? "Approved" : "Rejected"} at “{m.action?.data.nodeLabel}”.
        </p>
        {m.decisionNote && <p className="mt-0.5 whitespace-pre-wrap text-slate-600">Feedback: {m.decisionNote}</p>}
      </div>
    );
  const button = "rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-50";
  const asksFeedback = m.action ? feedbackEnabled(m.action) : false;
  return (
    <fieldset className="flex flex-col gap-2" aria-label={`Decision for ${m.action?.data.nodeLabel}`}>
      {asksFeedback && (
        <>
          <label htmlFor={noteId} className="text-xs font-medium text-slate-600">
            Feedback (optional)
          </label>
          <textarea
            id={noteId}
            rows={2}
            value={note}
            maxLength={4000}
            onChange={(e) => setNote(e.target.value)}
            placeholder="Add a note for the next step"
            className="rounded-md border border-slate-300 px-2 py-1 text-sm"
          />
        </>
      )}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={!onDecide || m.streaming}
          onClick={() => onDecide?.(m.id, "proceed", note)}
          className={`${button} bg-emerald-600 text-white hover:bg-emerald-700`}
        >
          Approve
        </button>
        <button
          type="button"
          disabled={!onDecide || m.streaming}
          onClick={() => onDecide?.(m.id, "reject", note)}
          className={`${button} bg-white text-red-700 ring-1 ring-red-300 hover:bg-red-50`}
        >
          Reject
        </button>
      </div>
    </fieldset>
  );
}

const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
const STEP_DOT: Record<FlowStep["status"], string> = {
  FINISHED: "bg-emerald-500",
  STOPPED: "bg-amber-500",
  ERROR: "bg-red-500",
  INPROGRESS: "bg-sky-500",
};

/** An agentflow answer's steps, collapsed: each node's label (a click shows it on the canvas), how it ended, its time. */
function FlowSteps({ steps, onShowNode }: { steps: FlowStep[]; onShowNode?: (nodeId: string) => boolean }) {
  return (
    <details className="rounded-lg border border-slate-200 bg-slate-50 text-xs" data-testid="flow-steps">
      <summary className="cursor-pointer px-3 py-1.5 font-medium text-slate-700">Steps ({steps.length})</summary>
      <ol className="space-y-1 px-3 pb-2" aria-label="Steps">
        {steps.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a node can run more than once (loops); steps are only appended
          <li key={i} className="flex min-w-0 items-center gap-2" data-node={s.nodeId} data-status={s.status}>
            <span className={`inline-block h-2 w-2 shrink-0 rounded-full ${STEP_DOT[s.status]}`} aria-hidden />
            {onShowNode ? (
              <button
                type="button"
                className="min-w-0 flex-1 truncate text-left text-slate-800 underline-offset-2 hover:underline"
                onClick={() => onShowNode(s.nodeId)}
                title={`Show “${s.label}” on the canvas`}
              >
                {s.label}
              </button>
            ) : (
              <span className="min-w-0 flex-1 truncate text-slate-800">{s.label}</span>
            )}
            <span className="whitespace-nowrap text-slate-500">
              {stepStatusLabel(s.status)}
              {s.timeMs !== undefined && s.status === "FINISHED" ? ` · ${duration(s.timeMs)}` : ""}
            </span>
          </li>
        ))}
      </ol>
    </details>
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
        <ToolRequests requests={t.requests ?? []} />
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
