"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/browser/client/api";
import { COUNT_MEANINGS, QUEUE_COUNTS, countsLine, describeQueue } from "@/browser/client/queue-labels";
import { queueViewResponseSchema } from "@/common/schemas/responses";
import { Card, ErrorNote, PageHeader } from "@/components/ui/controls";
import { QueueOperatorDetails } from "./QueueOperatorDetails";

/** Refreshed every few seconds while the page is open. */
export const QUEUE_REFRESH_MS = 3_000;

const EMBEDDED_NOTE =
  "This server runs in embedded mode: it does all the work in its own process. Chat answers and document uploads run while their request waits, so they never show here; domain analyses, test runs and scheduled runs show once one has started since the server started.";
const QUEUE_NOTE =
  "This server runs in queue mode: it hands work to separate worker processes. The counts cover every worker; work waits here when all of them are busy.";

/** The Queue page: the server's background work in a builder's words, operator details folded away. */
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
        subtitle="Work this server does in the background: what waits, what runs, what finished or failed. Refreshed every few seconds."
      />
      <div className="mb-3">
        <ErrorNote error={view.error} />
      </div>
      {data && (
        <p className="mb-4 max-w-3xl text-sm text-slate-600" data-testid="queue-mode-note">
          {data.mode === "queue" ? QUEUE_NOTE : EMBEDDED_NOTE}
        </p>
      )}
      {data?.mode === "queue" && !data.workers.length && (
        <p className="mb-4 rounded bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200" role="status">
          No worker is running: work waits until one starts.
        </p>
      )}

      <Card className="mb-4 divide-y divide-slate-100">
        {data?.queues.map((q) => {
          const { title, what } = describeQueue(q.name);
          return (
            <section key={q.name} className="px-4 py-3" aria-label={title} data-queue={q.name}>
              <div className="flex flex-wrap items-baseline justify-between gap-x-4">
                <h2 className="text-sm font-semibold text-slate-800">{title}</h2>
                <p className="text-xs text-slate-500">{countsLine(q)}</p>
              </div>
              {what && <p className="text-xs text-slate-500">{what}</p>}
              <dl className="mt-2 grid grid-cols-3 gap-2 text-center sm:grid-cols-5">
                {QUEUE_COUNTS.map((c) => (
                  <div key={c} className="rounded bg-slate-50 px-2 py-1">
                    <dt className="text-[11px] text-slate-500">{COUNT_MEANINGS[c].label}</dt>
                    <dd className="text-base font-semibold tabular-nums text-slate-800">{q[c]}</dd>
                  </div>
                ))}
              </dl>
            </section>
          );
        })}
        {data && !data.queues.length && (
          <p className="px-4 py-3 text-sm text-slate-600" data-testid="queue-empty">
            {data.mode === "queue"
              ? "No work has been queued yet."
              : "Nothing has run in the background since the server started."}
          </p>
        )}
      </Card>

      <h2 className="mb-1 text-sm font-semibold text-slate-700">What the counts mean</h2>
      <dl className="grid max-w-3xl grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" data-testid="queue-legend">
        {QUEUE_COUNTS.map((c) => (
          <div key={c} className="contents">
            <dt className="font-medium text-slate-700">{COUNT_MEANINGS[c].label}</dt>
            <dd className="text-slate-600">{COUNT_MEANINGS[c].meaning}</dd>
          </div>
        ))}
      </dl>

      {data && <QueueOperatorDetails data={data} />}
    </>
  );
}
