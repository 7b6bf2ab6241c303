"use client";

import { useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api";
import { Button, ErrorNote } from "@/components/ui/controls";

/** An example flow from flows/*.json (lib/services/examples.ts readExampleFlows), offered as a template. */
export type Template = {
  file: string;
  name: string;
  description: string;
  graph: unknown;
  overrideAllowList: string[];
  chatbotConfig: Record<string, unknown>;
};

/**
 * "New from template": lists the example flows; choosing one saves a new chatflow with its graph
 * (POST /api/v1/chatflows, so the caller's own permissions and checks apply) and opens it.
 */
export function TemplatesDialog({
  templates,
  onClose,
  onCreated,
}: {
  templates: Template[];
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  const use = async (t: Template) => {
    setError(null);
    setPending(t.file);
    try {
      const created = await api<{ id: string }>("/api/v1/chatflows", {
        method: "POST",
        body: {
          name: t.name,
          description: t.description,
          graph: t.graph,
          overrideAllowList: t.overrideAllowList,
          chatbotConfig: t.chatbotConfig,
        },
      });
      onCreated(created.id);
    } catch (e) {
      setError(e);
      setPending(null);
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut; Escape and the Close button are the keyboard ways out
    <div
      className="fixed inset-0 z-30 grid place-items-center bg-slate-900/40 p-4"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={dialog}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby="templates-title"
        className="flex max-h-[calc(100vh-2rem)] w-full max-w-2xl flex-col overflow-hidden rounded-xl bg-white shadow-2xl outline-none"
      >
        <header className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
          <div>
            <h2 id="templates-title" className="text-base font-semibold">
              Templates
            </h2>
            <p className="text-xs text-slate-500">Start from an example: it is saved as a new chatflow of yours.</p>
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            className="grid h-8 w-8 place-items-center rounded-md text-slate-500 hover:bg-slate-100"
          >
            ✕
          </button>
        </header>
        <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-5">
          <ErrorNote error={error} />
          {templates.length === 0 && <p className="text-sm text-slate-500">No templates are installed.</p>}
          <ul className="grid gap-3" aria-label="Templates">
            {templates.map((t) => (
              <li key={t.file} className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{t.name}</p>
                  {t.description && <p className="text-xs text-slate-500">{t.description}</p>}
                </div>
                <Button
                  variant="secondary"
                  disabled={pending !== null}
                  aria-label={`Use template ${t.name}`}
                  onClick={() => use(t)}
                >
                  {pending === t.file ? "Creating…" : "Use"}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
