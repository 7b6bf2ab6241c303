import type { ExecutionSummary } from "@/common/schemas/execution";

/** How the studio names and colours a run's status (ours; Flowise's word is in the tooltip). */
export const STATUS_LABEL: Record<ExecutionSummary["status"], string> = {
  running: "Running",
  paused: "Waiting for approval",
  finished: "Finished",
  error: "Failed",
  timeout: "Timed out",
  expired: "Expired",
};

const STATUS_TONE: Record<ExecutionSummary["status"], string> = {
  running: "bg-sky-100 text-sky-900",
  paused: "bg-amber-100 text-amber-900",
  finished: "bg-emerald-100 text-emerald-900",
  error: "bg-red-100 text-red-900",
  timeout: "bg-slate-200 text-slate-900",
  expired: "bg-slate-200 text-slate-900",
};

export function statusClass(status: ExecutionSummary["status"]): string {
  return `inline-flex items-center whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_TONE[status]}`;
}

/** A duration in words a person reads at a glance: 840 ms, 12.3 s, 4 min 2 s, 3 h 5 min. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${Math.round(s % 60)} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** How long a run took (finished) or has taken so far (running or paused, up to its last save). */
export function runDuration(run: Pick<ExecutionSummary, "createdAt" | "updatedAt" | "finishedAt">): string {
  const end = run.finishedAt ?? run.updatedAt;
  return formatDuration(new Date(end).getTime() - new Date(run.createdAt).getTime());
}

/** A value shown in a step: text as it is, anything else as indented JSON. */
export function showValue(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? "";
}
