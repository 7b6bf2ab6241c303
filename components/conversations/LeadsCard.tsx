"use client";

import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/browser/client/api";
import { csvField } from "@/common/schemas/chat-message-csv";
import type { LeadRecord } from "@/common/schemas/feedback";
import { leadResponseSchema } from "@/common/schemas/responses";
import { Button, Card, ErrorNote } from "@/components/ui/controls";

const leadListSchema = z.array(leadResponseSchema);
const COLUMNS = ["createdDate", "chatId", "name", "email", "phone"] as const;

/** Leads as CSV (the same quoting and formula defusing as the messages' export). */
export function leadsToCsv(leads: LeadRecord[]): string {
  const lines = [COLUMNS.join(","), ...leads.map((l) => COLUMNS.map((c) => csvField(l[c])).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}

/** Contact details visitors left in the widget's lead form (Flowise's lead capture), with a CSV export. */
export function LeadsCard({ chatflowId }: { chatflowId: string }) {
  const leads = useQuery({
    queryKey: ["leads", chatflowId],
    queryFn: () => api(`/api/v1/leads/${chatflowId}`, { schema: leadListSchema }),
  });
  if (leads.error) return <ErrorNote error={leads.error} />;
  if (!leads.data?.length) return null;
  const exportCsv = () => {
    const url = URL.createObjectURL(new Blob([leadsToCsv(leads.data ?? [])], { type: "text/csv" }));
    Object.assign(document.createElement("a"), { href: url, download: `leads-${chatflowId}.csv` }).click();
    URL.revokeObjectURL(url);
  };
  return (
    <Card className="mt-6 p-4">
      <div className="mb-3 flex items-center justify-between">
        <h2 className="text-sm font-semibold">Leads ({leads.data.length})</h2>
        <Button type="button" variant="secondary" onClick={exportCsv}>
          Export leads as CSV
        </Button>
      </div>
      <table aria-label="Leads" className="w-full text-left text-sm">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="py-1">When</th>
            <th>Name</th>
            <th>E-mail</th>
            <th>Phone</th>
            <th>Chat</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {leads.data.map((l) => (
            <tr key={l.id}>
              <td className="py-1">{new Date(l.createdDate).toLocaleString()}</td>
              <td>{l.name}</td>
              <td>{l.email}</td>
              <td>{l.phone}</td>
              <td>
                <code className="text-xs">{l.chatId}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
