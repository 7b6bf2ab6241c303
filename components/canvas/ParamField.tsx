"use client";

import dynamic from "next/dynamic";
import { memo, useEffect, useRef, useState } from "react";
import type { VariableReference } from "@/common/agentflow/references";
import { editorLanguageOf, type EditorLanguage } from "@/common/nodes/editor-hint";
import type { ParamInput } from "@/common/nodes/types";
import { CredentialField } from "./CredentialField";
import { describeFileValue, readFileValue } from "./file-value";
import { fieldClass } from "./node-style";
import { useVariableReferences } from "./use-variable-references";

type Props = {
  nodeId: string;
  param: ParamInput;
  value: unknown;
  error?: string;
  onChange: (name: string, value: unknown) => void;
  /** An agentflow step's field taking `{{variables}}`: a code editor with their autocomplete. */
  variables?: boolean;
};

/** One form field of a node, chosen by the param's type. */
export const ParamField = memo(function ParamField({ nodeId, param: p, value, error, onChange, variables }: Props) {
  const id = `${nodeId}-${p.name}`;
  const set = (v: unknown) => onChange(p.name, v);
  const invalid = error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
  if (p.type === "boolean") {
    const checked = value === undefined ? p.default === true : value === true || value === "true";
    return (
      <div className="flex items-center justify-between gap-2 py-0.5">
        <label htmlFor={id} className="text-xs font-medium text-slate-700" title={p.description}>
          {p.label}
        </label>
        <input
          id={id}
          type="checkbox"
          className="nodrag h-4 w-4 accent-brand-600"
          checked={checked}
          onChange={(e) => set(e.target.checked)}
        />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-slate-700" title={p.description}>
        {p.label}
        {!p.optional && p.default === undefined && (
          <span className="text-red-600" aria-hidden>
            {" "}
            *
          </span>
        )}
      </label>
      {variables ? (
        <VariablesControl id={id} nodeId={nodeId} p={p} value={value} set={set} invalid={invalid} />
      ) : (
        <Control id={id} p={p} value={value} set={set} invalid={invalid} />
      )}
      {error ? (
        <p id={`${id}-error`} className="text-[11px] leading-snug text-red-700">
          {error}
        </p>
      ) : p.description && (p.type === "file" || p.type === "credential") ? (
        <p className="text-[11px] leading-snug text-slate-500">{p.description}</p>
      ) : null}
    </div>
  );
});

type ControlProps = { id: string; p: ParamInput; value: unknown; set: (v: unknown) => void; invalid: object };

/** A param's value as the text its field shows (objects as indented JSON). */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return typeof value === "object" ? JSON.stringify(value, null, 2) : String(value);
}

/**
 * A field taking `{{variables}}` (an agentflow step's text, JSON or string): the code editor (its
 * language, else a prompt; one line for a string) with the names this step can reference offered
 * after `{{`. A name referring to nothing is the field's problem as it is typed (the editor's checks).
 */
function VariablesControl({ nodeId, ...props }: ControlProps & { nodeId: string }) {
  const references = useVariableReferences(nodeId, props.p.name);
  const language = editorLanguageOf(props.p) ?? "prompt";
  return (
    <CodeControl
      {...props}
      value={textOf(props.value)}
      language={language}
      references={references}
      singleLine={props.p.type === "string"}
    />
  );
}

function Control({ id, p, value, set, invalid }: ControlProps) {
  const text = textOf(value);
  const language = editorLanguageOf(p);
  if (language) return <CodeControl id={id} p={p} language={language} value={text} set={set} invalid={invalid} />;
  switch (p.type) {
    case "number":
      return (
        <input
          id={id}
          type="number"
          className={fieldClass}
          {...invalid}
          value={text}
          min={p.min}
          max={p.max}
          step={p.integer ? 1 : "any"}
          placeholder={p.default !== undefined ? String(p.default) : p.placeholder}
          onChange={(e) => set(e.target.value === "" ? undefined : Number(e.target.value))}
        />
      );
    case "options":
      return (
        <select
          id={id}
          className={fieldClass}
          {...invalid}
          value={text || String(p.default ?? "")}
          onChange={(e) => set(e.target.value)}
        >
          {p.optional && <option value="">—</option>}
          {(p.options ?? []).map((o) => (
            <option key={o.name} value={o.name}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case "json":
    case "code":
    case "text":
      return (
        <textarea
          id={id}
          rows={p.type === "text" ? 3 : 4}
          spellCheck={p.type === "text"}
          {...invalid}
          className={`${fieldClass} nowheel resize-y ${p.type === "text" ? "" : "font-mono text-[11px]"}`}
          placeholder={p.placeholder ?? (p.default !== undefined ? String(p.default) : p.type === "json" ? "{ }" : "")}
          value={text}
          onChange={(e) => set(e.target.value)}
        />
      );
    case "file":
      return <FileControl id={id} p={p} value={text} set={set} />;
    case "credential":
      return (
        <CredentialField id={id} types={p.credentialTypes ?? []} optional={!!p.optional} value={text} onChange={set} />
      );
    default:
      return (
        <>
          <input
            id={id}
            className={fieldClass}
            {...invalid}
            value={text}
            placeholder={p.placeholder}
            list={p.suggestions?.length ? `${id}-suggestions` : undefined}
            onChange={(e) => set(e.target.value)}
          />
          {p.suggestions?.length ? (
            <datalist id={`${id}-suggestions`}>
              {p.suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          ) : null}
        </>
      );
  }
}

/** The textarea shown while the code editor's chunk loads (and the same look without JavaScript). */
function PlainCode({
  id,
  p,
  value,
  set,
  height,
}: {
  id: string;
  p: ParamInput;
  value: string;
  set: (v: unknown) => void;
  /** The code editor's height (its border adds 2px): the node keeps its size when the editor replaces this. */
  height: string;
}) {
  return (
    <textarea
      id={id}
      spellCheck={false}
      aria-label={p.label}
      data-code-fallback=""
      style={{ height: `calc(${height} + 2px)` }}
      className={`${fieldClass} nowheel resize-y font-mono text-[11px]`}
      value={value}
      onChange={(e) => set(e.target.value)}
    />
  );
}

// CodeMirror is loaded on demand: only flows with code, JSON or prompt fields fetch it.
const CodeEditor = dynamic(() => import("./CodeEditor"), { ssr: false, loading: () => null });

type CodeControlProps = Omit<ControlProps, "value"> & {
  value: string;
  language: EditorLanguage;
  references?: () => VariableReference[];
  singleLine?: boolean;
};

/** A code editor (YAML, JSON or a prompt) in the node, with an Expand button opening a big one in a dialog. */
function CodeControl({ id, p, language, value, set, invalid, references, singleLine }: CodeControlProps) {
  const [expanded, setExpanded] = useState(false);
  const isInvalid = "aria-invalid" in invalid;
  const placeholder = p.placeholder ?? (p.default !== undefined ? String(p.default) : language === "json" ? "{ }" : "");
  return (
    <div className="flex flex-col gap-1">
      <CodeEditorOrText
        id={id}
        p={p}
        language={language}
        value={value}
        set={set}
        height={singleLine ? "30px" : language === "prompt" ? "72px" : "96px"}
        placeholder={placeholder}
        invalid={isInvalid}
        references={references}
        singleLine={singleLine}
      />
      <button
        type="button"
        className="nodrag self-end text-[11px] font-medium text-brand-600 hover:underline"
        aria-label={`Expand ${p.label}`}
        onClick={() => setExpanded(true)}
      >
        Expand
      </button>
      {expanded && (
        <ExpandDialog title={p.label} onClose={() => setExpanded(false)}>
          <CodeEditorOrText
            id={`${id}-expanded`}
            p={p}
            language={language}
            value={value}
            set={set}
            height={singleLine ? "30px" : "60vh"}
            placeholder={placeholder}
            invalid={isInvalid}
            references={references}
            singleLine={singleLine}
          />
        </ExpandDialog>
      )}
    </div>
  );
}

function CodeEditorOrText(props: {
  id: string;
  p: ParamInput;
  language: EditorLanguage;
  value: string;
  set: (v: unknown) => void;
  height: string;
  placeholder: string;
  invalid: boolean;
  references?: () => VariableReference[];
  singleLine?: boolean;
}) {
  const { id, p, language, value, set, height, placeholder, invalid, references, singleLine } = props;
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // Warm the chunk; until it arrives the plain textarea keeps the field usable.
    void import("./CodeEditor").then(() => setReady(true));
  }, []);
  if (!ready) return <PlainCode id={id} p={p} value={value} set={set} height={height} />;
  return (
    <CodeEditor
      id={id}
      label={p.label}
      language={language}
      value={value}
      onChange={(v) => set(v)}
      placeholder={placeholder}
      height={height}
      invalid={invalid}
      describedBy={invalid ? `${id}-error` : undefined}
      references={references}
      singleLine={singleLine}
    />
  );
}

/** A modal dialog (native <dialog>: focus trap, Escape and the backdrop for free). */
function ExpandDialog({ title, onClose, children }: { title: string; onClose: () => void; children: React.ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onClose={onClose}
      className="nodrag nowheel m-auto w-[min(56rem,calc(100vw-2rem))] rounded-xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/50"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
        <h2 className="text-sm font-semibold">{title}</h2>
        <button
          type="button"
          className="rounded-md bg-brand-600 px-3 py-1 text-sm font-medium text-white hover:bg-brand-700"
          onClick={() => ref.current?.close()}
        >
          Done
        </button>
      </div>
      <div className="p-3">{children}</div>
    </dialog>
  );
}

/** Reads the picked file in the browser; the param stores the content (text, or a base64 data: URL), not a path. */
function FileControl({ id, p, value, set }: { id: string; p: ParamInput; value: string; set: (v: unknown) => void }) {
  const [name, setName] = useState<string | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const saved = value ? describeFileValue(value) : undefined;
  return (
    <div className="nodrag flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <label className="cursor-pointer rounded-md bg-white px-2 py-1 text-xs font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-500">
          {value ? "Replace file" : "Upload file"}
          <input
            id={id}
            type="file"
            className="sr-only"
            accept={p.fileTypes?.join(",")}
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (!file) return;
              const read = await readFileValue(file);
              if ("problem" in read) return setReadError(read.problem);
              setReadError(null);
              setName(file.name);
              set(read.value);
            }}
          />
        </label>
        {value && (
          <button
            type="button"
            className="text-xs text-slate-500 hover:text-red-700"
            onClick={() => {
              setName(null);
              set(undefined);
            }}
          >
            Clear
          </button>
        )}
      </div>
      {saved && (
        <p className="truncate text-[11px] text-emerald-700" data-testid="file-loaded">
          {name ?? saved.name ?? "File"} loaded · {saved.summary}
        </p>
      )}
      {readError && <p className="text-[11px] text-red-700">{readError}</p>}
    </div>
  );
}
