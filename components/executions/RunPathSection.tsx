"use client";

import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useMemo, useState } from "react";
import { api, ApiError } from "@/browser/client/api";
import { RUN_NODE_LABEL, type RunPath, runPath } from "@/common/agentflow/run-path";
import { nodeCatalog } from "@/common/nodes/catalog";
import type { NodeDefinition } from "@/common/nodes/types";
import { chatflowResponseSchema } from "@/common/schemas/chatflow";
import { versionDetailResponseSchema } from "@/common/schemas/chatflow-version";
import type { ExecutionDetail } from "@/common/schemas/execution";
import { type Graph, graphSchema } from "@/common/schemas/graph";
import { ErrorNote } from "@/components/ui/controls";
import { ExecutionStep } from "./ExecutionStep";

/** The canvas of a run, drawn by the studio's canvas (a slot: this feature imports no other). */
export type RunCanvasSlot = (props: {
  graph: unknown;
  definitions: readonly NodeDefinition[];
  path: RunPath;
  selected: string | null;
  onSelect: (nodeId: string) => void;
}) => ReactNode;

/** The graph a run ran: its flow's version `run.version`, else (that version gone) the flow as it is now. */
async function ranGraph(run: ExecutionDetail): Promise<{ graph: unknown; version: number; asRun: boolean }> {
  try {
    const v = await api(`/api/v1/chatflows/${run.agentflowId}/versions/${run.version}`, {
      schema: versionDetailResponseSchema,
    });
    return { graph: v.graph, version: v.version, asRun: true };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    const flow = await api(`/api/v1/chatflows/${run.agentflowId}`, { schema: chatflowResponseSchema });
    return { graph: flow.graph, version: flow.version, asRun: false };
  }
}

/**
 * The path one run took, lit on its flow's canvas (the version it ran, else the flow as it is now):
 * each step with its status, the edges taken; selecting a step shows its input and output below.
 */
export function RunPathSection({
  run,
  definitions,
  canvas,
}: {
  run: ExecutionDetail;
  definitions: readonly NodeDefinition[];
  canvas: RunCanvasSlot;
}) {
  const source = useQuery({
    queryKey: ["execution-graph", run.agentflowId, run.version],
    queryFn: () => ranGraph(run),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <section aria-labelledby="run-path-heading" className="min-w-0">
      <h2 id="run-path-heading" className="mb-2 text-sm font-semibold text-slate-700">
        Path on the canvas
      </h2>
      <ErrorNote error={source.error} />
      {source.isPending && <p className="text-sm text-slate-500">Loading the flow…</p>}
      {source.data && (
        <>
          <p className="mb-2 text-xs text-slate-600" data-testid="run-canvas-version">
            {source.data.asRun
              ? `Version ${source.data.version}, the one this run ran.`
              : `Version ${run.version} (the one this run ran) is gone: the flow as it is now (version ${source.data.version}).`}{" "}
            Select a step to read its input and output.
          </p>
          <PathBody
            key={source.data.version}
            raw={source.data.graph}
            run={run}
            definitions={definitions}
            canvas={canvas}
          />
        </>
      )}
    </section>
  );
}

function PathBody({
  raw,
  run,
  definitions,
  canvas,
}: {
  raw: unknown;
  run: ExecutionDetail;
  definitions: readonly NodeDefinition[];
  canvas: RunCanvasSlot;
}) {
  const catalog = useMemo(() => nodeCatalog(definitions), [definitions]);
  const graph = useMemo<Graph>(() => graphSchema.safeParse(raw).data ?? { nodes: [], edges: [] }, [raw]);
  const path = useMemo(() => runPath(graph, run.executionData, catalog.get), [graph, run, catalog]);
  const [selected, setSelected] = useState<string | null>(null);
  const node = selected ? graph.nodes.find((n) => n.id === selected) : undefined;
  const label = node ? node.data.label || catalog.get(node.type)?.label || node.id : "";
  const status = selected ? path.nodes.get(selected) : undefined;
  const entries = selected ? run.executionData.filter((e) => e.nodeId === selected) : [];
  const reached = [...path.nodes.values()].filter((s) => s !== "not-reached").length;
  return (
    <>
      <p className="mb-2 text-xs text-slate-600" data-testid="run-path-summary">
        {reached} of {path.nodes.size} steps reached; the edges taken are drawn solid and thick, the others dashed.
      </p>
      {canvas({ graph: raw, definitions, path, selected, onSelect: setSelected })}
      <div className="mt-3" aria-live="polite">
        {node && (
          <section aria-label={`Selected step ${label}`} data-testid="run-node-detail">
            <h3 className="text-sm font-semibold">
              {label} <code className="text-xs font-normal text-slate-500">{node.id}</code>
              {status && <span className="ml-2 text-xs font-medium text-slate-700">{RUN_NODE_LABEL[status]}</span>}
            </h3>
            {entries.length > 0 ? (
              <ol aria-label={`Runs of ${label}`} className="mt-2 flex flex-col gap-2">
                {entries.map((step) => (
                  <ExecutionStep
                    key={`${step.startedAt ?? ""}-${run.executionData.indexOf(step)}`}
                    step={step}
                    index={run.executionData.indexOf(step)}
                    testId={`run-node-entry-${step.nodeId}`}
                  />
                ))}
              </ol>
            ) : (
              <p className="mt-1 text-sm text-slate-600">
                {status === undefined
                  ? "Not a step: it feeds the steps it is connected to, and has no input or output of its own."
                  : status === "in-iteration"
                    ? "It ran inside the iteration, once per item; the Iteration's output holds what the passes answered."
                    : "This step did not run in this run."}
              </p>
            )}
          </section>
        )}
      </div>
    </>
  );
}
