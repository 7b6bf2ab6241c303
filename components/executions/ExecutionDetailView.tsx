"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { api } from "@/browser/client/api";
import type { NodeDefinition } from "@/common/nodes/types";
import { executionDetailSchema, executionsDeletedSchema } from "@/common/schemas/execution";
import { Button, Card, ErrorNote, PageHeader } from "@/components/ui/controls";
import { ExecutionStep } from "./ExecutionStep";
import { HumanDecision } from "./HumanDecision";
import { type RunCanvasSlot, RunPathSection } from "./RunPathSection";
import { runDuration, showValue, STATUS_LABEL, statusClass } from "./format";
import { RunUsage } from "./RunUsage";

/**
 * One run: its status and ids, each step in the order it ran, the path it took on its flow's canvas
 * (drawn by `canvas`, the studio's canvas), its flow state; approve/reject, delete.
 */
export function ExecutionDetailView({
  id,
  definitions,
  canvas,
}: {
  id: string;
  definitions: readonly NodeDefinition[];
  canvas?: RunCanvasSlot;
}) {
  const qc = useQueryClient();
  const router = useRouter();
  const run = useQuery({
    queryKey: ["execution", id],
    queryFn: () => api(`/api/v1/executions/${id}`, { schema: executionDetailSchema }),
    // A run still going is read again until it stops (finished, paused or failed).
    refetchInterval: (q) => (q.state.data?.status === "running" ? 2000 : false),
  });
  const remove = useMutation({
    mutationFn: () => api(`/api/v1/executions/${id}`, { method: "DELETE", schema: executionsDeletedSchema }),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: ["executions"] });
      router.push(run.data ? `/executions?agentflowId=${run.data.agentflowId}` : "/executions");
    },
  });
  const r = run.data;
  return (
    <>
      <PageHeader
        title={r ? `Run of ${r.agentflow.name}` : "Run"}
        subtitle={r ? `Started ${new Date(r.createdAt).toLocaleString()} · ${runDuration(r)}` : undefined}
        actions={
          <Link
            href={r ? `/executions?agentflowId=${r.agentflowId}` : "/executions"}
            className="whitespace-nowrap text-sm text-brand-700 hover:underline"
          >
            ← Executions
          </Link>
        }
      />
      <ErrorNote error={run.error ?? remove.error} />
      {r && (
        <>
          <Card className="mb-4 flex flex-wrap items-center gap-x-6 gap-y-2 p-4 text-sm">
            <span className={statusClass(r.status)} data-testid="execution-status" title={`Flowise: ${r.state}`}>
              {STATUS_LABEL[r.status]}
            </span>
            <span className="min-w-0 break-all">
              session <code>{r.sessionId}</code>
            </span>
            <span className="min-w-0 break-all">
              chat <code>{r.chatId}</code>
            </span>
            <span>v{r.version}</span>
            <RunUsage usage={r.usage} />
            <Link href={`/chatflows/${r.agentflowId}`} className="text-brand-700 hover:underline">
              Open the agentflow
            </Link>
            <Button
              variant="danger"
              className="ml-auto"
              disabled={remove.isPending || r.status === "running"}
              title={r.status === "running" ? "A running run cannot be deleted" : undefined}
              onClick={() => {
                if (confirm("Delete this run and its step data?")) remove.mutate();
              }}
            >
              Delete run
            </Button>
            {r.error && <p className="w-full text-red-800">{r.error}</p>}
          </Card>
          {r.status === "paused" && r.action && (
            <HumanDecision run={r} onDecided={() => void qc.invalidateQueries({ queryKey: ["execution", id] })} />
          )}
          {/* Side by side when there is room; on a phone the canvas comes under the steps. */}
          <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <section aria-labelledby="steps-heading" className="min-w-0">
              <h2 id="steps-heading" className="mb-2 text-sm font-semibold text-slate-700">
                Steps
              </h2>
              <ol aria-label="Steps" className="flex flex-col gap-2">
                {r.executionData.map((step, i) => (
                  <ExecutionStep key={`${step.startedAt ?? ""}-${step.nodeId}`} step={step} index={i} />
                ))}
                {r.executionData.length === 0 && <li className="text-sm text-slate-500">No step has run yet.</li>}
              </ol>
            </section>
            {canvas && <RunPathSection run={r} definitions={definitions} canvas={canvas} />}
          </div>
          <h2 className="mb-2 mt-6 text-sm font-semibold text-slate-700">Flow state</h2>
          <pre className="overflow-auto whitespace-pre-wrap break-words rounded-md bg-white p-3 text-xs ring-1 ring-slate-200">
            {showValue(r.flowState)}
          </pre>
        </>
      )}
    </>
  );
}
