"use client";

import { useState } from "react";
import { api } from "@/lib/client/api";
import { Button, ErrorNote } from "@/components/ui/controls";
import { ModalDialog } from "@/components/ui/ModalDialog";

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
    <ModalDialog
      titleId="templates-title"
      title="Templates"
      subtitle="Start from an example: it is saved as a new chatflow of yours."
      widthClass="max-w-2xl"
      onClose={onClose}
    >
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
    </ModalDialog>
  );
}
