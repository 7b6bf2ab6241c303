import type { ExecutionNode } from "@/common/schemas/execution";
import { formatDuration, showValue } from "./format";
import { usageLine } from "./RunUsage";

const STEP_TONE: Record<ExecutionNode["status"], string> = {
  FINISHED: "border-l-emerald-500",
  STOPPED: "border-l-amber-500",
  ERROR: "border-l-red-500",
  INPROGRESS: "border-l-sky-500",
};

const STEP_WORD: Record<ExecutionNode["status"], string> = {
  FINISHED: "finished",
  STOPPED: "waiting",
  ERROR: "failed",
  INPROGRESS: "interrupted or running",
};

/** One labelled value of a step (input, output, state), collapsible when long. */
function Part({ title, value, open }: { title: string; value: unknown; open?: boolean }) {
  if (value === undefined) return null;
  const text = showValue(value);
  return (
    <details open={open} className="group mt-2">
      <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-600">{title}</summary>
      <pre className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 text-xs text-slate-800">
        {text || "(empty)"}
      </pre>
    </details>
  );
}

/** A step of a run in the order it ran: its node, status, time, and what went in and came out. */
export function ExecutionStep({ step, index, testId }: { step: ExecutionNode; index: number; testId?: string }) {
  const output = step.data.output as Record<string, unknown> | undefined;
  const { humanInputAction: _action, ...shownOutput } = output ?? {};
  const state = step.data.state as Record<string, unknown> | undefined;
  const hasState = !!state && Object.keys(state).length > 0;
  return (
    <li
      className={`rounded-lg border border-l-4 border-slate-200 bg-white p-3 ${STEP_TONE[step.status]}`}
      data-testid={testId ?? `step-${step.nodeId}`}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-xs text-slate-500">{index + 1}.</span>
        <h3 className="text-sm font-semibold">{step.nodeLabel}</h3>
        <code className="text-xs text-slate-500">{step.nodeId}</code>
        <span className="text-xs font-medium text-slate-700">{STEP_WORD[step.status]}</span>
        <span className="ml-auto text-xs text-slate-600">
          {step.startedAt ? new Date(step.startedAt).toLocaleTimeString() : ""}
          {step.timeMs !== undefined ? ` · ${formatDuration(step.timeMs)}` : ""}
          {step.usage ? ` · ${usageLine(step.usage)}` : ""}
        </span>
      </div>
      {step.error && (
        <p className="mt-2 rounded-md bg-red-50 px-2 py-1 text-sm text-red-800" role="note">
          {step.error}
        </p>
      )}
      <Part title="Input" value={step.data.input} />
      <Part title="Output" value={output ? shownOutput : undefined} open />
      {step.stateChange && <Part title="State change" value={step.stateChange} />}
      {hasState && <Part title="Flow state after" value={state} />}
      {Array.isArray(step.data.usedTools) && <Part title="Tool calls" value={step.data.usedTools} />}
    </li>
  );
}
