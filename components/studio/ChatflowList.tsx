"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { z } from "zod";
import { api } from "@/browser/client/api";
import { type ChatflowType, chatflowResponseSchema } from "@/common/schemas/chatflow";
import { chatflowSummaryResponseSchema, deletedResponseSchema } from "@/common/schemas/responses";
import { Button, Card, ErrorNote, PageHeader, TextInput } from "@/components/ui/controls";
import { copyName } from "@/common/flow/names";
import { FlowiseImportDialog } from "./FlowiseImportDialog";
import { type FlowiseTemplate, type Template, TemplatesDialog } from "./TemplatesDialog";
import { useStudioUser } from "./StudioUser";
import { useConfirm } from "@/components/ui/ConfirmDialog";

const summaryListSchema = z.array(chatflowSummaryResponseSchema);
type Summary = z.output<typeof chatflowSummaryResponseSchema>;

/** Whether a chatflow matches the search box: every word in its name or description, any case. */
export function matchesSearch(flow: { name: string; description: string }, search: string): boolean {
  const text = `${flow.name} ${flow.description}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => text.includes(w));
}

type FlowKind = ChatflowType;

/** What each tab lists and says, by the flows' type. */
const KINDS: Record<FlowKind, { tab: string; one: string; hint: string; placeholder: string }> = {
  CHATFLOW: {
    tab: "Chatflows",
    one: "chatflow",
    hint: "Each chatflow is a graph of LangChain nodes, callable over the API and the widget.",
    placeholder: "e.g. Product search assistant",
  },
  AGENTFLOW: {
    tab: "Agentflows",
    one: "agentflow",
    hint: "Each agentflow runs steps in order from its Start: models, conditions, loops, human approval.",
    placeholder: "e.g. Refund approval",
  },
};

/** A new agentflow's graph: its Start node, where every run begins. */
const START_GRAPH = {
  nodes: [{ id: "startAgentflow_0", type: "startAgentflow", position: { x: 80, y: 120 }, data: { inputs: {} } }],
  edges: [],
};

export function ChatflowList({
  templates = [],
  flowiseTemplates = [],
}: {
  templates?: Template[];
  flowiseTemplates?: FlowiseTemplate[];
}) {
  const qc = useQueryClient();
  const router = useRouter();
  const open = (id: string) => router.push(`/chatflows/${id}`);
  const [kind, setKind] = useState<FlowKind>("CHATFLOW");
  const words = KINDS[kind];
  const flows = useQuery({
    queryKey: ["chatflows", kind],
    queryFn: () => api(`/api/v1/chatflows?type=${kind}`, { schema: summaryListSchema }),
  });
  // Every list of flows (both tabs: a prefix of their keys).
  const refresh = () => qc.invalidateQueries({ queryKey: ["chatflows"] });
  const create = useMutation({
    mutationFn: (name: string) =>
      api("/api/v1/chatflows", {
        method: "POST",
        body: kind === "AGENTFLOW" ? { name, type: kind, graph: START_GRAPH } : { name },
        schema: chatflowResponseSchema,
      }),
    // A new chatflow is opened in the editor at once: that is where it gets its nodes.
    onSuccess: (created) => {
      refresh();
      open(created.id);
    },
  });
  // A copy is private and new: graph, texts and widget settings, not the publishing choices.
  const duplicate = useMutation({
    mutationFn: async (id: string) => {
      const f = await api(`/api/v1/chatflows/${id}`, { schema: chatflowResponseSchema });
      return api("/api/v1/chatflows", {
        method: "POST",
        schema: chatflowResponseSchema,
        body: {
          name: copyName(f.name),
          type: f.type,
          description: f.description,
          graph: f.graph,
          overrideAllowList: f.overrideAllowList,
          chatbotConfig: f.chatbotConfig,
          // Saved settings only: a chatflow never set up for speech holds {} (not a valid setting to send).
          ...(Object.keys(f.speechToText ?? {}).length ? { speechToText: f.speechToText } : {}),
        },
      });
    },
    onSuccess: refresh,
  });
  const rename = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api(`/api/v1/chatflows/${id}`, { method: "PUT", body: { name }, schema: chatflowResponseSchema }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/api/v1/chatflows/${id}`, { method: "DELETE", schema: deletedResponseSchema }),
    onSuccess: refresh,
  });
  const [name, setName] = useState("");
  const [importing, setImporting] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [search, setSearch] = useState("");
  const shown = flows.data?.filter((f) => matchesSearch(f, search));
  const { may } = useStudioUser();

  return (
    <>
      <PageHeader
        title={words.tab}
        subtitle={words.hint}
        actions={
          may("chatflow.create") && (
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={() => setChoosing(true)}>
                New from template
              </Button>
              <Button variant="secondary" onClick={() => setImporting(true)}>
                Import from Flowise
              </Button>
            </div>
          )
        }
      />
      {importing && <FlowiseImportDialog onClose={() => setImporting(false)} onImported={refresh} />}
      {choosing && (
        <TemplatesDialog
          templates={templates}
          flowiseTemplates={flowiseTemplates}
          onClose={() => setChoosing(false)}
          onCreated={(id) => {
            refresh();
            open(id);
          }}
        />
      )}
      <KindTabs kind={kind} onChange={setKind} />
      <Card className="mb-6 p-4">
        <form
          className="flex items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) create.mutate(name.trim(), { onSuccess: () => setName("") });
          }}
        >
          <TextInput
            label={`New ${words.one}`}
            placeholder={words.placeholder}
            value={name}
            onChange={(e) => setName(e.target.value)}
            className="flex-1"
          />
          <Button type="submit" disabled={!name.trim() || create.isPending}>
            Create
          </Button>
        </form>
        <div className="mt-3">
          <ErrorNote error={create.error} />
        </div>
      </Card>
      <ErrorNote error={flows.error ?? rename.error ?? remove.error ?? duplicate.error} />
      {flows.isLoading && <p className="text-sm text-slate-500">Loading {words.tab.toLowerCase()}…</p>}
      {flows.data?.length === 0 && (
        <p className="text-sm text-slate-500">No {words.tab.toLowerCase()} yet. Create the first one above.</p>
      )}
      {!!flows.data?.length && (
        <div className="my-3">
          <input
            type="search"
            aria-label={`Search ${words.tab.toLowerCase()}`}
            placeholder="Search by name or description"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100 sm:max-w-sm"
          />
        </div>
      )}
      {!!flows.data?.length && shown?.length === 0 && (
        <p className="text-sm text-slate-500">
          No {words.one} matches “{search.trim()}”.
        </p>
      )}
      <ul className="grid gap-3" aria-label={words.tab}>
        {shown?.map((f) => (
          <ChatflowRow
            key={f.id}
            flow={f}
            onRename={(n) => rename.mutate({ id: f.id, name: n })}
            onDelete={() => remove.mutate(f.id)}
            onDuplicate={may("chatflow.create") ? () => duplicate.mutate(f.id) : undefined}
            duplicating={duplicate.isPending && duplicate.variables === f.id}
          />
        ))}
      </ul>
    </>
  );
}

/** The two kinds of flow, listed apart (Flowise's Chatflows and Agentflows). */
function KindTabs({ kind, onChange }: { kind: FlowKind; onChange: (k: FlowKind) => void }) {
  return (
    <div role="tablist" aria-label="Kind of flow" className="mb-4 flex gap-1 border-b border-slate-200">
      {(Object.keys(KINDS) as FlowKind[]).map((k) => (
        <button
          key={k}
          type="button"
          role="tab"
          aria-selected={kind === k}
          onClick={() => onChange(k)}
          className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${kind === k ? "border-brand-600 text-brand-700" : "border-transparent text-slate-500 hover:text-slate-800"}`}
        >
          {KINDS[k].tab}
        </button>
      ))}
    </div>
  );
}

function ChatflowRow({
  flow,
  onRename,
  onDelete,
  onDuplicate,
  duplicating,
}: {
  flow: Summary;
  onRename: (n: string) => void;
  onDelete: () => void;
  onDuplicate?: () => void;
  duplicating: boolean;
}) {
  const confirm = useConfirm();
  const { may } = useStudioUser();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(flow.name);
  return (
    <li className="min-w-0">
      <Card className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
        <div className="min-w-0 flex-1">
          {editing ? (
            <form
              className="flex gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                onRename(draft);
                setEditing(false);
              }}
            >
              <input
                aria-label="Chatflow name"
                className="flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                autoFocus
              />
              <Button type="submit">Save</Button>
              <Button type="button" variant="ghost" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </form>
          ) : (
            <>
              <a href={`/chatflows/${flow.id}`} className="font-medium hover:text-brand-700">
                {flow.name}
              </a>
              <p className="truncate text-xs text-slate-500">
                v{flow.version} · updated {new Date(flow.updatedAt).toLocaleString()} {flow.isPublic ? "· public" : ""}
                {flow.description ? ` · ${flow.description}` : ""}
              </p>
              {/* Admins manage everyone's chatflows (and transfer them): show whose each one is. */}
              {may("chatflow.transfer") && (
                <p className="text-xs text-slate-500" data-testid="chatflow-owner">
                  Owner: {flow.owner?.name ?? "nobody"}
                </p>
              )}
            </>
          )}
        </div>
        {!editing && (
          <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
            {may("chatmessage.read") && (
              <a
                href={`/chatflows/${flow.id}/conversations`}
                className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100"
                aria-label={`Conversations of ${flow.name}`}
              >
                Conversations
              </a>
            )}
            {may("usage.read") && (
              <a
                href={`/chatflows/${flow.id}/usage`}
                className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100"
                aria-label={`Usage of ${flow.name}`}
              >
                Usage
              </a>
            )}
            {onDuplicate && (
              <Button
                variant="secondary"
                onClick={onDuplicate}
                disabled={duplicating}
                aria-label={`Duplicate ${flow.name}`}
              >
                {duplicating ? "Duplicating…" : "Duplicate"}
              </Button>
            )}
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`Rename ${flow.name}`}>
              Rename
            </Button>
            <Button
              variant="danger"
              aria-label={`Delete ${flow.name}`}
              onClick={async () => {
                const yes = await confirm({
                  title: `Delete “${flow.name}”?`,
                  message: "Its versions, messages and test cases are deleted too.",
                  confirmLabel: "Delete",
                });
                if (yes) onDelete();
              }}
            >
              Delete
            </Button>
          </div>
        )}
      </Card>
    </li>
  );
}
