"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/lib/client/api";
import { Button, Card, ErrorNote, PageHeader, TextInput } from "@/components/ui/controls";
import { FlowiseImportDialog } from "./FlowiseImportDialog";
import { useStudioUser } from "./StudioUser";

type Owner = { id: string; name: string; email: string } | null;
type Summary = {
  id: string;
  name: string;
  description: string;
  version: number;
  isPublic: boolean;
  updatedAt: string;
  owner: Owner;
};

export function ChatflowList() {
  const qc = useQueryClient();
  const flows = useQuery({ queryKey: ["chatflows"], queryFn: () => api<Summary[]>("/api/v1/chatflows") });
  const refresh = () => qc.invalidateQueries({ queryKey: ["chatflows"] });
  const create = useMutation({
    mutationFn: (name: string) => api("/api/v1/chatflows", { method: "POST", body: { name } }),
    onSuccess: refresh,
  });
  const rename = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api(`/api/v1/chatflows/${id}`, { method: "PUT", body: { name } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/api/v1/chatflows/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const [name, setName] = useState("");
  const [importing, setImporting] = useState(false);
  const { may } = useStudioUser();

  return (
    <>
      <PageHeader
        title="Chatflows"
        subtitle="Each chatflow is a graph of LangChain nodes, callable over the API and the widget."
        actions={
          may("chatflow.create") && (
            <Button variant="secondary" onClick={() => setImporting(true)}>
              Import from Flowise
            </Button>
          )
        }
      />
      {importing && <FlowiseImportDialog onClose={() => setImporting(false)} onImported={refresh} />}
      <Card className="mb-6 p-4">
        <form
          className="flex items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) create.mutate(name.trim(), { onSuccess: () => setName("") });
          }}
        >
          <TextInput
            label="New chatflow"
            placeholder="e.g. Product search assistant"
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
      <ErrorNote error={flows.error ?? rename.error ?? remove.error} />
      {flows.isLoading && <p className="text-sm text-slate-500">Loading chatflows…</p>}
      {flows.data?.length === 0 && (
        <p className="text-sm text-slate-500">No chatflows yet. Create the first one above.</p>
      )}
      <ul className="grid gap-3" aria-label="Chatflows">
        {flows.data?.map((f) => (
          <ChatflowRow
            key={f.id}
            flow={f}
            onRename={(n) => rename.mutate({ id: f.id, name: n })}
            onDelete={() => remove.mutate(f.id)}
          />
        ))}
      </ul>
    </>
  );
}

function ChatflowRow({
  flow,
  onRename,
  onDelete,
}: {
  flow: Summary;
  onRename: (n: string) => void;
  onDelete: () => void;
}) {
  const { may } = useStudioUser();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(flow.name);
  return (
    <li className="min-w-0">
      <Card className="flex items-center gap-4 px-4 py-3">
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
          <div className="flex gap-2">
            {may("chatmessage.read") && (
              <a
                href={`/chatflows/${flow.id}/conversations`}
                className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100"
                aria-label={`Conversations of ${flow.name}`}
              >
                Conversations
              </a>
            )}
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`Rename ${flow.name}`}>
              Rename
            </Button>
            <Button
              variant="danger"
              aria-label={`Delete ${flow.name}`}
              onClick={() => {
                if (confirm(`Delete “${flow.name}” and its messages?`)) onDelete();
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
