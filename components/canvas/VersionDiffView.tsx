"use client";

import { settingRows } from "@/browser/client/settings-change";
import type { VersionDiff } from "./use-versions";

/** A value as the diff shows it: text as is, a credential by name, anything else as JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "(empty)";
  if (typeof value === "string") return value === "" ? '""' : value;
  if (typeof value === "object" && value !== null && "credential" in value)
    return `credential “${String((value as { credential: unknown }).credential)}”`;
  return JSON.stringify(value);
}

function Section({ title, children, count }: { title: string; count: number; children: React.ReactNode }) {
  if (!count) return null;
  return (
    <section className="space-y-1">
      <h4 className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">
        {title} ({count})
      </h4>
      <ul className="space-y-1">{children}</ul>
    </section>
  );
}

/** A readable diff between two versions: nodes, edges, changed inputs (old → new), run settings. */
export function VersionDiffView({ diff }: { diff: VersionDiff }) {
  const settings = settingRows(diff.settingsChanged);
  const total =
    diff.nodesAdded.length +
    diff.nodesRemoved.length +
    diff.edgesAdded.length +
    diff.edgesRemoved.length +
    diff.inputsChanged.length +
    settings.length;
  const edge = (e: VersionDiff["edgesAdded"][number]) =>
    `${e.source} → ${e.target} (${e.targetHandle.split(":").pop()})`;
  return (
    <div className="space-y-3 text-xs" data-testid="version-diff">
      <p className="font-medium text-slate-700">
        Version {diff.from} → version {diff.to}
        {total === 0 && <span className="font-normal text-slate-500"> · no differences in the graph or settings</span>}
      </p>
      <Section title="Nodes added" count={diff.nodesAdded.length}>
        {diff.nodesAdded.map((n) => (
          <li key={n.id} className="rounded bg-emerald-50 px-2 py-1 text-emerald-900">
            + {n.label} <span className="font-mono text-[10px] text-emerald-700">{n.id}</span>
          </li>
        ))}
      </Section>
      <Section title="Nodes removed" count={diff.nodesRemoved.length}>
        {diff.nodesRemoved.map((n) => (
          <li key={n.id} className="rounded bg-red-50 px-2 py-1 text-red-900">
            − {n.label} <span className="font-mono text-[10px] text-red-700">{n.id}</span>
          </li>
        ))}
      </Section>
      <Section title="Connections added" count={diff.edgesAdded.length}>
        {diff.edgesAdded.map((e) => (
          <li key={e.id} className="rounded bg-emerald-50 px-2 py-1 font-mono text-[11px] text-emerald-900">
            + {edge(e)}
          </li>
        ))}
      </Section>
      <Section title="Connections removed" count={diff.edgesRemoved.length}>
        {diff.edgesRemoved.map((e) => (
          <li key={e.id} className="rounded bg-red-50 px-2 py-1 font-mono text-[11px] text-red-900">
            − {edge(e)}
          </li>
        ))}
      </Section>
      <Section title="Inputs changed" count={diff.inputsChanged.length}>
        {diff.inputsChanged.map((c) => (
          <li key={`${c.nodeId}.${c.input}`} className="rounded bg-slate-50 px-2 py-1 ring-1 ring-slate-200">
            <p className="font-medium text-slate-800">
              {c.nodeLabel} · {c.inputLabel}
            </p>
            <p className="mt-0.5 whitespace-pre-wrap break-words text-red-800">
              <span className="sr-only">old: </span>− {shown(c.old)}
            </p>
            <p className="whitespace-pre-wrap break-words text-emerald-800">
              <span className="sr-only">new: </span>+ {shown(c.new)}
            </p>
          </li>
        ))}
      </Section>
      <Section title="Run settings changed" count={settings.length}>
        {settings.map((row) => (
          <li key={row.key} className="break-words rounded bg-slate-50 px-2 py-1 ring-1 ring-slate-200">
            <span className="font-medium text-slate-800">{row.label}:</span>{" "}
            <span className="text-red-800">
              <span className="sr-only">old: </span>
              {row.old}
            </span>{" "}
            →{" "}
            <span className="text-emerald-800">
              <span className="sr-only">new: </span>
              {row.new}
            </span>
          </li>
        ))}
      </Section>
    </div>
  );
}
