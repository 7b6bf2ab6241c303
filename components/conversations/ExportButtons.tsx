"use client";

import { useState } from "react";
import { z } from "zod";
import { api } from "@/browser/client/api";
import { chatMessageRecordSchema } from "@/common/schemas/chat-message";
import { chatMessagesToCsv } from "@/common/schemas/chat-message-csv";
import { Button } from "@/components/ui/controls";
import { filterQuery, type ChatMessageRecord, type Filters } from "./types";

const PAGE = 1000;
const messageListSchema = z.array(chatMessageRecordSchema);

async function fetchAll(base: string, filters: Filters, sessionId: string | null): Promise<ChatMessageRecord[]> {
  const all: ChatMessageRecord[] = [];
  for (let page = 1; ; page++) {
    const extra: Record<string, string> = { page: String(page), limit: String(PAGE) };
    if (sessionId) extra.sessionId = sessionId;
    const batch = await api(`${base}${filterQuery(filters, extra)}`, { schema: messageListSchema });
    all.push(...batch);
    if (batch.length < PAGE) return all;
  }
}

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
}

/** Downloads the chosen session (or everything the filters match) as JSON or CSV. */
export function ExportButtons({
  base,
  filters,
  sessionId,
}: {
  base: string;
  filters: Filters;
  sessionId: string | null;
}) {
  const [busy, setBusy] = useState(false);
  const run = async (kind: "json" | "csv") => {
    setBusy(true);
    try {
      const records = await fetchAll(base, filters, sessionId);
      const stem = `messages-${sessionId ?? "all"}`;
      if (kind === "json") download(`${stem}.json`, "application/json", JSON.stringify(records, null, 2));
      else download(`${stem}.csv`, "text/csv", chatMessagesToCsv(records));
    } finally {
      setBusy(false);
    }
  };
  const what = sessionId ? "session" : "all";
  return (
    <div className="flex gap-2">
      <Button type="button" variant="secondary" disabled={busy} onClick={() => run("json")}>
        Export {what} as JSON
      </Button>
      <Button type="button" variant="secondary" disabled={busy} onClick={() => run("csv")}>
        Export {what} as CSV
      </Button>
    </div>
  );
}
