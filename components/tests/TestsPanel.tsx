"use client";

import { useEffect, useState } from "react";
import { Button, CloseButton, ErrorNote } from "@/components/ui/controls";
import type { TestCase, TestCaseResult, TestRun } from "@/common/schemas/chatflow-tests";
import { TestCaseForm } from "./TestCaseForm";
import { TestResultView, Verdict } from "./TestResultView";
import {
  useDeleteTestCase,
  useSaveTestCase,
  useStartTestRun,
  useTestCases,
  useTestRun,
  useTestRuns,
  useRequirePassingTests,
  useVersionNumbers,
} from "./use-chatflow-tests";
import { useConfirm } from "@/components/ui/ConfirmDialog";
import { describeExpectation } from "@/common/tests/describe";

type Props = { chatflowId: string; version: number; dirty: boolean; onClose: () => void };

/** The editor's Tests tab: the chatflow's cases, a run against the draft or a version, and its results. */
export function TestsPanel({ chatflowId, version, dirty, onClose }: Props) {
  const cases = useTestCases(chatflowId);
  const runs = useTestRuns(chatflowId);
  const versions = useVersionNumbers(chatflowId);
  const start = useStartTestRun(chatflowId);
  const [target, setTarget] = useState<string>("draft");
  const [runId, setRunId] = useState<string>();
  // The newest run is shown when the tab opens (its results stay with the version it ran).
  useEffect(() => {
    if (!runId && runs.data?.[0]) setRunId(runs.data[0].id);
  }, [runId, runs.data]);
  const run = useTestRun(chatflowId, runId);
  const [editing, setEditing] = useState<TestCase | "new" | null>(null);
  const running = run.data && (run.data.status === "queued" || run.data.status === "running");
  return (
    <aside
      aria-label="Tests"
      className="flex w-[26rem] shrink-0 flex-col border-l border-slate-200 bg-slate-50 max-[1100px]:w-80 max-sm:absolute max-sm:inset-0 max-sm:z-20 max-sm:w-full"
    >
      <div className="flex h-11 items-center gap-2 border-b border-slate-200 bg-white px-3">
        <h2 className="flex-1 text-sm font-semibold">Tests</h2>
        <Button variant="secondary" className="px-2 py-1 text-xs" onClick={() => setEditing("new")}>
          Add case
        </Button>
        <CloseButton label="Close tests" onClick={onClose} />
      </div>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-white px-3 py-2 text-xs">
        <label className="flex items-center gap-1">
          Run against
          <select
            aria-label="Version to test"
            className="rounded-md border border-slate-300 px-1.5 py-1"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          >
            <option value="draft">Draft (v{version})</option>
            {(versions.data?.versions ?? [])
              .filter((v) => v.version !== version)
              .map((v) => (
                <option key={v.version} value={v.version}>
                  Version {v.version}
                  {v.published ? " (published)" : ""}
                </option>
              ))}
          </select>
        </label>
        <Button
          className="px-2.5 py-1 text-xs"
          disabled={start.isPending || !!running || !cases.data?.length}
          onClick={async () => {
            const started = await start.mutateAsync(target === "draft" ? undefined : Number(target));
            setRunId(started.runId);
          }}
        >
          {running ? "Running…" : "Run tests"}
        </Button>
        {dirty && <span className="text-amber-700">Unsaved changes are not tested.</span>}
        <RequirePassing chatflowId={chatflowId} />
      </div>
      <ErrorNote error={start.error ?? cases.error} />
      <div className="flex flex-1 flex-col gap-2 overflow-y-auto p-3">
        {run.data && <RunSummary run={run.data} />}
        {editing === "new" && <CaseEditor chatflowId={chatflowId} onDone={() => setEditing(null)} />}
        {cases.data?.length === 0 && editing !== "new" && (
          <p className="m-auto max-w-[18rem] text-center text-sm text-slate-500">
            No test cases yet. Add one, or save an exchange from the test chat as a test.
          </p>
        )}
        <ol className="flex flex-col gap-2" aria-label="Test cases">
          {cases.data?.map((c) =>
            editing !== "new" && editing?.id === c.id ? (
              <li key={c.id}>
                <CaseEditor chatflowId={chatflowId} initial={c} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <CaseRow
                key={c.id}
                chatflowId={chatflowId}
                c={c}
                result={run.data?.results.find((r) => r.caseId === c.id)}
                pending={!!running && !run.data?.results.some((r) => r.caseId === c.id)}
                onEdit={() => setEditing(c)}
              />
            ),
          )}
        </ol>
      </div>
    </aside>
  );
}

/** The setting "require passing tests to publish" (publishing a failing or untested version is refused). */
function RequirePassing({ chatflowId }: { chatflowId: string }) {
  const { value, save } = useRequirePassingTests(chatflowId);
  return (
    <label
      className="flex w-full items-center gap-1.5 text-slate-600"
      title="Publishing a version whose cases fail or have not run is refused"
    >
      <input
        type="checkbox"
        checked={value}
        disabled={save.isPending}
        onChange={(e) => save.mutate(e.target.checked)}
      />
      Require passing tests to publish
      {save.error && <span className="text-red-700">{save.error.message}</span>}
    </label>
  );
}

function RunSummary({ run }: { run: TestRun }) {
  const done = run.results.length;
  const live = run.status === "queued" || run.status === "running";
  return (
    <div
      className={`rounded-lg px-3 py-2 text-xs ring-1 ${live ? "bg-white ring-slate-200" : run.failed || run.status === "failed" ? "bg-red-50 ring-red-200" : "bg-emerald-50 ring-emerald-200"}`}
      data-testid="run-summary"
      data-status={run.status}
      role="status"
    >
      <p className="font-semibold text-slate-800">
        {live
          ? `Running version ${run.version}: ${done} of ${run.total} cases done`
          : run.status === "failed"
            ? `Run of version ${run.version} failed: ${run.error ?? ""}`
            : `Version ${run.version}: ${run.passed} passed, ${run.failed} failed`}
      </p>
      {live && (
        <div className="mt-1.5 h-1.5 overflow-hidden rounded bg-slate-200" aria-hidden>
          <div
            className="h-full bg-brand-500 transition-all"
            style={{ width: `${run.total ? (done / run.total) * 100 : 0}%` }}
          />
        </div>
      )}
      <p className="mt-0.5 text-slate-500">{new Date(run.createdAt).toLocaleString()}</p>
    </div>
  );
}

function CaseEditor({ chatflowId, initial, onDone }: { chatflowId: string; initial?: TestCase; onDone: () => void }) {
  const save = useSaveTestCase(chatflowId);
  return (
    <TestCaseForm
      initial={initial}
      saving={save.isPending}
      error={save.error}
      onCancel={onDone}
      onSave={(body) => save.mutate({ id: initial?.id, body }, { onSuccess: onDone })}
    />
  );
}

function CaseRow({
  chatflowId,
  c,
  result,
  pending,
  onEdit,
}: {
  chatflowId: string;
  c: TestCase;
  result?: TestCaseResult;
  pending: boolean;
  onEdit: () => void;
}) {
  const confirm = useConfirm();
  const remove = useDeleteTestCase(chatflowId);
  return (
    <li className="rounded-lg bg-white ring-1 ring-slate-200" data-testid="test-case" data-case-name={c.name}>
      <details open={result ? !result.pass : false}>
        <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 text-sm">
          {result ? (
            <Verdict pass={result.pass} />
          ) : pending ? (
            <span className="text-[10px] text-slate-500">running…</span>
          ) : null}
          <span className="min-w-0 flex-1 truncate font-medium text-slate-800" title={c.question}>
            {c.name}
          </span>
          <span className="text-[11px] text-slate-500">
            {c.expectations.length} {c.expectations.length === 1 ? "check" : "checks"}
          </span>
        </summary>
        <div className="flex flex-col gap-2 border-t border-slate-100 px-3 py-2">
          <p className="text-xs text-slate-600">
            <span className="font-semibold">Question:</span> {c.question}
          </p>
          {result ? (
            <TestResultView r={result} />
          ) : (
            // Before a run: what the case checks, readable without opening Edit.
            <ul className="list-disc pl-4 text-xs text-slate-600" aria-label={`Checks of ${c.name}`}>
              {c.expectations.map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a saved case's checks have no id; the list only changes with the case
                <li key={i}>{describeExpectation(e)}</li>
              ))}
            </ul>
          )}
          <div className="flex gap-2">
            <Button variant="ghost" className="px-2 py-0.5 text-xs" onClick={onEdit}>
              Edit
            </Button>
            <Button
              variant="ghost"
              className="px-2 py-0.5 text-xs text-red-700"
              onClick={async () => {
                if (await confirm({ title: `Delete the test case “${c.name}”?`, confirmLabel: "Delete test" }))
                  remove.mutate(c.id);
              }}
            >
              Delete
            </Button>
          </div>
        </div>
      </details>
    </li>
  );
}
