"use client";

import type { TestCaseResult } from "@/common/schemas/chatflow-tests";

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** Pass, fail, or a reported-only miss (latency without gating). */
export function Verdict({ pass, reported }: { pass: boolean; reported?: boolean }) {
  const [label, style] = pass
    ? ["pass", "bg-emerald-100 text-emerald-800"]
    : reported
      ? ["reported", "bg-amber-100 text-amber-800"]
      : ["fail", "bg-red-100 text-red-800"];
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide ${style}`}
      data-verdict={label}
    >
      {label}
    </span>
  );
}

/**
 * One case's result: every expectation as expected → actual (failed ones first, in red), then the
 * actual answer, its status and error, and the tool calls the answer made.
 */
export function TestResultView({ r }: { r: TestCaseResult }) {
  const ordered = [...r.expectations].sort((a, b) => Number(a.pass) - Number(b.pass));
  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="test-result">
      <ul className="flex flex-col gap-1" aria-label="Expectations">
        {ordered.map((e, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a finished result never changes
            key={i}
            className={`rounded-md px-2 py-1.5 ring-1 ${e.pass ? "bg-emerald-50 ring-emerald-200" : e.gating ? "bg-red-50 ring-red-200" : "bg-amber-50 ring-amber-200"}`}
            data-testid="expectation-result"
            data-pass={e.pass}
          >
            <div className="flex items-center gap-2">
              <Verdict pass={e.pass} reported={!e.gating} />
              <span className="font-medium text-slate-800">Expected {e.expected}</span>
            </div>
            {!e.pass && (
              <p className="mt-1 whitespace-pre-wrap break-words pl-1 font-mono text-[11px] text-red-900">
                <span className="select-none text-red-500">− got </span>
                {e.actual}
              </p>
            )}
          </li>
        ))}
      </ul>
      <div>
        <p className="font-semibold text-slate-600">
          Answer{" "}
          <span className="font-normal text-slate-500">
            (status {r.status}, {r.latencyMs} ms)
          </span>
        </p>
        <p
          className="mt-0.5 whitespace-pre-wrap break-words rounded bg-white p-2 text-slate-800 ring-1 ring-slate-200"
          data-testid="test-answer"
        >
          {r.error ? `${r.error.code}: ${r.error.message}` : r.answer || "(empty)"}
        </p>
      </div>
      {r.usedTools.length > 0 && (
        <div>
          <p className="font-semibold text-slate-600">Tool calls</p>
          <ul className="mt-0.5 flex flex-col gap-1">
            {r.usedTools.map((t, i) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: tool calls have no id and never reorder
                key={i}
                className="rounded bg-orange-50 p-1.5 font-mono text-[11px] text-orange-900 ring-1 ring-orange-200"
                data-testid="test-tool-call"
              >
                {t.tool}({show(t.toolInput)})
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.sourceDocuments.length > 0 && <p className="text-slate-500">{r.sourceDocuments.length} source documents</p>}
    </div>
  );
}
