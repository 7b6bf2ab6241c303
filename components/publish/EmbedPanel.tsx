"use client";

import { useMemo, useState } from "react";
import { CopyButton, SnippetTabs } from "@/components/ui/SnippetTabs";
import type { ChatbotConfig, WidgetTheme } from "@/common/schemas/chatflow";
import { embedSnippets } from "./embed-snippets";
import { WidgetPreview, type WidgetPreviewTexts } from "./WidgetPreview";

/**
 * The "Embed" part of the publish dialog: snippets to put the chat widget on a site (script tag,
 * init() call, full page) with this chatflow's id and server, a copy button, the link of the
 * full-page chat (/chat/{id}), and a live preview of the chatbot settings being edited.
 * Mount it anywhere in the studio: `<EmbedPanel chatflowId={flow.id} isPublic={flow.isPublic} />`.
 */
export function EmbedPanel({
  chatflowId,
  isPublic,
  theme,
  chatbotConfig,
}: {
  chatflowId: string;
  isPublic: boolean;
  /** A theme for the snippets and the preview (default: the one in chatbotConfig, or none). */
  theme?: WidgetTheme;
  /** Unsaved chatbot settings, shown in the live preview over the saved ones. */
  chatbotConfig?: ChatbotConfig;
}) {
  const apiHost = typeof window === "undefined" ? "" : window.location.origin;
  const snippets = useMemo(() => embedSnippets(apiHost, chatflowId, theme), [apiHost, chatflowId, theme]);
  const [tab, setTab] = useState<string>("script");
  const code = snippets.find((s) => s.id === tab)?.code ?? snippets[0].code;
  const link = `${apiHost}/chat/${chatflowId}`;
  const preview: WidgetPreviewTexts | undefined = chatbotConfig && {
    title: chatbotConfig.title ?? "",
    welcomeMessage: chatbotConfig.welcomeMessage ?? "",
    starterPrompts: chatbotConfig.starterPrompts ?? [],
    showToolCalls: chatbotConfig.showToolCalls === true,
  };

  return (
    <section className="min-w-0 space-y-3" aria-label="Embed widget">
      {!isPublic && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800 ring-1 ring-amber-200">
          The chatflow is private: the widget works here in the preview, but on other sites and at the chat link only
          once it is public (and, on other sites, the site&apos;s origin is allowed).
        </p>
      )}
      <div className="flex items-center justify-end">
        <CopyButton text={code} label="Copy snippet" />
      </div>
      <SnippetTabs snippets={snippets} tab={tab} onTab={setTab} label="Embed snippet" testId="embed-snippet" wrap />
      <div>
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Full-page chat</p>
        <div className="mt-1 flex items-center gap-2">
          <a
            href={link}
            target="_blank"
            rel="noreferrer"
            className="min-w-0 flex-1 truncate rounded-md bg-slate-100 px-2 py-1.5 font-mono text-xs text-brand-700 hover:underline"
            data-testid="chat-link"
          >
            {link}
          </a>
          <CopyButton text={link} label="Copy link" />
        </div>
      </div>
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Live preview</p>
      <WidgetPreview chatflowId={chatflowId} theme={theme ?? chatbotConfig?.theme} preview={preview} />
    </section>
  );
}
