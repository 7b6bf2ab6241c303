"use client";

import { useState } from "react";
import { CloseButton, ErrorNote } from "@/components/ui/controls";
import type { Chatflow } from "./use-chatflow";
import {
  fetchVersion,
  usePublishVersion,
  useRestoreVersion,
  useVersionDiff,
  useVersions,
  type VersionDetail,
  type VersionSummary,
} from "./use-versions";
import { VersionDiffView } from "./VersionDiffView";
import { useConfirm } from "@/components/ui/ConfirmDialog";

type Props = {
  flow: Chatflow;
  /** The version shown read-only on the canvas, if any. */
  viewing: number | null;
  onView: (version: number) => void;
  /** A restore saved a new draft: the editor loads it. */
  onRestored: (saved: Chatflow) => void;
  /** Downloads the chatflow with every saved version. */
  onExportAll: (versions: VersionDetail[]) => void;
  onClose: () => void;
};

const small = "rounded px-2 py-0.5 text-[11px] font-medium ring-1 disabled:opacity-40";

function Badge({ tone, children }: { tone: "draft" | "published"; children: React.ReactNode }) {
  const cls = tone === "published" ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-800";
  return <span className={`rounded-full px-1.5 py-px text-[10px] font-semibold ${cls}`}>{children}</span>;
}

/** Versions of the chatflow: list, compare any two, open one read-only, restore, publish. */
export function VersionsPanel({ flow, viewing, onView, onRestored, onExportAll, onClose }: Props) {
  const confirm = useConfirm();
  const list = useVersions(flow.id);
  const publish = usePublishVersion(flow.id);
  const restore = useRestoreVersion(flow.id);
  const [compare, setCompare] = useState<{ from: number | null; to: number | null }>({ from: null, to: null });
  const diff = useVersionDiff(flow.id, compare.from, compare.to);
  const versions = list.data?.versions ?? [];
  const numbers = versions.map((v) => v.version);

  const row = (v: VersionSummary) => (
    <li
      key={v.version}
      className={`space-y-1 px-3 py-2 ${viewing === v.version ? "bg-brand-50" : ""}`}
      data-testid={`version-${v.version}`}
    >
      <p className="flex flex-wrap items-center gap-1.5 text-sm">
        <span className="font-semibold">Version {v.version}</span>
        {v.draft && <Badge tone="draft">Draft</Badge>}
        {v.published && <Badge tone="published">Published</Badge>}
      </p>
      {v.message && <p className="text-xs text-slate-700">{v.message}</p>}
      <p className="text-[11px] text-slate-500">
        {v.author || "unknown"} · {new Date(v.createdAt).toLocaleString()}
      </p>
      <div className="flex flex-wrap gap-1 pt-0.5">
        <button type="button" className={`${small} ring-slate-300`} onClick={() => onView(v.version)}>
          {v.draft ? "Edit" : "View"}
        </button>
        {!v.draft && (
          <button
            type="button"
            className={`${small} ring-slate-300`}
            onClick={() => setCompare({ from: v.version, to: list.data!.version })}
          >
            Compare with draft
          </button>
        )}
        {!v.draft && (
          <button
            type="button"
            className={`${small} ring-slate-300`}
            disabled={restore.isPending}
            onClick={async () => {
              const yes = await confirm({
                title: `Restore version ${v.version} as a new draft?`,
                message: "The published version stays as it is until you publish the draft.",
                confirmLabel: "Restore",
                destructive: false,
              });
              if (!yes) return;
              onRestored(await restore.mutateAsync(v.version));
            }}
          >
            Restore
          </button>
        )}
        {!v.published && (
          <button
            type="button"
            className={`${small} bg-emerald-600 text-white ring-emerald-600`}
            disabled={publish.isPending}
            onClick={() => publish.mutate(v.version)}
          >
            Publish
          </button>
        )}
      </div>
    </li>
  );

  return (
    <aside
      aria-label="Versions"
      // On a phone the panel covers the canvas (below the toolbar) instead of squeezing beside it.
      className="flex w-[22rem] shrink-0 flex-col border-l border-slate-200 bg-white max-[1100px]:w-80 max-sm:fixed max-sm:inset-x-0 max-sm:bottom-0 max-sm:top-[6.5rem] max-sm:z-30 max-sm:w-auto max-sm:border-l-0 max-sm:shadow-xl"
    >
      <div className="flex h-11 items-center gap-2 border-b border-slate-200 px-3">
        <h2 className="flex-1 text-sm font-semibold">Versions</h2>
        <button
          type="button"
          className={`${small} ring-slate-300`}
          disabled={!numbers.length}
          onClick={async () => onExportAll(await Promise.all(numbers.map((n) => fetchVersion(flow.id, n))))}
        >
          Export all
        </button>
        <CloseButton label="Close versions" onClick={onClose} />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <p className="border-b border-slate-100 px-3 py-2 text-xs text-slate-600" data-testid="publish-state">
          {flow.publishedVersion
            ? `The API, widget and public pages run version ${flow.publishedVersion}. The editor and test chat use the draft (version ${flow.version}).`
            : `Not published yet: the API runs the latest version (${flow.version}). Publish one to pin it.`}
        </p>
        <ErrorNote error={list.error ?? publish.error ?? restore.error} />
        <fieldset className="flex flex-wrap items-center gap-1.5 border-b border-slate-100 px-3 py-2 text-xs">
          <legend className="sr-only">Compare two versions</legend>
          <span>Compare</span>
          {(["from", "to"] as const).map((end) => (
            <select
              key={end}
              aria-label={end === "from" ? "Compare from version" : "Compare to version"}
              className="rounded border border-slate-300 bg-white px-1 py-0.5"
              value={compare[end] ?? ""}
              onChange={(e) => setCompare((c) => ({ ...c, [end]: e.target.value ? Number(e.target.value) : null }))}
            >
              <option value="">—</option>
              {numbers.map((n) => (
                <option key={n} value={n}>
                  v{n}
                </option>
              ))}
            </select>
          ))}
        </fieldset>
        {diff.data && (
          <div className="border-b border-slate-100 px-3 py-2">
            <VersionDiffView diff={diff.data} />
          </div>
        )}
        <ErrorNote error={diff.error} />
        {list.isLoading && <p className="px-3 py-2 text-sm text-slate-500">Loading versions…</p>}
        <ol className="divide-y divide-slate-100" aria-label="Version list">
          {versions.map(row)}
        </ol>
      </div>
    </aside>
  );
}
