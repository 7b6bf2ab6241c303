"use client";

import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/browser/client/api";
import { chatMessageRecordSchema } from "@/common/schemas/chat-message";
import { ErrorNote } from "@/components/ui/controls";
import { SaveAsTestButton } from "@/components/ui/SaveAsTestButton";
import type { UsedTool } from "@/common/schemas/prediction-stream";
import { filterQuery, type Filters } from "./types";
import { formatUsd } from "@/components/ui/format-usd";
import type { MessageUsage } from "@/common/schemas/usage";
import { toolsOfConversation } from "@/browser/client/test-case-draft";
import { readToolRequests, ToolRequests } from "@/components/ui/ToolRequests";

type Tool = { tool?: string; toolInput?: unknown; toolOutput?: unknown; requests?: unknown };
type Source = { pageContent?: string; metadata?: Record<string, unknown> };
const messageListSchema = z.array(chatMessageRecordSchema);

/** "120 in + 45 out tokens (estimated) · $0.000123 · 1.2 s": an answer's usage in one line. */
function usageText(u: MessageUsage): string {
  const tokens = `${u.promptTokens} in + ${u.completionTokens} out tokens${u.estimated ? " (estimated)" : ""}`;
  const cost = u.costUsd === null ? "cost unknown" : formatUsd(u.costUsd);
  return `${tokens} · ${cost} · ${(u.latencyMs / 1000).toFixed(1)} s`;
}

/**
 * The messages of one session, oldest first, with the tools used and the sources cited; each answer
 * to a question can be saved as a test case of the chatflow.
 */
export function Transcript({
  base,
  sessionId,
  filters,
  chatflowId,
}: {
  base: string;
  sessionId: string;
  filters: Filters;
  chatflowId: string;
}) {
  const messages = useQuery({
    queryKey: ["transcript", base, sessionId, filters],
    queryFn: () => api(`${base}${filterQuery(filters, { sessionId })}`, { schema: messageListSchema }),
  });
  if (messages.error) return <ErrorNote error={messages.error} />;
  return (
    <ol aria-label="Transcript" className="flex flex-col gap-3">
      {messages.data?.map((m, i, all) => (
        <li
          key={m.id}
          className={`max-w-[90%] rounded-lg px-3 py-2 text-sm ${m.role === "userMessage" ? "self-end bg-brand-600 text-white" : "self-start bg-slate-100"}`}
        >
          <p className="whitespace-pre-wrap">{m.content}</p>
          <p className={`mt-1 text-[11px] ${m.role === "userMessage" ? "text-white/70" : "text-slate-500"}`}>
            {new Date(m.createdDate).toLocaleString()}
            {m.chatflowVersion != null && (
              <span data-testid={`answer-version-${m.id}`}> · version {m.chatflowVersion}</span>
            )}
            {m.usage && (
              <span data-testid={`answer-usage-${m.id}`} title={m.usage.models.join(", ") || "no model called"}>
                {" · "}
                {usageText(m.usage)}
              </span>
            )}
          </p>
          {Array.isArray(m.usedTools) && m.usedTools.length > 0 && (
            <details className="mt-2 text-xs">
              <summary className="cursor-pointer font-medium">Used tools ({m.usedTools.length})</summary>
              {(m.usedTools as Tool[]).map((t, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: stored tool calls have no id and this list never changes
                <div key={i} className="mt-1 rounded bg-white p-2 ring-1 ring-slate-200">
                  <p className="font-mono">{t.tool}</p>
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap text-[11px]">
                    {JSON.stringify(t.toolInput, null, 2)}
                  </pre>
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap text-[11px] text-slate-600">
                    {typeof t.toolOutput === "string" ? t.toolOutput : JSON.stringify(t.toolOutput, null, 2)}
                  </pre>
                  <ToolRequests requests={readToolRequests(t.requests)} />
                </div>
              ))}
            </details>
          )}
          {Array.isArray(m.sourceDocuments) && m.sourceDocuments.length > 0 && (
            <details className="mt-2 text-xs">
              <summary className="cursor-pointer font-medium">Sources ({m.sourceDocuments.length})</summary>
              {(m.sourceDocuments as Source[]).map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: stored source documents have no id and this list never changes
                <blockquote key={i} className="mt-1 rounded bg-white p-2 ring-1 ring-slate-200">
                  {String(s.metadata?.source ?? "")} {s.pageContent?.slice(0, 400)}
                </blockquote>
              ))}
            </details>
          )}
          {m.feedback && (
            <p className="mt-1 text-xs text-slate-600" data-testid={`feedback-${m.id}`}>
              {m.feedback.rating === "THUMBS_UP" ? "👍 Helpful" : "👎 Not helpful"}
              {m.feedback.content ? ` · “${m.feedback.content}”` : ""}
            </p>
          )}
          {m.role === "apiMessage" && all[i - 1]?.role === "userMessage" && (
            <div className="mt-1.5">
              <SaveAsTestButton
                chatflowId={chatflowId}
                question={all[i - 1]!.content}
                answer={m.content}
                usedTools={Array.isArray(m.usedTools) ? (m.usedTools as UsedTool[]) : undefined}
                knownTools={toolsOfConversation(
                  all.map((a) => ({ usedTools: Array.isArray(a.usedTools) ? (a.usedTools as UsedTool[]) : null })),
                )}
              />
            </div>
          )}
          {m.fileUploads?.map((f) => (
            <p key={f.path} className="mt-1 text-xs">
              📎 {f.name} ({f.mime})
            </p>
          ))}
        </li>
      ))}
    </ol>
  );
}
