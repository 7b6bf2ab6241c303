"use client";

import { useState } from "react";
import { Button, ErrorNote } from "@/components/ui/controls";
import type { Expectation, ExpectationType, TestCase, TestCaseBody } from "@/common/schemas/chatflow-tests";

/** Every expectation type with its label and a fresh value, in the order the form offers them. */
const TYPES: { type: ExpectationType; label: string; fresh: () => Expectation }[] = [
  { type: "status", label: "Status is", fresh: () => ({ type: "status", value: 200 }) },
  { type: "answerContains", label: "Answer contains", fresh: () => ({ type: "answerContains", value: "" }) },
  {
    type: "answerNotContains",
    label: "Answer does not contain",
    fresh: () => ({ type: "answerNotContains", value: "" }),
  },
  { type: "answerMatches", label: "Answer matches pattern", fresh: () => ({ type: "answerMatches", pattern: "" }) },
  {
    type: "answerJsonSchema",
    label: "Answer is JSON matching",
    fresh: () => ({ type: "answerJsonSchema", schema: {} }),
  },
  { type: "toolCalled", label: "Tool is called", fresh: () => ({ type: "toolCalled", tool: "" }) },
  { type: "toolNotCalled", label: "Tool is not called", fresh: () => ({ type: "toolNotCalled", tool: "" }) },
  { type: "sourceContains", label: "A source contains", fresh: () => ({ type: "sourceContains", value: "" }) },
  { type: "latencyBelow", label: "Answers within (ms)", fresh: () => ({ type: "latencyBelow", ms: 10_000 }) },
];

const field =
  "w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100";

/** A JSON text field that keeps what the builder typed until it parses. */
function JsonField({ label, value, onChange }: { label: string; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(() => (value === undefined ? "" : JSON.stringify(value)));
  const [bad, setBad] = useState(false);
  return (
    <input
      aria-label={label}
      className={`${field} font-mono text-xs ${bad ? "border-red-400" : ""}`}
      value={text}
      placeholder="{}"
      onChange={(e) => {
        setText(e.target.value);
        try {
          onChange(e.target.value.trim() ? JSON.parse(e.target.value) : undefined);
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}

function ExpectationFields({ e, onChange }: { e: Expectation; onChange: (e: Expectation) => void }) {
  switch (e.type) {
    case "status":
      return (
        <input
          aria-label="Status"
          type="number"
          className={field}
          value={e.value}
          onChange={(v) => onChange({ ...e, value: Number(v.target.value) })}
        />
      );
    case "answerContains":
    case "answerNotContains":
    case "sourceContains":
      return (
        <input
          aria-label="Text"
          className={field}
          value={e.value}
          onChange={(v) => onChange({ ...e, value: v.target.value })}
        />
      );
    case "answerMatches":
      return (
        <div className="flex gap-1">
          <input
            aria-label="Pattern"
            className={`${field} font-mono`}
            value={e.pattern}
            onChange={(v) => onChange({ ...e, pattern: v.target.value })}
          />
          <input
            aria-label="Flags"
            className={`${field} w-14 font-mono`}
            value={e.flags ?? ""}
            placeholder="i"
            onChange={(v) => onChange({ ...e, flags: v.target.value || undefined })}
          />
        </div>
      );
    case "answerJsonSchema":
      return (
        <JsonField
          label="JSON Schema"
          value={e.schema}
          onChange={(schema) => onChange({ ...e, schema: (schema ?? {}) as never })}
        />
      );
    case "toolCalled":
      return (
        <div className="flex flex-col gap-1">
          <input
            aria-label="Tool"
            className={field}
            value={e.tool}
            onChange={(v) => onChange({ ...e, tool: v.target.value })}
          />
          <JsonField
            label="Input fields (JSON)"
            value={e.input}
            onChange={(input) => onChange({ ...e, input: input as Record<string, unknown> | undefined })}
          />
        </div>
      );
    case "toolNotCalled":
      return (
        <input
          aria-label="Tool"
          className={field}
          value={e.tool}
          onChange={(v) => onChange({ ...e, tool: v.target.value })}
        />
      );
    case "latencyBelow":
      return (
        <label className="flex items-center gap-2 text-xs">
          <input
            aria-label="Milliseconds"
            type="number"
            className={field}
            value={e.ms}
            onChange={(v) => onChange({ ...e, ms: Number(v.target.value) })}
          />
          <input
            type="checkbox"
            checked={e.gating === true}
            onChange={(v) => onChange({ ...e, gating: v.target.checked })}
          />
          fails the case
        </label>
      );
  }
}

/** Add or edit a case: name, question, optional history/overrides (JSON) and its expectations. */
export function TestCaseForm({
  initial,
  saving,
  error,
  onSave,
  onCancel,
}: {
  initial?: TestCase;
  saving: boolean;
  error: unknown;
  onSave: (body: TestCaseBody) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [question, setQuestion] = useState(initial?.question ?? "");
  const [history, setHistory] = useState<unknown>(initial?.history);
  const [overrideConfig, setOverrideConfig] = useState<unknown>(initial?.overrideConfig);
  const [expectations, setExpectations] = useState<Expectation[]>(
    initial?.expectations ?? [{ type: "status", value: 200 }],
  );
  const set = (i: number, e: Expectation) => setExpectations((list) => list.map((x, j) => (j === i ? e : x)));
  return (
    <form
      className="flex flex-col gap-2 rounded-lg border border-brand-200 bg-white p-3 text-sm"
      aria-label={initial ? `Edit ${initial.name}` : "New test case"}
      onSubmit={(ev) => {
        ev.preventDefault();
        onSave({
          name,
          question,
          ...(Array.isArray(history) ? { history: history as TestCaseBody["history"] } : {}),
          ...(overrideConfig && typeof overrideConfig === "object"
            ? { overrideConfig: overrideConfig as Record<string, unknown> }
            : {}),
          ...(initial?.uploads ? { uploads: initial.uploads } : {}),
          expectations,
        });
      }}
    >
      <label className="flex flex-col gap-1">
        <span className="text-xs font-medium text-slate-600">Name</span>
        <input className={field} value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs font-medium text-slate-600">Question</span>
        <textarea className={field} rows={2} value={question} onChange={(e) => setQuestion(e.target.value)} required />
      </label>
      <details className="text-xs text-slate-600">
        <summary className="cursor-pointer">History and overrides (JSON)</summary>
        <div className="mt-1 flex flex-col gap-1">
          <JsonField label="History" value={history} onChange={setHistory} />
          <JsonField label="Override config" value={overrideConfig} onChange={setOverrideConfig} />
        </div>
      </details>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-xs font-medium text-slate-600">Expectations</legend>
        {expectations.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; they are edited in place and removed by position
          <div key={i} className="grid grid-cols-[9.5rem_1fr_auto] items-start gap-1" data-testid="expectation-row">
            <select
              aria-label="Expectation type"
              className={field}
              value={e.type}
              onChange={(v) => set(i, TYPES.find((t) => t.type === v.target.value)!.fresh())}
            >
              {TYPES.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </select>
            <ExpectationFields e={e} onChange={(x) => set(i, x)} />
            <button
              type="button"
              aria-label="Remove expectation"
              className="grid h-7 w-7 place-items-center rounded-md text-slate-500 hover:bg-slate-100"
              onClick={() => setExpectations((list) => list.filter((_, j) => j !== i))}
            >
              ✕
            </button>
          </div>
        ))}
        <Button
          type="button"
          variant="ghost"
          className="self-start"
          onClick={() => setExpectations((list) => [...list, TYPES[1]!.fresh()])}
        >
          + Expectation
        </Button>
      </fieldset>
      <ErrorNote error={error} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save case"}
        </Button>
      </div>
    </form>
  );
}
