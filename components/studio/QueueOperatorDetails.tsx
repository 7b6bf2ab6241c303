"use client";

import type { z } from "zod";
import type { queueViewResponseSchema } from "@/common/schemas/responses";
import { QUEUE_COUNTS } from "@/browser/client/queue-labels";
import { Card } from "@/components/ui/controls";

type QueueViewData = z.infer<typeof queueViewResponseSchema>;

const ago = (iso: string | null) => {
  if (!iso) return "–";
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 90 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
};

/**
 * What an operator looks at (queue names as in Redis, raw counts, running job ids, worker processes):
 * folded away under the builder's view, open on demand.
 */
export function QueueOperatorDetails({ data }: { data: QueueViewData }) {
  return (
    <details className="mt-6 text-sm" data-testid="queue-operator-details">
      <summary className="cursor-pointer font-medium text-slate-700">
        Operator details: queue names, running jobs{data.mode === "queue" ? ", workers" : ""}
      </summary>
      <Card className="mt-2 overflow-x-auto">
        <table className="w-full text-xs">
          <thead className="text-left text-slate-500">
            <tr>
              <th className="px-3 py-1.5 font-medium">Queue</th>
              {QUEUE_COUNTS.map((c) => (
                <th key={c} className="px-3 py-1.5 text-right font-mono font-medium">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.queues.map((q) => (
              <tr key={q.name}>
                <td className="px-3 py-1.5 font-mono">{q.name}</td>
                {QUEUE_COUNTS.map((c) => (
                  <td key={c} className="px-3 py-1.5 text-right tabular-nums">
                    {q[c]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {data.mode === "embedded" ? (
        <p className="mt-2 text-slate-600">
          Embedded mode (MODE=embedded): in-process jobs have no ids, so only counts are kept. Start API processes with
          MODE=queue and `npm run worker` to run work on workers through Redis.
        </p>
      ) : (
        <>
          <h3 className="mt-3 mb-1 font-semibold text-slate-700">Running jobs ({data.active.length})</h3>
          <Card className="divide-y divide-slate-100">
            {data.active.map((j) => (
              <div key={`${j.queue}:${j.id}`} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
                <span className="font-medium">
                  {j.queue} #{j.id}
                </span>
                <span className="text-slate-600">{j.name}</span>
                {j.chatflowId && <span className="text-slate-500">chatflow {j.chatflowId}</span>}
                <span className="text-slate-500">attempt {j.attempt}</span>
                <span className="ml-auto text-slate-500">started {ago(j.startedAt)}</span>
                {j.requestId && <span className="w-full font-mono text-xs text-slate-500">request {j.requestId}</span>}
              </div>
            ))}
            {!data.active.length && <p className="px-4 py-3 text-slate-500">No job is running.</p>}
          </Card>
          <h3 className="mt-3 mb-1 font-semibold text-slate-700">Workers ({data.workers.length})</h3>
          <Card className="divide-y divide-slate-100">
            {data.workers.map((w) => (
              <div key={w.workerId} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
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
            {!data.workers.length && <p className="px-4 py-3 text-slate-500">No worker process has reported in.</p>}
          </Card>
        </>
      )}
    </details>
  );
}
