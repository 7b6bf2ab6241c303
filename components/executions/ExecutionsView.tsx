"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/browser/client/api";
import { chatflowResponseSchema } from "@/common/schemas/chatflow";
import { EXECUTION_STATUSES, executionListResponseSchema, type ExecutionSummary } from "@/common/schemas/execution";
import { Button, Card, ErrorNote, PageHeader } from "@/components/ui/controls";
import { runDuration, STATUS_LABEL, statusClass } from "./format";

type Status = ExecutionSummary["status"];

function listPath(agentflowId: string | undefined, status: Status | "", cursor: string | null): string {
  const q = new URLSearchParams({ limit: "25" });
  if (agentflowId) q.set("agentflowId", agentflowId);
  if (status) q.set("status", status);
  if (cursor) q.set("cursor", cursor);
  return `/api/v1/executions?${q}`;
}

function RunRow({ run, showFlow }: { run: ExecutionSummary; showFlow: boolean }) {
  return (
    <li>
      <Link
        href={`/executions/${run.id}`}
        className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm hover:bg-slate-50"
        data-testid={`execution-${run.id}`}
      >
        <span className={statusClass(run.status)} title={`Flowise: ${run.state}`}>
          {STATUS_LABEL[run.status]}
        </span>
        {showFlow && <span className="min-w-0 max-w-xs truncate font-medium">{run.agentflow.name}</span>}
        <span className="text-slate-600">
          <span className="sr-only">Started </span>
          {new Date(run.createdAt).toLocaleString()}
        </span>
        <span className="text-slate-600">
          <span className="sr-only">Duration </span>
          {runDuration(run)}
        </span>
        <span className="text-slate-600">
          {run.nodeCount} {run.nodeCount === 1 ? "step" : "steps"}
        </span>
        <span className="min-w-0 truncate text-xs text-slate-500 sm:ml-auto">
          session <code>{run.sessionId}</code>
        </span>
        {run.error && <span className="w-full truncate text-xs text-red-800">{run.error}</span>}
      </Link>
    </li>
  );
}

/** Agentflow runs, newest first: every flow's, or one agentflow's (`agentflowId`), filtered by status. */
export function ExecutionsView({ agentflowId }: { agentflowId?: string }) {
  const [status, setStatus] = useState<Status | "">("");
  const flow = useQuery({
    queryKey: ["chatflow", agentflowId],
    queryFn: () => api(`/api/v1/chatflows/${agentflowId}`, { schema: chatflowResponseSchema }),
    enabled: !!agentflowId,
  });
  const runs = useInfiniteQuery({
    queryKey: ["executions", agentflowId ?? "", status],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => api(listPath(agentflowId, status, pageParam), { schema: executionListResponseSchema }),
    getNextPageParam: (last) => last.nextCursor,
  });
  const all = runs.data?.pages.flatMap((p) => p.data) ?? [];
  const total = runs.data?.pages[0]?.total;
  return (
    <>
      <PageHeader
        title={`Executions${flow.data ? ` · ${flow.data.name}` : ""}`}
        subtitle="Every run of an agentflow, step by step. A run waiting at Human Input is approved or rejected here."
        actions={
          agentflowId ? (
            <Link href={`/chatflows/${agentflowId}`} className="text-sm text-brand-700 hover:underline">
              ← Open the agentflow
            </Link>
          ) : undefined
        }
      />
      <Card className="mb-4 flex flex-wrap items-end gap-3 p-4">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">Status</span>
          <select
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
            value={status}
            onChange={(e) => setStatus(e.target.value as Status | "")}
          >
            <option value="">All</option>
            {EXECUTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        {agentflowId && (
          <Link href="/executions" className="py-2 text-sm text-brand-700 hover:underline">
            Runs of every agentflow
          </Link>
        )}
        {total !== undefined && (
          <p className="ml-auto py-2 text-sm text-slate-600" aria-live="polite">
            {total} {total === 1 ? "run" : "runs"}
          </p>
        )}
      </Card>
      <ErrorNote error={runs.error} />
      <Card className="overflow-hidden">
        <ul aria-label="Executions" className="divide-y divide-slate-100">
          {all.map((run) => (
            <RunRow key={run.id} run={run} showFlow={!agentflowId} />
          ))}
          {runs.data && all.length === 0 && (
            <li className="px-4 py-8 text-center text-sm text-slate-500">
              No runs{status ? ` ${STATUS_LABEL[status].toLowerCase()}` : ""} yet.
            </li>
          )}
          {runs.isPending && <li className="px-4 py-8 text-center text-sm text-slate-500">Loading runs…</li>}
        </ul>
        {runs.hasNextPage && (
          <div className="border-t border-slate-100 px-4 py-2 text-center">
            <Button variant="ghost" disabled={runs.isFetchingNextPage} onClick={() => void runs.fetchNextPage()}>
              {runs.isFetchingNextPage ? "Loading…" : "Older runs"}
            </Button>
          </div>
        )}
      </Card>
    </>
  );
}
