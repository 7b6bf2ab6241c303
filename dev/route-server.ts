import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteTable = { method: string; pattern: RegExp; handler: Handler }[];

/**
 * Serves real route handlers over real HTTP on 127.0.0.1, for clients that need a socket
 * (flowise-sdk, streaming readers, disconnect tests). Named groups of a pattern become params.
 */
export async function serveRoutes(routes: RouteTable) {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = routes
      .map((r) => ({ r, m: req.method === r.method ? r.pattern.exec(url.pathname) : null }))
      .find((x) => x.m);
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      signal: abort.signal,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
    await sendResponse(res, await match.r.handler(request, { params: Promise.resolve({ ...match.m!.groups }) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Writes a fetch Response to a node response, streaming its body (no body for HEAD); stops reading when the client goes. */
export async function sendResponse(res: http.ServerResponse, response: Response, head = false) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body || head) return void res.end();
  const reader = response.body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
}

/** Reads an SSE body into its `data:` events. */
export function parseSse(text: string): { event: string; data: unknown }[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => JSON.parse(l.slice(5)));
}
