"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { z } from "zod";
import { ErrorNote } from "@/components/ui/controls";
import { api } from "@/browser/client/api";
import { apiKeyResponseSchema } from "@/common/schemas/responses";
import { paramInputs } from "@/common/nodes/types";
import type { Graph } from "@/common/schemas/graph";
import type { ChatbotConfig } from "@/common/schemas/chatflow";
import { PublishSettings, type Settings } from "./PublishSettings";
import { predictionSnippets } from "./publish-snippets";
import { useEditorSlots } from "./editor-slots";
import { useUpdateChatflow, type Chatflow } from "./use-chatflow";
import { CopyButton, SnippetTabs } from "@/components/ui/SnippetTabs";
import type { DefinitionLookup } from "@/common/nodes/catalog";
import { isNeverOverridable } from "@/common/nodes/override-rules";
import { useEditorStore } from "./editor-context";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { PublishVersionSection } from "./PublishVersionSection";
import { McpServerSection } from "./McpServerSection";
import { WebhookSection } from "./WebhookSection";
import { SchedulesSection } from "./SchedulesSection";

const keyListSchema = z.array(apiKeyResponseSchema);

/** Param names of the graph a caller could be allowed to override (never credentials). */
function overridableParams(graph: Graph, getDefinition: DefinitionLookup): string[] {
  const names = new Set<string>();
  for (const n of graph.nodes)
    for (const p of paramInputs(getDefinition(n.type) ?? ({ inputs: [] } as never)))
      if (!isNeverOverridable(p)) names.add(p.name);
  return [...names].sort();
}

/** How to call this chatflow, who may, and its public settings. */
export function PublishDialog({
  flow,
  graph,
  dirty,
  onSaveVersion,
  onClose,
}: {
  flow: Chatflow;
  graph: () => Graph;
  /** The canvas has unsaved changes (publishing the draft saves them first). */
  dirty: boolean;
  onSaveVersion: (message: string) => Promise<Chatflow | undefined>;
  onClose: () => void;
}) {
  const endpoint = `${typeof window === "undefined" ? "" : window.location.origin}/api/v1/prediction/${flow.id}`;
  const snippets = useMemo(() => predictionSnippets(endpoint), [endpoint]);
  const [tab, setTab] = useState(snippets[0].id);
  const keys = useQuery({ queryKey: ["apikeys"], queryFn: () => api("/api/v1/apikey", { schema: keyListSchema }) });
  const callers = (keys.data ?? []).filter(
    (k) =>
      k.status === "active" && k.permissions.includes("predict") && (k.allChatflows || k.chatflowIds.includes(flow.id)),
  );
  const { catalog } = useEditorStore();
  const params = useMemo(() => overridableParams(graph(), catalog.get), [graph, catalog]);
  const update = useUpdateChatflow(flow.id);
  const slots = useEditorSlots();
  const code = snippets.find((s) => s.id === tab)!.code;
  // The chatbot settings being edited: the form changes them, the embed slot's live preview shows them.
  const [chatbot, setChatbot] = useState<ChatbotConfig>(() => flow.chatbotConfig as ChatbotConfig);

  return (
    <ModalDialog
      titleId="publish-title"
      title={<>Publish “{flow.name}”</>}
      subtitle="Call it from your app over the prediction API, or make it public for the chat widget."
      widthClass="max-w-5xl"
      onClose={onClose}
    >
      <div className="grid min-h-0 flex-1 gap-5 overflow-y-auto p-5 md:grid-cols-[minmax(0,1fr)_20rem]">
        <section className="min-w-0 space-y-3">
          <PublishVersionSection flow={flow} dirty={dirty} onSave={onSaveVersion} />
          <div>
            <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">API endpoint</p>
            <div className="mt-1 flex items-center gap-2">
              <code
                className="min-w-0 flex-1 truncate rounded-md bg-slate-100 px-2 py-1.5 font-mono text-xs"
                data-testid="endpoint"
              >
                POST {endpoint}
              </code>
              <CopyButton text={code} label="Copy code" />
            </div>
          </div>
          <SnippetTabs snippets={snippets} tab={tab} onTab={setTab} label="Snippet language" testId="snippet" wrap />
          <div>
            <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">API keys that can call it</p>
            {keys.isLoading && <p className="mt-1 text-sm text-slate-500">Loading keys…</p>}
            <ErrorNote error={keys.error} />
            {keys.data && callers.length === 0 && (
              <p className="mt-1 text-sm text-slate-500">
                No active key with the Prediction permission covers this chatflow.{" "}
                <a className="text-brand-700 underline" href="/api-keys">
                  Create one
                </a>
                .
              </p>
            )}
            <ul className="mt-1 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" aria-label="API keys">
              {callers.map((k) => (
                <li key={k.id} className="flex items-center justify-between px-3 py-1.5 text-sm">
                  <span className="font-medium">{k.name}</span>
                  <span className="font-mono text-xs text-slate-500">
                    {k.prefix}… · {k.allChatflows ? "all chatflows" : "this chatflow"}
                  </span>
                </li>
              ))}
            </ul>
          </div>
          <McpServerSection chatflowId={flow.id} />
          <WebhookSection chatflowId={flow.id} />
          <SchedulesSection chatflowId={flow.id} />
          <div>
            <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Embed the chat widget</p>
            {slots.embedPanel?.({ chatflowId: flow.id, isPublic: flow.isPublic, chatbotConfig: chatbot })}
          </div>
        </section>
        <PublishSettings
          flow={flow}
          params={params}
          saving={update.isPending}
          error={update.error}
          onSave={(s: Settings) => update.mutate(s)}
          saved={update.isSuccess ? { version: update.data.version } : null}
          chatbot={chatbot}
          onChatbot={setChatbot}
        />
      </div>
    </ModalDialog>
  );
}
