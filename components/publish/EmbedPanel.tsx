"use client";

import { useMemo, useState } from "react";
import { CopyButton, SnippetTabs } from "@/components/ui/SnippetTabs";
import type { WidgetTheme } from "@/lib/schemas/chatflow";
import { embedSnippets } from "./embed-snippets";
import { WidgetPreview } from "./WidgetPreview";

/**
 * The "Embed" part of the publish dialog: snippets to put the chat widget on a site (script tag,
 * init() call, full page) with this chatflow's id and server, a copy button, and a live preview.
 * Mount it anywhere in the studio: `<EmbedPanel chatflowId={flow.id} isPublic={flow.isPublic} />`.
 */
export function EmbedPanel({
  chatflowId,
  isPublic,
  theme,
}: {
  chatflowId: string;
  isPublic: boolean;
  theme?: WidgetTheme;
}) {
  const apiHost = typeof window === "undefined" ? "" : window.location.origin;
  const snippets = useMemo(() => embedSnippets(apiHost, chatflowId, theme), [apiHost, chatflowId, theme]);
  const [tab, setTab] = useState<string>("script");
  const code = snippets.find((s) => s.id === tab)?.code ?? snippets[0].code;

  return (
    <section className="min-w-0 space-y-3" aria-label="Embed widget">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Chat widget</p>
        <CopyButton text={code} label="Copy snippet" />
      </div>
      {!isPublic && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800 ring-1 ring-amber-200">
          The chatflow is private: the widget works here in the preview, but on other sites only once it is public and
          the site&apos;s origin is allowed.
        </p>
      )}
      <SnippetTabs snippets={snippets} tab={tab} onTab={setTab} label="Embed snippet" testId="embed-snippet" />
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Live preview</p>
      <WidgetPreview chatflowId={chatflowId} theme={theme} />
    </section>
  );
}
