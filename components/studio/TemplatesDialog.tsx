"use client";

import { useState } from "react";
import { api } from "@/browser/client/api";
import { z } from "zod";
import { freshName } from "@/common/flow/names";
import { chatflowResponseSchema } from "@/common/schemas/chatflow";
import { chatflowSummaryResponseSchema, importedChatflowResponseSchema } from "@/common/schemas/responses";
import type { readExampleFlows, readFlowiseTemplates } from "@/lib/services/examples";
import { Button, ErrorNote } from "@/components/ui/controls";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { isRefusal, RefusalList } from "./FlowiseImportDialog";

/** An example flow from flows/*.json, offered as a template (the page passes readExampleFlows' answer). */
export type Template = ReturnType<typeof readExampleFlows>[number];

/** A Flowise template shipped in flows/flowise, in Flowise's export format (readFlowiseTemplates). */
export type FlowiseTemplate = ReturnType<typeof readFlowiseTemplates>[number];

/**
 * "New from template": lists the example flows; choosing one saves a new chatflow with its graph
 * (POST /api/v1/chatflows, so the caller's own permissions and checks apply) and opens it. Flowise
 * templates (shipped ones, or a template file the builder picks, e.g. one saved from Flowise's
 * marketplace) go through the Flowise import (POST /api/v1/chatflows/import); one that cannot be
 * imported lists what stops it, and nothing is saved.
 */
const summaryListSchema = z.array(chatflowSummaryResponseSchema);

/** A name for a flow made from a template that none of the caller's flows (either kind) has yet. */
async function untakenName(name: string): Promise<string> {
  const flows = await api("/api/v1/chatflows", { schema: summaryListSchema });
  return freshName(
    name,
    flows.map((f) => f.name),
  );
}

export function TemplatesDialog({
  templates,
  flowiseTemplates = [],
  onClose,
  onCreated,
}: {
  templates: Template[];
  flowiseTemplates?: FlowiseTemplate[];
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState<string | null>(null);

  const use = async (t: Template) => {
    setError(null);
    setPending(t.file);
    try {
      const created = await api("/api/v1/chatflows", {
        method: "POST",
        schema: chatflowResponseSchema,
        body: {
          name: await untakenName(t.name),
          description: t.description,
          graph: t.graph,
          // An agentflow template makes an agentflow (its steps run on the agentflow engine).
          ...(t.type ? { type: t.type } : {}),
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

  const importFlowise = async (key: string, body: Record<string, unknown>) => {
    setError(null);
    setPending(key);
    try {
      const name = typeof body.name === "string" ? await untakenName(body.name) : body.name;
      const created = await api("/api/v1/chatflows/import", {
        method: "POST",
        body: { ...body, name },
        schema: importedChatflowResponseSchema,
      });
      onCreated(created.id);
    } catch (e) {
      setError(e);
      setPending(null);
    }
  };

  const importFile = async (file: File) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      setError(new Error(`${file.name} is not JSON. Pick a Flowise template or chatflow export (.json).`));
      return;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      setError(new Error(`${file.name} is not a Flowise chatflow (an object with nodes and edges).`));
      return;
    }
    const raw = parsed as Record<string, unknown>;
    const name = typeof raw.name === "string" && raw.name.trim() ? raw.name : file.name.replace(/\.json$/i, "");
    await importFlowise("file", { ...raw, name: name.slice(0, 200) });
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
        {isRefusal(error) ? <RefusalList refusal={error.details} /> : <ErrorNote error={error} />}
        <h3 className="text-sm font-semibold text-slate-700" id="examples-heading">
          Switchyard examples
        </h3>
        {templates.length === 0 && <p className="text-sm text-slate-500">No templates are installed.</p>}
        <ul className="grid gap-3" aria-labelledby="examples-heading">
          {templates.map((t) => (
            <li key={t.file} className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {t.name}
                  {t.type === "AGENTFLOW" && (
                    <span className="ml-2 rounded bg-violet-100 px-1.5 py-0.5 text-xs font-normal text-violet-800">
                      Agentflow
                    </span>
                  )}
                </p>
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
        <h3 className="pt-2 text-sm font-semibold text-slate-700" id="flowise-heading">
          Flowise templates
        </h3>
        <p className="text-xs text-slate-500">
          In Flowise&apos;s format, turned into a chatflow by the Flowise import: credentials are left to connect.
        </p>
        {flowiseTemplates.length > 0 && (
          <ul className="grid gap-3" aria-labelledby="flowise-heading">
            {flowiseTemplates.map((t) => (
              <li key={t.file} className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">
                    {t.name}{" "}
                    <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-[11px] font-normal text-slate-600">
                      Flowise
                    </span>
                  </p>
                  {t.description && <p className="text-xs text-slate-500">{t.description}</p>}
                </div>
                <Button
                  variant="secondary"
                  disabled={pending !== null}
                  aria-label={`Use Flowise template ${t.name}`}
                  onClick={() => importFlowise(t.file, { name: t.name, description: t.description, ...t.flowise })}
                >
                  {pending === t.file ? "Importing…" : "Use"}
                </Button>
              </li>
            ))}
          </ul>
        )}
        <label className="flex flex-wrap items-center gap-3 rounded-lg border border-dashed border-slate-300 p-3 text-sm">
          <span className="min-w-0 flex-1">
            <span className="block font-medium">A Flowise template file</span>
            <span className="block text-xs text-slate-500">
              A template or chatflow saved from Flowise (marketplace &quot;Use template&quot;, then Export) becomes a
              new chatflow.
            </span>
          </span>
          <input
            type="file"
            accept=".json,application/json"
            aria-label="Flowise template file"
            disabled={pending !== null}
            className="max-w-full text-sm"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void importFile(file);
            }}
          />
        </label>
        {pending === "file" && <p className="text-sm text-slate-600">Importing…</p>}
      </div>
    </ModalDialog>
  );
}
