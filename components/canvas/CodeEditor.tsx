"use client";

import { json } from "@codemirror/lang-json";
import { yaml } from "@codemirror/lang-yaml";
import { EditorView } from "@codemirror/view";
import CodeMirror from "@uiw/react-codemirror";
import { useMemo } from "react";
import type { EditorLanguage } from "@/common/nodes/editor-hint";
import { useDarkMode } from "@/components/ui/use-dark-mode";

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
};

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
}: Props) {
  const dark = useDarkMode();
  const extensions = useMemo(() => {
    // tabindex: the editable area is a Tab stop anyway (contenteditable); said explicitly, checkers see the
    // scrolling box has focusable content (axe's scrollable-region-focusable).
    const attrs: Record<string, string> = { id, "aria-label": label, "aria-multiline": "true", tabindex: "0" };
    if (invalid) attrs["aria-invalid"] = "true";
    if (describedBy) attrs["aria-describedby"] = describedBy;
    return [
      language === "json" ? json() : language === "yaml" ? yaml() : [],
      language === "prompt" ? EditorView.lineWrapping : [],
      EditorView.contentAttributes.of(attrs),
    ];
  }, [id, label, language, invalid, describedBy]);
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      placeholder={placeholder}
      height={height}
      theme={dark ? "dark" : "light"}
      basicSetup={{ foldGutter: language !== "prompt", lineNumbers: language !== "prompt", highlightActiveLine: false }}
      className={`nodrag nowheel overflow-hidden rounded-md border text-[11px] ${invalid ? "border-red-400" : "border-slate-300"}`}
      data-testid={`code-editor-${id}`}
    />
  );
}
