"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { z } from "zod";
import { api } from "@/browser/client/api";
import { Button, ErrorNote } from "@/components/ui/controls";
import {
  analysisRunResponseSchema,
  chatflowSummaryResponseSchema,
  startAnalysisResponseSchema,
} from "@/common/schemas/responses";

const flowListSchema = z.array(chatflowSummaryResponseSchema);

/** Chooses the analysing chatflow, starts runs and shows the progress of the latest one. */
export function AnalyzeBar({
  selected,
  filter,
  onProgress,
}: {
  selected: string[];
  filter: Record<string, string>;
  onProgress: () => void;
}) {
  const flows = useQuery({
    queryKey: ["chatflows"],
    queryFn: () => api("/api/v1/chatflows", { schema: flowListSchema }),
  });
  const [flowId, setFlowId] = useState("");
  const [runId, setRunId] = useState<string | null>(null);
  useEffect(() => {
    if (!flowId && flows.data?.length) setFlowId((flows.data.find((f) => /domain/i.test(f.name)) ?? flows.data[0]).id);
  }, [flows.data, flowId]);
  const run = useQuery({
    queryKey: ["analysis-run", runId],
    enabled: !!runId,
    queryFn: () => api(`/api/v1/domains/runs/${runId}`, { schema: analysisRunResponseSchema }),
    refetchInterval: (q) => (q.state.data?.status === "finished" ? false : 1500),
  });
  const done = run.data ? run.data.succeeded + run.data.failed : 0;
  const status = run.data?.status;
  // Refresh the list as domains finish: once per new status or count of finished domains
  // (onProgress is stable: the parent memoises it).
  const progress = status && `${status}:${done}`;
  useEffect(() => {
    if (progress) onProgress();
  }, [progress, onProgress]);
  const start = useMutation({
    mutationFn: (body: object) =>
      api("/api/v1/domains/analyze", { method: "POST", body, schema: startAnalysisResponseSchema }),
    onSuccess: (r) => {
      setRunId(r.run?.id ?? null);
      onProgress();
    },
  });

  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      {/* The select takes the width left, never more: a long chatflow name must not widen a phone's page. */}
      <label className="flex w-full min-w-0 items-center gap-2 sm:w-auto">
        <span className="shrink-0 text-slate-600">Analyse with</span>
        <select
          aria-label="Analysing chatflow"
          className="min-w-0 flex-1 truncate rounded-md border border-slate-300 bg-white px-2 py-1.5 sm:max-w-xs"
          value={flowId}
          onChange={(e) => setFlowId(e.target.value)}
        >
          {flows.data?.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      <Button
        disabled={!flowId || !selected.length || start.isPending}
        onClick={() => start.mutate({ chatflowId: flowId, ids: selected })}
      >
        Analyse selected ({selected.length})
      </Button>
      <Button
        variant="secondary"
        disabled={!flowId || start.isPending}
        onClick={() => start.mutate({ chatflowId: flowId, filter })}
      >
        Analyse all matching
      </Button>
      {start.data && !start.data.run && (
        <span className="text-slate-500">Nothing to analyse (only valid domains are analysed).</span>
      )}
      {run.data && (
        <span role="status" aria-label="Analysis progress" className="text-slate-600">
          {run.data.status === "finished" ? "Finished" : "Analysing"}: {done} of {run.data.total}
          {run.data.failed ? ` (${run.data.failed} failed)` : ""}
          <progress className="ml-2 h-2 w-32 align-middle" max={run.data.total} value={done} />
        </span>
      )}
      <ErrorNote error={start.error ?? run.error} />
    </div>
  );
}
