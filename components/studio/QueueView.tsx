"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/browser/client/api";
import { queueViewResponseSchema } from "@/common/schemas/responses";
import { Card, ErrorNote, PageHeader } from "@/components/ui/controls";

/** Refreshed every few seconds while the page is open. */
export const QUEUE_REFRESH_MS = 3_000;

const COLUMNS = ["waiting", "active", "delayed", "failed", "completed"] as const;

const ago = (iso: string | null) => {
  if (!iso) return "–";
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 90 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
};

export function QueueView() {
  const view = useQuery({
    queryKey: ["admin-queue"],
    queryFn: () => api("/api/v1/admin/queue", { schema: queueViewResponseSchema }),
    refetchInterval: QUEUE_REFRESH_MS,
  });
  const data = view.data;

  return (
    <>
      <PageHeader
        title="Queue"
        subtitle={
          data?.mode === "queue"
            ? "Queue mode: API processes hand jobs to workers through Redis. Refreshed every few seconds."
            : "Embedded mode: this process runs every job itself (start with MODE=queue for workers)."
        }
      />
      <div className="mb-3">
        <ErrorNote error={view.error} />
      </div>
      <Card className="mb-6 overflow-x-auto">
        <table className="w-full text-sm">
          <thead className="text-left text-slate-500">
            <tr>
              <th className="px-4 py-2 font-medium">Queue</th>
              {COLUMNS.map((c) => (
                <th key={c} className="px-4 py-2 text-right font-medium capitalize">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data?.queues.map((q) => (
              <tr key={q.name}>
                <td className="px-4 py-2 font-medium">{q.name}</td>
                {COLUMNS.map((c) => (
                  <td key={c} className="px-4 py-2 text-right tabular-nums">
                    {q[c]}
                  </td>
                ))}
              </tr>
            ))}
            {data && !data.queues.length && (
              <tr>
                <td colSpan={6} className="px-4 py-3 text-slate-500">
                  No job has been queued in this process yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </Card>

      {data?.mode === "queue" && (
        <>
          <h2 className="mb-2 text-sm font-semibold text-slate-700">Running jobs ({data.active.length})</h2>
          <Card className="mb-6 divide-y divide-slate-100">
            {data.active.map((j) => (
              <div key={`${j.queue}:${j.id}`} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 text-sm">
                <span className="font-medium">
                  {j.queue} #{j.id}
                </span>
                <span className="text-slate-600">{j.name}</span>
                {j.chatflowId && <span className="text-slate-500">chatflow {j.chatflowId}</span>}
                <span className="text-slate-500">attempt {j.attempt}</span>
                <span className="ml-auto text-slate-500">started {ago(j.startedAt)}</span>
                {j.requestId && <span className="w-full font-mono text-xs text-slate-400">request {j.requestId}</span>}
              </div>
            ))}
            {!data.active.length && <p className="px-4 py-3 text-sm text-slate-500">No job is running.</p>}
          </Card>

          <h2 className="mb-2 text-sm font-semibold text-slate-700">Workers ({data.workers.length})</h2>
          <Card className="divide-y divide-slate-100">
            {data.workers.map((w) => (
              <div key={w.workerId} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 text-sm">
                <span className="font-medium">{w.host}</span>
                <span className="text-slate-500">pid {w.pid}</span>
                <span className="text-slate-600">
                  {w.activeJobs} / {w.concurrency} busy
                </span>
                <span className="text-slate-500">{w.queues.join(", ")}</span>
                <span className="ml-auto text-slate-500">
                  up since {new Date(w.startedAt).toLocaleString()} · seen {ago(w.seenAt)}
                </span>
              </div>
            ))}
            {!data.workers.length && (
              <p className="px-4 py-3 text-sm text-amber-700">
                No worker is running: jobs wait until one starts (`npm run worker`).
              </p>
            )}
          </Card>
        </>
      )}
    </>
  );
}
