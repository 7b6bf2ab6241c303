"use client";

import { memo, useState } from "react";
import type { DomainRecord } from "./types";

const statusStyle: Record<string, string> = {
  queued: "bg-slate-100 text-slate-600",
  running: "bg-amber-100 text-amber-800",
  succeeded: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
};

function AnalysisDetail({ analysis }: { analysis: NonNullable<DomainRecord["analysis"]> }) {
  const json = analysis.json as Record<string, unknown> | null;
  if (!json) return <p className="whitespace-pre-wrap">{analysis.text}</p>;
  return (
    <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1">
      {Object.entries(json).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-600">{k}</dt>
          <dd>
            {Array.isArray(v) ? (v.length ? v.join("; ") : "—") : typeof v === "object" ? JSON.stringify(v) : String(v)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** One domain: selection, validity, analysis status and a summary that opens into the full analysis. */
export const DomainRow = memo(function DomainRow({
  domain: d,
  selected,
  onToggle,
}: {
  domain: DomainRecord;
  selected: boolean;
  onToggle: () => void;
}) {
  const [open, setOpen] = useState(false);
  const summary = (d.analysis?.json as { summary?: unknown } | null)?.summary ?? d.analysis?.text;
  return (
    <>
      <tr className="border-t border-slate-100 align-top" data-testid={`domain-${d.name}`}>
        <td className="px-3 py-2">
          <input type="checkbox" aria-label={`Select ${d.name}`} checked={selected} onChange={onToggle} />
        </td>
        <td className="px-3 py-2 font-medium">{d.name}</td>
        <td className="px-3 py-2 text-xs">
          {d.isValid ? (
            "✓"
          ) : (
            <span className="text-red-700" title={d.validationError ?? ""}>
              ✗ {d.validationError}
            </span>
          )}
        </td>
        <td className="max-w-md px-3 py-2 text-xs">
          {d.analysisStatus && (
            <span className={`mr-2 rounded px-1.5 py-0.5 ${statusStyle[d.analysisStatus]}`}>{d.analysisStatus}</span>
          )}
          {d.analysisError && d.analysisStatus === "failed" && <span className="text-red-700">{d.analysisError} </span>}
          {summary !== undefined && (
            <button
              type="button"
              className="text-left text-slate-700 hover:underline"
              onClick={() => setOpen(!open)}
              aria-expanded={open}
            >
              {String(summary).slice(0, 140)}
            </button>
          )}
        </td>
        <td className="px-3 py-2 text-xs text-slate-500">
          {d.analyzedAt ? new Date(d.analyzedAt).toLocaleString() : "—"}
        </td>
        <td className="px-3 py-2 text-xs text-slate-500">{new Date(d.createdAt).toLocaleDateString()}</td>
      </tr>
      {open && d.analysis && (
        <tr className="bg-slate-50 text-xs">
          <td />
          <td colSpan={5} className="px-3 py-3">
            <AnalysisDetail analysis={d.analysis} />
          </td>
        </tr>
      )}
    </>
  );
});
