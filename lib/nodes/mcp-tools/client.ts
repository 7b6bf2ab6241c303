import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "@/common/errors";
import { linkedDeadline } from "../../security/deadline";

/**
 * One exchange with a remote MCP server through the official SDK client: Streamable HTTP first, the
 * older SSE transport when the server does not speak it; every request through the given (guarded)
 * fetch, the whole exchange under one time limit, and the client closed at the end. Failures name
 * the server: too slow 504, down or answering garbage 502, a guard refusal as the guard said (403).
 */

export interface McpServerTarget {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The guarded fetch pinned to the server's host (streamed answers). */
  fetch: typeof fetch;
  /** Who asks, for messages: the node's label. */
  label: string;
}

/** The AppError somewhere in an error's causes (the guard's refusal inside the SDK's wrapping). */
function appErrorIn(e: unknown): AppError | undefined {
  for (let cur = e, depth = 0; cur && depth < 5; depth++) {
    if (cur instanceof AppError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 300);

function failure(target: McpServerTarget, e: unknown, expired: boolean): AppError {
  const server = `${target.label}: the MCP server ${target.url.origin}${target.url.pathname}`;
  if (expired)
    return new AppError("upstream_timeout", `${server} did not answer within ${target.timeoutMs / 1000} s.`, {
      cause: e,
    });
  const guard = appErrorIn(e);
  if (guard?.code === "forbidden" || guard?.code === "upstream_timeout") return guard;
  return new AppError("upstream_error", `${server} failed: ${messageOf(e)}`, { cause: e });
}

async function connect(target: McpServerTarget, signal: AbortSignal): Promise<Client> {
  const options = { requestInit: { headers: target.headers }, fetch: target.fetch };
  const client = new Client({ name: "switchyard", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(target.url, options), { signal, timeout: target.timeoutMs });
    return client;
  } catch (first) {
    await client.close().catch(() => {});
    if (signal.aborted || appErrorIn(first)?.code === "forbidden") throw first;
    // A server of the older protocol answers the Streamable HTTP POST with an error: try its SSE transport.
    const legacy = new Client({ name: "switchyard", version: "1.0.0" });
    try {
      await legacy.connect(new SSEClientTransport(target.url, options), { signal, timeout: target.timeoutMs });
      return legacy;
    } catch (second) {
      await legacy.close().catch(() => {});
      throw new Error(`${messageOf(first)} (and over SSE: ${messageOf(second)})`, { cause: first });
    }
  }
}

/** Connects, runs `work` with the client and closes it, all within the target's time limit. */
export async function withMcpClient<T>(
  target: McpServerTarget,
  work: (client: Client, signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  const deadline = linkedDeadline(outer, target.timeoutMs);
  const { signal } = deadline;
  let client: Client | undefined;
  // The SDK honours the signal on its requests; the race makes sure nothing outlives the limit.
  const stopped = new Promise<never>((_, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
  stopped.catch(() => {});
  try {
    return await Promise.race([
      (async () => {
        client = await connect(target, signal);
        return work(client, signal);
      })(),
      stopped,
    ]);
  } catch (e) {
    if (outer?.aborted) throw e;
    throw failure(target, e, deadline.expired());
  } finally {
    deadline.release();
    await client?.close().catch(() => {});
  }
}

/** The server's tools (every page of the list). */
export async function listMcpTools(target: McpServerTarget): Promise<McpTool[]> {
  return withMcpClient(target, async (client, signal) => {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: target.timeoutMs });
      tools.push(...res.tools);
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return tools;
  });
}

/** A tool result as the text the agent reads; a result marked isError is thrown (the agent sees "Tool error: …"). */
export function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((c) => {
    if (c.type === "text") return c.text;
    if (c.type === "resource" && "text" in c.resource) return String(c.resource.text);
    return `[${c.type}]`;
  });
  if (parts.length === 0 && result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join("\n");
  if (result.isError) throw new Error(text || "the tool reported an error");
  return text;
}

/** Calls one tool of the server. */
export function callMcpTool(target: McpServerTarget, name: string, args: Record<string, unknown>, outer?: AbortSignal) {
  return withMcpClient(
    target,
    async (client, signal) =>
      resultText(
        (await client.callTool({ name, arguments: args }, undefined, {
          signal,
          timeout: target.timeoutMs,
        })) as CallToolResult,
      ),
    outer,
  );
}
