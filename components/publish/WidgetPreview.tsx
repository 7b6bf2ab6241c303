"use client";

import { useEffect, useRef, useState } from "react";
import type { WidgetTheme } from "@/common/schemas/chatflow";

type Handle = { destroy(): void };

/** Unsaved texts and switches the preview shows over the saved ones (the widget's `preview` option). */
export type WidgetPreviewTexts = {
  title?: string;
  welcomeMessage?: string;
  starterPrompts?: string[];
  showToolCalls?: boolean;
};
type SwitchyardGlobal = { init(opts: Record<string, unknown>): Handle };

let loading: Promise<SwitchyardGlobal> | null = null;

/** Loads /embed.js once per page (the same file host sites load). */
function loadEmbed(): Promise<SwitchyardGlobal> {
  const existing = (window as { Switchyard?: SwitchyardGlobal }).Switchyard;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = "/embed.js";
    s.async = true;
    s.onload = () => resolve((window as { Switchyard?: SwitchyardGlobal }).Switchyard!);
    s.onerror = () => {
      loading = null;
      reject(new Error("Could not load /embed.js"));
    };
    document.head.append(s);
  });
  return loading;
}

/**
 * The real widget, in full-page mode inside a box: what visitors will see, with the theme being
 * edited applied live. It chats as the signed-in builder (stored as INTERNAL, works while private).
 */
export function WidgetPreview({
  chatflowId,
  theme,
  preview,
  height = 480,
  fill = false,
}: {
  chatflowId: string;
  theme?: WidgetTheme;
  preview?: WidgetPreviewTexts;
  height?: number;
  /** Fill the parent instead (the full-page chat at /chat/{id}): no box, no fixed height. */
  fill?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  // Typing in the settings re-creates the widget: after a short pause, not on every key.
  const key = JSON.stringify({ theme: theme ?? {}, preview });
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const t = setTimeout(() => setSettled(key), 250);
    return () => clearTimeout(t);
  }, [key]);

  useEffect(() => {
    let handle: Handle | undefined;
    let cancelled = false;
    loadEmbed().then(
      (sy) => {
        if (cancelled || !box.current) return;
        handle = sy.init({
          chatflowId,
          apiHost: window.location.origin,
          mode: "full",
          target: box.current,
          ...JSON.parse(settled),
        });
      },
      (e: Error) => setError(e.message),
    );
    return () => {
      cancelled = true;
      handle?.destroy();
    };
  }, [chatflowId, settled]);

  return (
    <section
      className={fill ? "h-full overflow-hidden" : "overflow-hidden rounded-xl ring-1 ring-slate-200"}
      style={fill ? undefined : { height }}
      data-testid={fill ? "full-page-chat" : "widget-preview"}
      aria-label={fill ? "Chat" : "Widget preview"}
    >
      {error ? <p className="p-4 text-sm text-red-700">{error}</p> : <div ref={box} className="h-full" />}
    </section>
  );
}
