"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { UsageGroup } from "@/common/schemas/usage";
import { formatUsd } from "@/components/ui/format-usd";

const AXIS = { fontSize: 11, fill: "#64748b" };
// Drawn at once: an animated line is half drawn in a screenshot, and figures are read, not watched.

/** A chart's frame: a title and a fixed height the chart fills (ResponsiveContainer needs one). */
function Frame({ title, children }: { title: string; children: React.ReactElement }) {
  return (
    <figure className="rounded-lg bg-white p-3 ring-1 ring-slate-200">
      <figcaption className="mb-2 text-sm font-medium text-slate-700">{title}</figcaption>
      <div className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** "2026-12-02" → "12-02": day labels short enough for a phone's width. */
const shortDay = (key: string) => key.slice(5);

/** Per-day charts: tokens (prompt and completion stacked), requests and failures, cost. */
export function DailyCharts({ groups }: { groups: UsageGroup[] }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="usage-daily-charts">
      <Frame title="Tokens per day">
        <BarChart data={groups}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="key" tickFormatter={shortDay} tick={AXIS} minTickGap={12} />
          <YAxis tick={AXIS} width={48} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar isAnimationActive={false} dataKey="promptTokens" name="Prompt" stackId="t" fill="#6366f1" />
          <Bar isAnimationActive={false} dataKey="completionTokens" name="Completion" stackId="t" fill="#a5b4fc" />
        </BarChart>
      </Frame>
      <Frame title="Requests and failures per day">
        <BarChart data={groups}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="key" tickFormatter={shortDay} tick={AXIS} minTickGap={12} />
          <YAxis tick={AXIS} width={36} allowDecimals={false} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar isAnimationActive={false} dataKey="requests" name="Requests" fill="#0ea5e9" />
          <Bar isAnimationActive={false} dataKey="errors" name="Failed" fill="#ef4444" />
        </BarChart>
      </Frame>
      <Frame title="Cost per day (USD)">
        <LineChart data={groups.map((g) => ({ ...g, costUsd: g.costUsd ?? 0 }))}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="key" tickFormatter={shortDay} tick={AXIS} minTickGap={12} />
          <YAxis tick={AXIS} width={64} tickFormatter={(v: number) => formatUsd(v)} />
          <Tooltip formatter={(v) => formatUsd(Number(v))} />
          <Line isAnimationActive={false} dataKey="costUsd" name="Cost" stroke="#16a34a" dot={false} strokeWidth={2} />
        </LineChart>
      </Frame>
      <Frame title="Latency per day (ms)">
        <LineChart data={groups}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="key" tickFormatter={shortDay} tick={AXIS} minTickGap={12} />
          <YAxis tick={AXIS} width={48} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Line isAnimationActive={false} dataKey="p50LatencyMs" name="p50" stroke="#0f766e" dot={false} connectNulls />
          <Line isAnimationActive={false} dataKey="p95LatencyMs" name="p95" stroke="#f59e0b" dot={false} connectNulls />
        </LineChart>
      </Frame>
    </div>
  );
}

/** Per-model chart: tokens of each model, stacked. */
export function ModelChart({ groups }: { groups: UsageGroup[] }) {
  const data = groups.map((g) => ({ ...g, key: g.key || "(no model: failed runs)" }));
  return (
    <Frame title="Tokens per model">
      <BarChart data={data} layout="vertical" margin={{ left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" tick={AXIS} />
        <YAxis type="category" dataKey="key" tick={AXIS} width={120} />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar isAnimationActive={false} dataKey="promptTokens" name="Prompt" stackId="t" fill="#6366f1" />
        <Bar isAnimationActive={false} dataKey="completionTokens" name="Completion" stackId="t" fill="#a5b4fc" />
      </BarChart>
    </Frame>
  );
}
