"use client";

import { useEffect, useRef, useState } from "react";
import type { WidgetTheme } from "@/lib/schemas/chatflow";

type Handle = { destroy(): void };
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
  height = 480,
}: {
  chatflowId: string;
  theme?: WidgetTheme;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const themeKey = JSON.stringify(theme ?? {});

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
          theme: JSON.parse(themeKey),
        });
      },
      (e: Error) => setError(e.message),
    );
    return () => {
      cancelled = true;
      handle?.destroy();
    };
  }, [chatflowId, themeKey]);

  return (
    <section
      className="overflow-hidden rounded-xl ring-1 ring-slate-200"
      style={{ height }}
      data-testid="widget-preview"
      aria-label="Widget preview"
    >
      {error ? <p className="p-4 text-sm text-red-700">{error}</p> : <div ref={box} className="h-full" />}
    </section>
  );
}
