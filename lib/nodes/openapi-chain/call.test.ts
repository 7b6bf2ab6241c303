import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { createGuardedRequest, requestOverFetch } from "../../security/outbound";
import { callOperation, type OperationCall } from "./call";

// The one request of an OpenAPI chain run, against a real server: its time limit covers the answer's
// body, a caller's abort is the caller's, and a finished call leaves nothing armed behind it.

let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/products") return res.end('{"items":[]}');
    if (req.url === "/hang") return; // never answers
    res.writeHead(200).write("partial"); // a body that never ends
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// Both ways a chain sends: the guard's own answer (what flows use) and a plain fetch (contexts without it).
const transports = [
  ["the guard's request", () => createGuardedRequest({ allowPrivate: true, timeoutMs: 5_000 })],
  ["a fetch", () => requestOverFetch(fetch)],
] as const;
let transport: (typeof transports)[number][1] = transports[0][1];

const call = (path: string, extra: Partial<OperationCall> = {}): OperationCall => ({
  send: transport(),
  serverUrl: origin,
  apiTitle: "Shop",
  op: { toolName: "op", operationId: "op", method: "GET", path, description: "", params: [] },
  args: {},
  headers: {},
  timeoutMs: 200,
  ...extra,
});
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe.each(transports)("callOperation through %s", (_name, make) => {
  beforeAll(() => {
    transport = make;
  });

  it("answers the body of a 2xx answer", async () => {
    expect(await callOperation(call("/products"))).toBe('{"items":[]}');
  });

  it("times out a server that never answers, and a body that never ends", async () => {
    const silent = await failure(callOperation(call("/hang")));
    expect(silent).toBeInstanceOf(AppError);
    expect((silent as AppError).code).toBe("upstream_timeout");
    expect((silent as AppError).message).toMatch(/did not answer within 0.2 s/);
    const endless = await failure(callOperation(call("/endless")));
    expect((endless as AppError).code).toBe("upstream_timeout");
    expect((endless as AppError).message).toMatch(/did not finish its answer in time/);
  });

  it("a caller's abort is not reported as a timeout", async () => {
    const caller = new AbortController();
    const reason = new Error("the client went away");
    setTimeout(() => caller.abort(reason), 30);
    const err = await failure(callOperation(call("/hang", { signal: caller.signal, timeoutMs: 5_000 })));
    expect(err).toBe(reason);
  });

  it("a finished call leaves its caller's signal without listeners", async () => {
    const caller = new AbortController();
    let added = 0;
    let removed = 0;
    const add = caller.signal.addEventListener.bind(caller.signal);
    const remove = caller.signal.removeEventListener.bind(caller.signal);
    caller.signal.addEventListener = (...args: Parameters<AbortSignal["addEventListener"]>) => {
      added += 1;
      add(...args);
    };
    caller.signal.removeEventListener = (...args: Parameters<AbortSignal["removeEventListener"]>) => {
      removed += 1;
      remove(...args);
    };
    await callOperation(call("/products", { signal: caller.signal }));
    expect(added).toBeGreaterThan(0);
    expect(removed).toBe(added);
  });
});
