"use client";

import { useState } from "react";
import { Button } from "./controls";

export type Snippet = { id: string; label: string; code: string };

/** Tabs of code snippets (one shown at a time) in the studio's look. */
export function SnippetTabs({
  snippets,
  tab,
  onTab,
  label,
  testId,
  wrap = false,
}: {
  snippets: Snippet[];
  tab: string;
  onTab: (id: string) => void;
  label: string;
  testId: string;
  wrap?: boolean;
}) {
  const code = (snippets.find((s) => s.id === tab) ?? snippets[0]).code;
  return (
    <>
      <div role="tablist" aria-label={label} className="flex gap-1 border-b border-slate-200">
        {snippets.map((s) => (
          <button
            key={s.id}
            role="tab"
            type="button"
            aria-selected={tab === s.id}
            onClick={() => onTab(s.id)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${tab === s.id ? "border-brand-600 font-medium text-brand-700" : "border-transparent text-slate-500 hover:text-slate-800"}`}
          >
            {s.label}
          </button>
        ))}
      </div>
      <pre
        role="tabpanel"
        data-testid={testId}
        className={`${wrap ? "whitespace-pre-wrap break-all" : "overflow-x-auto"} rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100`}
      >
        {code}
      </pre>
    </>
  );
}

/** Copies `text` to the clipboard and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text);
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? "Copied" : label}
    </Button>
  );
}
