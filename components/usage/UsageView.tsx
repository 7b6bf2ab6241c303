"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/browser/client/api";
import { chatflowResponseSchema } from "@/common/schemas/chatflow";
import { type UsageResponse, usageResponseSchema } from "@/common/schemas/usage";
import { Card, ErrorNote, PageHeader } from "@/components/ui/controls";
import { formatUsd } from "@/components/ui/format-usd";
import { DailyCharts, ModelChart } from "./UsageCharts";

const RANGES = [7, 30, 90] as const;
type GroupBy = "day" | "model";

/** The usage query for the last `days` UTC days, today included. */
function usagePath(chatflowId: string, days: number, groupBy: GroupBy): string {
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return `/api/v1/usage?chatflowId=${chatflowId}&from=${from}&to=${today}&groupBy=${groupBy}`;
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-lg bg-white p-3 ring-1 ring-slate-200">
      <p className="text-xs text-slate-500">{label}</p>
      <p className="text-lg font-semibold text-slate-900">{value}</p>
      {note && <p className="text-[11px] text-slate-500">{note}</p>}
    </div>
  );
}

function Totals({ totals }: { totals: UsageResponse["totals"] }) {
  const cost = totals.costUsd === null ? "—" : formatUsd(totals.costUsd);
  return (
    <div className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="usage-totals">
      <Figure label="Requests" value={String(totals.requests)} note={`${totals.errors} failed`} />
      <Figure label="Prompt tokens" value={totals.promptTokens.toLocaleString()} />
      <Figure label="Completion tokens" value={totals.completionTokens.toLocaleString()} />
      <Figure
        label="Cost"
        value={cost}
        {...(totals.unpricedRequests ? { note: `${totals.unpricedRequests} answers without a price` } : {})}
      />
      <Figure
        label="Latency p50 / p95"
        value={totals.p50LatencyMs === null ? "—" : `${totals.p50LatencyMs} / ${totals.p95LatencyMs} ms`}
      />
    </div>
  );
}

function ModelTable({ groups }: { groups: UsageResponse["groups"] }) {
  const cell = "px-2 py-1.5";
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label="Usage per model">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className={cell}>Model</th>
            <th className={cell}>Requests</th>
            <th className={cell}>Tokens in / out</th>
            <th className={cell}>Cost</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {groups.map((g) => (
            <tr key={g.key}>
              <td className={`${cell} font-mono text-xs`}>{g.key || "(no model: failed runs)"}</td>
              <td className={cell}>{g.requests}</td>
              <td className={`${cell} whitespace-nowrap`}>
                {g.promptTokens.toLocaleString()} / {g.completionTokens.toLocaleString()}
              </td>
              <td className={`${cell} whitespace-nowrap`}>{g.costUsd === null ? "no price" : formatUsd(g.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One flow's usage: totals, and charts per day or per model over the last 7, 30 or 90 days. */
export function UsageView({ chatflowId }: { chatflowId: string }) {
  const [days, setDays] = useState<number>(30);
  const [groupBy, setGroupBy] = useState<GroupBy>("day");
  const flow = useQuery({
    queryKey: ["chatflow", chatflowId],
    queryFn: () => api(`/api/v1/chatflows/${chatflowId}`, { schema: chatflowResponseSchema }),
  });
  const usage = useQuery({
    queryKey: ["usage", chatflowId, days, groupBy],
    queryFn: () => api(usagePath(chatflowId, days, groupBy), { schema: usageResponseSchema }),
  });
  const select = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm";
  return (
    <>
      <PageHeader
        title={`Usage${flow.data ? ` · ${flow.data.name}` : ""}`}
        subtitle="Tokens, cost and latency of this flow's answers (UTC days; cost at the prices when each answer was stored)."
        actions={
          <Link href="/chatflows" className="text-sm text-brand-700 hover:underline">
            ← Chatflows
          </Link>
        }
      />
      <div className="mb-4 flex flex-wrap gap-3">
        <label className="flex items-center gap-2 text-sm">
          Range
          <select className={select} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {RANGES.map((d) => (
              <option key={d} value={d}>
                Last {d} days
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          Group by
          <select className={select} value={groupBy} onChange={(e) => setGroupBy(e.target.value as GroupBy)}>
            <option value="day">Day</option>
            <option value="model">Model</option>
          </select>
        </label>
      </div>
      <ErrorNote error={usage.error} />
      {usage.data && (
        <>
          <Totals totals={usage.data.totals} />
          {usage.data.groupBy === "day" ? (
            <DailyCharts groups={usage.data.groups} />
          ) : (
            <Card className="p-4">
              <ModelChart groups={usage.data.groups} />
              <ModelTable groups={usage.data.groups} />
            </Card>
          )}
        </>
      )}
    </>
  );
}
