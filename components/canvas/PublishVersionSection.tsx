"use client";

import { useState } from "react";
import { Button, ErrorNote } from "@/components/ui/controls";
import type { Chatflow } from "./use-chatflow";
import { usePublishVersion, useVersions, type VersionSummary } from "./use-versions";

/**
 * The Publish dialog's version part: which version the API, widget and public pages run, and a
 * button to publish the draft (saving unsaved canvas changes first, with a message for that version).
 */
export function PublishVersionSection({
  flow,
  dirty,
  onSave,
}: {
  flow: Chatflow;
  dirty: boolean;
  /** Saves the canvas as a new version with this message; undefined when the save failed. */
  onSave: (message: string) => Promise<Chatflow | undefined>;
}) {
  const publish = usePublishVersion(flow.id);
  const versions = useVersions(flow.id);
  const draft = versions.data?.versions.find((v) => v.version === flow.version);
  const [message, setMessage] = useState("");
  const [done, setDone] = useState<number | null>(null);
  const upToDate = !dirty && flow.publishedVersion === flow.version;

  const publishDraft = async () => {
    let version = flow.version;
    if (dirty) {
      const saved = await onSave(message.trim());
      if (!saved) return;
      version = saved.version;
    }
    await publish.mutateAsync(version);
    setDone(version);
    setMessage("");
  };

  return (
    <div className="rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200" data-testid="publish-version">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Version</p>
      <p className="mt-1 text-sm text-slate-700" data-testid="published-version">
        {flow.publishedVersion
          ? `Published: version ${flow.publishedVersion} (the API, widget and public pages run it). Draft: version ${flow.version}${dirty ? " plus unsaved changes" : ""}.`
          : `Not published yet: the API runs the latest saved version (${flow.version}).`}
      </p>
      {versions.data && <LastTestRun version={flow.version} run={draft?.lastTestRun ?? null} dirty={dirty} />}
      {!upToDate && (
        <div className="mt-2 flex flex-wrap items-end gap-2">
          {dirty && (
            <label className="min-w-0 flex-1 text-xs text-slate-600">
              Message for the new version
              <input
                className="mt-0.5 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
                value={message}
                maxLength={500}
                placeholder="What changed?"
                onChange={(e) => setMessage(e.target.value)}
              />
            </label>
          )}
          <Button onClick={() => void publishDraft().catch(() => {})} disabled={publish.isPending}>
            {dirty ? "Save and publish" : `Publish version ${flow.version}`}
          </Button>
        </div>
      )}
      {done !== null && !publish.isPending && !publish.error && (
        <p className="mt-1 text-xs text-emerald-700" role="status">
          Version {done} is published.
        </p>
      )}
      <ErrorNote error={publish.error} />
    </div>
  );
}

/** What the version's newest test run said (publishing shows it; with "require passing tests" it decides). */
function LastTestRun({ version, run, dirty }: { version: number; run: VersionSummary["lastTestRun"]; dirty: boolean }) {
  const text = !run
    ? `Tests: version ${version} has not been tested.`
    : run.status === "finished"
      ? `Tests of version ${version}: ${run.passed} passed, ${run.failed} failed (${new Date(run.createdAt).toLocaleString()}).`
      : run.status === "failed"
        ? `Tests of version ${version}: the last run did not finish.`
        : `Tests of version ${version}: running…`;
  const good = run?.status === "finished" && run.failed === 0;
  return (
    <p className={`mt-1 text-xs ${good ? "text-emerald-700" : "text-amber-800"}`} data-testid="publish-test-run">
      {text}
      {dirty ? " Unsaved changes make a new version, not tested yet." : ""}
    </p>
  );
}
