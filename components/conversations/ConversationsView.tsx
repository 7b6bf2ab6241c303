"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/browser/client/api";
import { chatflowResponseSchema } from "@/common/schemas/chatflow";
import { deletedCountResponseSchema, sessionsResponseSchema } from "@/common/schemas/responses";
import { Button, Card, ErrorNote, PageHeader, TextInput } from "@/components/ui/controls";
import { ExportButtons } from "./ExportButtons";
import { LeadsCard } from "./LeadsCard";
import { Transcript } from "./Transcript";
import { filterQuery, type Filters } from "./types";
import { useConfirm } from "@/components/ui/ConfirmDialog";

const EMPTY: Filters = { startDate: "", endDate: "", chatType: "" };

/** Sessions of one chatflow with filters, a transcript of the chosen one, delete and export. */
export function ConversationsView({ chatflowId }: { chatflowId: string }) {
  const confirm = useConfirm();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const base = `/api/v1/chatmessage/${chatflowId}`;
  const flow = useQuery({
    queryKey: ["chatflow", chatflowId],
    queryFn: () => api(`/api/v1/chatflows/${chatflowId}`, { schema: chatflowResponseSchema }),
  });
  const sessions = useQuery({
    queryKey: ["sessions", chatflowId, filters, page],
    queryFn: () =>
      api(`${base}/sessions${filterQuery(filters, { page: String(page) })}`, { schema: sessionsResponseSchema }),
  });
  const remove = useMutation({
    mutationFn: (sessionId: string) =>
      api(`${base}?sessionId=${encodeURIComponent(sessionId)}`, {
        method: "DELETE",
        schema: deletedCountResponseSchema,
      }),
    onSuccess: () => {
      setSelected(null);
      qc.invalidateQueries({ queryKey: ["sessions", chatflowId] });
    },
  });
  const [draftError, setDraftError] = useState<string | null>(null);
  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    // Said at once, in words: the server would refuse the same range (400).
    if (draft.startDate && draft.endDate && draft.startDate > draft.endDate) {
      setDraftError("The start date must not be after the end date.");
      return;
    }
    setDraftError(null);
    setFilters(draft);
    setPage(1);
    setSelected(null);
  };

  return (
    <>
      <PageHeader
        title={`Conversations${flow.data ? ` · ${flow.data.name}` : ""}`}
        subtitle="Stored chats of this chatflow by session. Deleting a session also resets its memory."
        actions={
          <Link href="/chatflows" className="text-sm text-brand-700 hover:underline">
            ← Chatflows
          </Link>
        }
      />
      <Card className="mb-6 p-4">
        <form className="flex flex-wrap items-end gap-3" onSubmit={apply} aria-label="Conversation filters">
          <TextInput
            label="From"
            type="date"
            value={draft.startDate}
            onChange={(e) => setDraft({ ...draft, startDate: e.target.value })}
          />
          <TextInput
            label="To (inclusive)"
            type="date"
            value={draft.endDate}
            onChange={(e) => setDraft({ ...draft, endDate: e.target.value })}
          />
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-slate-700">Type</span>
            <select
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
              value={draft.chatType}
              onChange={(e) => setDraft({ ...draft, chatType: e.target.value as Filters["chatType"] })}
            >
              <option value="">All</option>
              <option value="EXTERNAL">External (API, widget)</option>
              <option value="INTERNAL">Internal (studio)</option>
            </select>
          </label>
          <Button type="submit">Apply filters</Button>
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setDraftError(null);
              setDraft(EMPTY);
              setFilters(EMPTY);
              setPage(1);
            }}
          >
            Clear
          </Button>
          <div className="ml-auto">
            <ExportButtons base={base} filters={filters} sessionId={selected} />
          </div>
        </form>
      </Card>
      <ErrorNote error={draftError ?? sessions.error ?? remove.error} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <Card className="overflow-hidden">
          <ul aria-label="Sessions" className="divide-y divide-slate-100">
            {sessions.data?.data.map((s) => (
              <li key={s.sessionId}>
                <button
                  type="button"
                  className={`w-full px-4 py-3 text-left text-sm hover:bg-slate-50 ${selected === s.sessionId ? "bg-brand-50" : ""}`}
                  onClick={() => setSelected(s.sessionId)}
                  data-testid={`session-${s.sessionId}`}
                >
                  <span className="block truncate font-medium">{s.firstMessage || "(no question)"}</span>
                  <span className="mt-0.5 block text-xs text-slate-500">
                    {s.messageCount} messages · {new Date(s.lastAt).toLocaleString()} · {s.chatType.toLowerCase()} ·{" "}
                    <code>{s.sessionId}</code>
                  </span>
                </button>
              </li>
            ))}
            {sessions.data?.data.length === 0 && (
              <li className="px-4 py-6 text-center text-sm text-slate-500">No conversations match.</li>
            )}
          </ul>
          {sessions.data && sessions.data.pagination.totalPages > 1 && (
            <div className="flex items-center justify-between border-t border-slate-100 px-4 py-2 text-xs text-slate-500">
              <Button variant="ghost" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <span>
                Page {page} of {sessions.data.pagination.totalPages} · {sessions.data.pagination.total} sessions
              </span>
              <Button variant="ghost" disabled={!sessions.data.pagination.hasNext} onClick={() => setPage(page + 1)}>
                Next
              </Button>
            </div>
          )}
        </Card>
        <Card className="p-4">
          {selected ? (
            <>
              <div className="mb-3 flex items-center justify-between gap-2">
                <h2 className="truncate text-sm font-semibold">
                  Session <code>{selected}</code>
                </h2>
                <Button
                  variant="danger"
                  disabled={remove.isPending}
                  onClick={async () => {
                    const yes = await confirm({
                      title: `Delete session “${selected}”?`,
                      message: "Every message of the session is deleted and its memory is reset.",
                      confirmLabel: "Delete session",
                    });
                    if (yes) remove.mutate(selected);
                  }}
                >
                  Delete session
                </Button>
              </div>
              <Transcript base={base} sessionId={selected} filters={filters} chatflowId={chatflowId} />
            </>
          ) : (
            <p className="py-10 text-center text-sm text-slate-500">Choose a session to read its transcript.</p>
          )}
        </Card>
      </div>
      <LeadsCard chatflowId={chatflowId} />
    </>
  );
}
