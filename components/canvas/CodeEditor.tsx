"use client";

import { json } from "@codemirror/lang-json";
import { yaml } from "@codemirror/lang-yaml";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import CodeMirror from "@uiw/react-codemirror";
import { useMemo } from "react";
import type { VariableReference } from "@/common/agentflow/references";
import type { EditorLanguage } from "@/common/nodes/editor-hint";
import { useDarkMode } from "@/components/ui/use-dark-mode";
import { variableCompletion } from "@/browser/canvas/variable-completion";

type Props = {
  id: string;
  /** The accessible name of the editable area (a <label for> cannot name a contenteditable). */
  label: string;
  language: EditorLanguage;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  height: string;
  invalid?: boolean;
  describedBy?: string;
  /** An agentflow step's field: `{{` opens the names it can reference here (variable-completion.ts). */
  references?: () => VariableReference[];
  /** One line only (a URL): a new line is never inserted. */
  singleLine?: boolean;
};

/** Refuses any change that would leave more than one line. */
const oneLine = EditorState.transactionFilter.of((tr) => (tr.newDoc.lines > 1 ? [] : tr));

/**
 * CodeMirror 6 with YAML or JSON highlighting (prompts: plain text with line wrapping). Only this
 * module imports CodeMirror; ParamField loads it with next/dynamic so the canvas bundle stays small.
 */
export default function CodeEditor({
  id,
  label,
  language,
  value,
  onChange,
  placeholder,
  height,
  invalid,
  describedBy,
  references,
  singleLine,
}: Props) {
  const dark = useDarkMode();
  // Each part is its own memo: a change of one (the field turning invalid as a name is typed) must not
  // re-create the others. A new completion source would drop the open `{{` list mid-typing (CodeMirror
  // keeps a source's results only while it is the same function), and Enter would then break the line.
  const languageExt = useMemo(
    () => [
      language === "json" ? json() : language === "yaml" ? yaml() : [],
      language === "prompt" ? EditorView.lineWrapping : [],
    ],
    [language],
  );
  const completion = useMemo(() => (references ? variableCompletion(references) : []), [references]);
  const extensions = useMemo(() => {
    // tabindex: the editable area is a Tab stop anyway (contenteditable); said explicitly, checkers see the
    // scrolling box has focusable content (axe's scrollable-region-focusable).
    const attrs: Record<string, string> = { id, "aria-label": label, "aria-multiline": "true", tabindex: "0" };
    if (invalid) attrs["aria-invalid"] = "true";
    if (describedBy) attrs["aria-describedby"] = describedBy;
    return [languageExt, EditorView.contentAttributes.of(attrs), completion, singleLine ? oneLine : []];
  }, [id, label, invalid, describedBy, languageExt, completion, singleLine]);
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      placeholder={placeholder}
      height={height}
      theme={dark ? "dark" : "light"}
      basicSetup={{
        foldGutter: language !== "prompt",
        lineNumbers: language !== "prompt",
        highlightActiveLine: false,
        // A field taking variables has its own completion (the names it can reference).
        autocompletion: !references,
      }}
      className={`nodrag nowheel overflow-hidden rounded-md border text-[11px] ${invalid ? "border-red-400" : "border-slate-300"}`}
      data-testid={`code-editor-${id}`}
    />
  );
}
