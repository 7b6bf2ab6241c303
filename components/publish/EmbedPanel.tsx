"use client";

import { useMemo, useState } from "react";
import { Button } from "@/components/ui/controls";
import type { WidgetTheme } from "@/lib/schemas/chatflow";
import { embedSnippets } from "./embed-snippets";
import { WidgetPreview } from "./WidgetPreview";

/**
 * The "Embed" part of the publish dialog: snippets to put the chat widget on a site (script tag,
 * init() call, full page) with this chatflow's id and server, a copy button, and a live preview.
 * Mount it anywhere in the studio: `<EmbedPanel chatflowId={flow.id} isPublic={flow.isPublic} />`.
 */
export function EmbedPanel({ chatflowId, isPublic, theme }: { chatflowId: string; isPublic: boolean; theme?: WidgetTheme }) {
  const apiHost = typeof window === "undefined" ? "" : window.location.origin;
  const snippets = useMemo(() => embedSnippets(apiHost, chatflowId, theme), [apiHost, chatflowId, theme]);
  const [tab, setTab] = useState<string>("script");
  const [copied, setCopied] = useState(false);
  const code = snippets.find((s) => s.id === tab)?.code ?? snippets[0].code;

  return (
    <section className="min-w-0 space-y-3" aria-label="Embed widget">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Chat widget</p>
        <Button variant="secondary" onClick={() => { void navigator.clipboard?.writeText(code); setCopied(true); setTimeout(() => setCopied(false), 1500); }}>
          {copied ? "Copied" : "Copy snippet"}
        </Button>
      </div>
      {!isPublic && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800 ring-1 ring-amber-200">
          The chatflow is private: the widget works here in the preview, but on other sites only once it is public and the site&apos;s origin is allowed.
        </p>
      )}
      <div role="tablist" aria-label="Embed snippet" className="flex gap-1 border-b border-slate-200">
        {snippets.map((s) => (
          <button key={s.id} role="tab" type="button" aria-selected={tab === s.id} onClick={() => setTab(s.id)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${tab === s.id ? "border-brand-600 font-medium text-brand-700" : "border-transparent text-slate-500 hover:text-slate-800"}`}>
            {s.label}
          </button>
        ))}
      </div>
      <pre role="tabpanel" className="overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100" data-testid="embed-snippet">{code}</pre>
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Live preview</p>
      <WidgetPreview chatflowId={chatflowId} theme={theme} />
    </section>
  );
}
