import { z } from "zod";
import { type ToolRequest, toolRequestSchema } from "@/common/schemas/prediction-stream";

const requestsSchema = z.array(toolRequestSchema);

/** A tool call's requests from stored or streamed JSON: [] when it has none (or they are unreadable). */
export function readToolRequests(value: unknown): ToolRequest[] {
  const parsed = requestsSchema.safeParse(value);
  return parsed.success ? parsed.data : [];
}

const outcome = (r: ToolRequest) => (r.status !== undefined ? String(r.status) : `failed: ${r.error ?? "no answer"}`);
const failed = (r: ToolRequest) => r.status === undefined || r.status >= 400;

/**
 * The HTTP requests a tool call made (request-trace.ts on the server): method, URL without secrets,
 * status or failure, time. Nothing when it made none.
 */
export function ToolRequests({ requests }: { requests: ToolRequest[] }) {
  if (!requests.length) return null;
  return (
    <div>
      <p className="font-semibold text-slate-600">Requests</p>
      <ol className="mt-0.5 space-y-0.5" aria-label="Requests" data-testid="tool-requests">
        {requests.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a call's requests are a finished, ordered list
          <li key={i} className="flex min-w-0 items-baseline gap-1.5 font-mono text-[11px]">
            <span className="font-semibold text-slate-700">{r.method}</span>
            <span className="min-w-0 flex-1 break-all text-slate-700">{r.url}</span>
            <span className={`whitespace-nowrap ${failed(r) ? "text-red-700" : "text-emerald-700"}`}>
              {outcome(r)} · {r.ms} ms
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
