"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/browser/client/api";
import { type ScheduleDto, scheduleSchema } from "@/common/schemas/triggers";
import { Button, ErrorNote, TextInput } from "@/components/ui/controls";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "—");

type Draft = { id?: string; name: string; cron: string; timezone: string; question: string; form: string };

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const emptyDraft = (): Draft => ({
  name: "",
  cron: "0 9 * * MON-FRI",
  timezone: browserZone(),
  question: "",
  form: "",
});
const draftOf = (s: ScheduleDto): Draft => ({
  id: s.id,
  name: s.name,
  cron: s.cron,
  timezone: s.timezone,
  question: s.input.question ?? "",
  form: s.input.form ? JSON.stringify(s.input.form) : "",
});

/** The input a draft sends: the question, or the form fields (JSON) for an agentflow started by a form. */
function inputOf(d: Draft) {
  if (!d.form.trim()) return { question: d.question };
  try {
    return { form: JSON.parse(d.form) as Record<string, unknown> };
  } catch {
    throw new Error('Form fields: write them as a JSON object, e.g. {"customer": "Ada"}.');
  }
}

/**
 * The Publish dialog's schedules: each with its cron, time zone, next run and last result; add,
 * edit, turn on and off, delete. Runs use the published version and the schedule's fixed input.
 */
export function SchedulesSection({ chatflowId }: { chatflowId: string }) {
  const key = ["schedules", chatflowId];
  const client = useQueryClient();
  const list = useQuery({
    queryKey: key,
    queryFn: () => api(`/api/v1/schedules?chatflowId=${chatflowId}`, { schema: scheduleSchema.array() }),
  });
  const [draft, setDraft] = useState<Draft | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const save = useMutation({
    mutationFn: (d: Draft) => {
      const body = { name: d.name, cron: d.cron, timezone: d.timezone, input: inputOf(d) };
      return d.id
        ? api(`/api/v1/schedules/${d.id}`, { method: "PUT", body, schema: scheduleSchema })
        : api("/api/v1/schedules", { method: "POST", body: { chatflowId, ...body }, schema: scheduleSchema });
    },
    onSuccess: () => {
      setDraft(null);
      void refresh();
    },
  });
  const act = useMutation({
    mutationFn: ({ s, what }: { s: ScheduleDto; what: "toggle" | "delete" }) =>
      what === "delete"
        ? api(`/api/v1/schedules/${s.id}`, { method: "DELETE", schema: scheduleSchema.pick({ id: true }) })
        : api(`/api/v1/schedules/${s.id}`, { method: "PUT", body: { enabled: !s.enabled }, schema: scheduleSchema }),
    onSuccess: () => void refresh(),
  });
  const set = (field: keyof Draft) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft((d) => (d ? { ...d, [field]: e.target.value } : d));

  return (
    <div data-testid="schedules">
      <div className="flex items-center justify-between">
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Schedules</p>
        {!draft && (
          <Button variant="secondary" onClick={() => setDraft(emptyDraft())}>
            Add schedule
          </Button>
        )}
      </div>
      <ErrorNote error={list.error ?? act.error} />
      {list.data?.length === 0 && !draft && (
        <p className="mt-1 text-sm text-slate-500">None. A schedule runs the published version on a cron.</p>
      )}
      <ul className="mt-1 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" aria-label="Schedules">
        {list.data?.map((s) => (
          <li key={s.id} className="space-y-1 px-3 py-2 text-sm" data-testid="schedule-row">
            <div className="flex items-center justify-between gap-2">
              <span className="font-medium">
                {s.name || s.input.question || "Schedule"}{" "}
                <code className="font-mono text-xs text-slate-500">
                  {s.cron} · {s.timezone}
                </code>
              </span>
              <span className="flex gap-1">
                <Button variant="ghost" onClick={() => setDraft(draftOf(s))}>
                  Edit
                </Button>
                <Button variant="ghost" disabled={act.isPending} onClick={() => act.mutate({ s, what: "toggle" })}>
                  {s.enabled ? "Turn off" : "Turn on"}
                </Button>
                <Button variant="danger" disabled={act.isPending} onClick={() => act.mutate({ s, what: "delete" })}>
                  Delete
                </Button>
              </span>
            </div>
            <p className="text-xs text-slate-600">
              Next run: {s.enabled ? when(s.nextRunAt) : "off"} · Last:{" "}
              {s.lastRun ? (
                <span className={s.lastRun.status === "failed" ? "text-red-700" : "text-emerald-700"}>
                  {s.lastRun.status} {when(s.lastRun.at)}
                  {s.lastRun.error ? ` (${s.lastRun.error})` : ""}
                </span>
              ) : (
                "never ran"
              )}
            </p>
          </li>
        ))}
      </ul>
      {draft && (
        <form
          className="mt-2 grid gap-2 rounded-lg p-3 ring-1 ring-slate-200 sm:grid-cols-2"
          aria-label={draft.id ? "Edit schedule" : "New schedule"}
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(draft);
          }}
        >
          <TextInput label="Name" value={draft.name} onChange={set("name")} />
          <TextInput label="Cron (min hour day month weekday)" value={draft.cron} onChange={set("cron")} required />
          <TextInput label="Time zone" value={draft.timezone} onChange={set("timezone")} required />
          <TextInput label="Question" value={draft.question} onChange={set("question")} />
          <TextInput
            className="sm:col-span-2"
            label="Or form fields, as JSON (agentflows started by a form)"
            value={draft.form}
            onChange={set("form")}
          />
          <div className="sm:col-span-2">
            <ErrorNote error={save.error} />
          </div>
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {draft.id ? "Save schedule" : "Add"}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setDraft(null)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
