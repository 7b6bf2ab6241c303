/**
 * Replicate's HTTP API on 127.0.0.1 for tests, written from Replicate's API reference: predictions
 * created for a model (`POST /v1/models/{owner}/{name}/predictions`) or a version (`POST
 * /v1/predictions`), honouring `Prefer: wait` (the finished prediction in the answer), read back with
 * `GET /v1/predictions/{id}`, the account (`GET /v1/account`), Bearer tokens, and errors as Replicate
 * words them (`{title, detail, status}`, 429 with Retry-After). An image model's output is a list of
 * file URLs on this server, served as PNG bytes.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface StubPrediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  status: "starting" | "processing" | "succeeded" | "failed" | "canceled";
  output: string[] | null;
  error: string | null;
  /** GETs still to answer "processing" before it succeeds. */
  pollsLeft: number;
}

export interface ReplicateStubOptions {
  token: string;
  /** How many GETs a prediction stays "processing" after a create that did not wait it out (default 0). */
  polls?: number;
  /** Images per prediction (default 1). */
  images?: number;
}

export interface ReplicateStub {
  url: string;
  host: string;
  predictions: Map<string, StubPrediction>;
  requests: { method: string; path: string; authorization?: string; prefer?: string; body?: unknown }[];
  /** The next create answers this status (e.g. 429, 422) instead of a prediction. */
  failNext(status: number, detail: string, retryAfter?: string): void;
  /** Predictions made from now on do not finish within the wait, and need `polls` GETs. */
  setPolls(polls: number): void;
  close(): Promise<void>;
}

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

export async function createReplicateStub(opts: ReplicateStubOptions): Promise<ReplicateStub> {
  const predictions = new Map<string, StubPrediction>();
  const requests: ReplicateStub["requests"] = [];
  let polls = opts.polls ?? 0;
  let failure: { status: number; detail: string; retryAfter?: string } | undefined;
  let origin = "";

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };
  const problem = (res: http.ServerResponse, status: number, title: string, detail: string, headers = {}) =>
    json(res, status, { title, detail, status }, headers);
  const view = (p: StubPrediction) => ({
    id: p.id,
    model: p.model,
    version: p.version,
    input: p.input,
    status: p.status,
    output: p.output,
    error: p.error,
    logs: "",
    created_at: new Date(0).toISOString(),
    urls: { get: `${origin}/v1/predictions/${p.id}`, cancel: `${origin}/v1/predictions/${p.id}/cancel` },
  });
  const finish = (p: StubPrediction) => {
    p.status = "succeeded";
    p.output = Array.from({ length: opts.images ?? 1 }, (_, i) => `${origin}/files/${p.id}/out-${i}.png`);
  };

  const server = http.createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const raw = Buffer.concat(parts).toString("utf8");
    const url = new URL(req.url ?? "/", "http://stub");
    const path = url.pathname;
    const method = req.method ?? "GET";
    if (method === "GET" && path.startsWith("/files/")) {
      res.writeHead(200, { "content-type": "image/png", "content-length": PNG.length });
      res.end(PNG);
      return;
    }
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return problem(res, 400, "Invalid JSON", "The request body is not JSON.");
    }
    requests.push({
      method,
      path,
      authorization: req.headers.authorization,
      prefer: req.headers.prefer as string | undefined,
      body,
    });
    if (req.headers.authorization !== `Bearer ${opts.token}`)
      return problem(res, 401, "Unauthenticated", "You did not pass a valid authentication token");
    if (method === "GET" && path === "/v1/account")
      return json(res, 200, { type: "user", username: "stub", name: "Stub", github_url: null });
    const byModel = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (method === "POST" && (byModel || path === "/v1/predictions")) {
      if (failure) {
        const f = failure;
        failure = undefined;
        return problem(res, f.status, f.status === 429 ? "Too Many Requests" : "Invalid input", f.detail, {
          ...(f.retryAfter ? { "retry-after": f.retryAfter } : {}),
        });
      }
      const b = (body ?? {}) as { input?: unknown; version?: unknown };
      if (!b.input || typeof b.input !== "object")
        return problem(res, 422, "Input validation failed", "input: input is required");
      if (!byModel && typeof b.version !== "string")
        return problem(res, 422, "Input validation failed", "version: version is required");
      const p: StubPrediction = {
        id: randomBytes(10).toString("hex"),
        model: byModel ? `${byModel[1]}/${byModel[2]}` : "unknown/pinned",
        version: typeof b.version === "string" ? b.version : "latest",
        input: b.input as Record<string, unknown>,
        status: "starting",
        output: null,
        error: null,
        pollsLeft: polls,
      };
      predictions.set(p.id, p);
      const waits = /^wait(=\d+)?$/.test(String(req.headers.prefer ?? "").trim());
      if (waits && p.pollsLeft === 0) finish(p);
      return json(res, 201, view(p));
    }
    const get = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    if (method === "GET" && get) {
      const p = predictions.get(get[1]);
      if (!p) return problem(res, 404, "Not found", "The requested resource could not be found.");
      if (p.status === "starting" || p.status === "processing") {
        if (p.pollsLeft > 0) {
          p.pollsLeft -= 1;
          p.status = "processing";
        } else finish(p);
      }
      return json(res, 200, view(p));
    }
    return problem(res, 404, "Not found", "The requested resource could not be found.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    host: `127.0.0.1:${port}`,
    predictions,
    requests,
    failNext: (status, detail, retryAfter) => {
      failure = { status, detail, retryAfter };
    },
    setPolls: (n) => {
      polls = n;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
