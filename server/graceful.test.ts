import type http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SHUTDOWN_GRACE_MS, graceFromEnv, gracefulShutdown } from "./graceful.mjs";
import { createAppServer } from "./request-guard.mjs";

// A real http server (the one `npm start` builds) around a handler that streams server-sent events:
// the first event at once, the rest only after the test releases the gate (then a few ms apart).

type Harness = {
  server: http.Server;
  port: number;
  release: () => void;
  appCalls: string[];
  exits: number[];
  control: ReturnType<typeof gracefulShutdown>;
};

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(() => r(null)));
  }
});

async function harness(graceMs = 10_000): Promise<Harness> {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const appCalls: string[] = [];
  const server = createAppServer(async (req, res) => {
    appCalls.push(req.url ?? "");
    if (req.url === "/stream") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: token-1\n\n");
      await gate;
      for (let i = 2; i <= 5; i++) {
        await new Promise((r) => setTimeout(r, 10));
        res.write(`data: token-${i}\n\n`);
      }
      res.end("data: [DONE]\n\n");
      return;
    }
    if (req.url === "/forever") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: token-1\n\n");
      return; // never ends
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("ok");
  });
  servers.push(server);
  const exits: number[] = [];
  const control = gracefulShutdown(server, { graceMs, exit: (code) => exits.push(code), signals: [], log: () => {} });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  return { server, port, release, appCalls, exits, control };
}

/** A raw connection that collects everything the server sends until it closes. */
function rawConnection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
    for (const w of waiters.splice(0)) {
      if (received.includes(w.text)) w.resolve();
      else waiters.push(w);
    }
  });
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  socket.on("error", () => {});
  return {
    socket,
    closed,
    send: (text: string) => socket.write(text),
    waitFor: (text: string) =>
      new Promise<void>((resolve) => {
        if (received.includes(text)) resolve();
        else waiters.push({ text, resolve });
      }),
  };
}

const connectionRefused = (port: number) =>
  new Promise<string>((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.on("connect", () => {
      s.destroy();
      resolve("connected");
    });
    s.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "error"));
  });

const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`;

describe("graceful shutdown (server/graceful.mjs, used by server/start.mjs)", () => {
  it("refuses new connections at once, lets an open SSE stream finish intact, then exits 0", async () => {
    const h = await harness();
    const conn = rawConnection(h.port);
    conn.send(request("/stream"));
    await conn.waitFor("token-1");
    expect(h.control.inFlight()).toBe(1);

    h.control.onSignal("SIGTERM");
    expect(await connectionRefused(h.port)).toBe("ECONNREFUSED");
    expect(h.exits).toEqual([]); // the stream is still open

    h.release();
    const text = await conn.closed; // the server closes the connection after the stream's end
    const events = [...text.matchAll(/data: (\S+)/g)].map((m) => m[1]);
    expect(events).toEqual(["token-1", "token-2", "token-3", "token-4", "token-5", "[DONE]"]);
    expect(text.startsWith("HTTP/1.1 200")).toBe(true);
    await waitUntil(() => h.exits.length > 0);
    expect(h.exits).toEqual([0]);
  });

  it("answers a request arriving on a kept-alive connection during shutdown 503 shutting_down, Connection: close", async () => {
    const h = await harness();
    const conn = rawConnection(h.port);
    conn.send(request("/stream"));
    await conn.waitFor("token-1");
    h.control.onSignal("SIGTERM");
    conn.send(request("/after")); // pipelined behind the stream, on the same connection
    h.release();
    const text = await conn.closed;
    const second = text.slice(text.indexOf("HTTP/1.1", text.indexOf("[DONE]")));
    expect(second).toMatch(/HTTP\/1\.1 503/);
    expect(second.toLowerCase()).toContain("connection: close");
    const body = JSON.parse(second.slice(second.indexOf("\r\n\r\n") + 4));
    expect(body.error.code).toBe("shutting_down");
    expect(h.appCalls).toEqual(["/stream"]); // the app never saw the late request
    await waitUntil(() => h.exits.length > 0);
    expect(h.exits).toEqual([0]);
  });

  it("closes idle keep-alive connections at once and exits 0 when nothing is open", async () => {
    const h = await harness();
    const conn = rawConnection(h.port);
    conn.send(request("/plain"));
    await conn.waitFor("ok");
    h.control.onSignal("SIGTERM");
    await conn.closed;
    await waitUntil(() => h.exits.length > 0);
    expect(h.exits).toEqual([0]);
  });

  it("closes what is still open when the grace period runs out, and exits 1", async () => {
    const h = await harness(200);
    const conn = rawConnection(h.port);
    conn.send(request("/forever"));
    await conn.waitFor("token-1");
    h.control.onSignal("SIGTERM");
    const text = await conn.closed;
    expect(text).not.toContain("[DONE]");
    await waitUntil(() => h.exits.length > 0);
    expect(h.exits).toEqual([1]);
  });

  it("exits at once on a second signal", async () => {
    const h = await harness();
    const conn = rawConnection(h.port);
    conn.send(request("/forever"));
    await conn.waitFor("token-1");
    h.control.onSignal("SIGTERM");
    expect(h.exits).toEqual([]);
    h.control.onSignal("SIGINT");
    expect(h.exits).toEqual([1]);
    conn.socket.destroy();
  });

  it("reads SHUTDOWN_GRACE_MS, falling back to the default on nonsense", () => {
    expect(graceFromEnv(undefined)).toBe(DEFAULT_SHUTDOWN_GRACE_MS);
    expect(graceFromEnv("")).toBe(DEFAULT_SHUTDOWN_GRACE_MS);
    expect(graceFromEnv("abc")).toBe(DEFAULT_SHUTDOWN_GRACE_MS);
    expect(graceFromEnv("-5")).toBe(DEFAULT_SHUTDOWN_GRACE_MS);
    expect(graceFromEnv("1500")).toBe(1500);
    expect(graceFromEnv("0")).toBe(0);
  });
});

async function waitUntil(predicate: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("graceful shutdown of a real process (SIGTERM)", () => {
  it("keeps streaming after SIGTERM, refuses new connections, and the process exits 0 after the stream", async () => {
    const { spawnReady } = await import("../dev/processes");
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-graceful-"));
    const file = path.join(dir, "server.mjs");
    const here = path.resolve(import.meta.dirname);
    // The stream's remaining tokens are sent only once SIGTERM has arrived.
    fs.writeFileSync(
      file,
      `import { gracefulShutdown } from ${JSON.stringify(path.join(here, "graceful.mjs"))};
import { createAppServer } from ${JSON.stringify(path.join(here, "request-guard.mjs"))};
let onTerm = () => {};
process.on("SIGTERM", () => setTimeout(() => onTerm(), 0));
const server = createAppServer(async (req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write("data: token-1\\n\\n");
  await new Promise((r) => { onTerm = r; });
  for (let i = 2; i <= 5; i++) { await new Promise((r) => setTimeout(r, 20)); res.write("data: token-" + i + "\\n\\n"); }
  res.end("data: [DONE]\\n\\n");
  console.log("stream ended");
});
gracefulShutdown(server, { graceMs: 10000 });
process.on("exit", (code) => console.log("exit " + code));
server.listen(0, "127.0.0.1", () => console.log("listening " + server.address().port));
`,
    );
    try {
      const proc = await spawnReady({
        command: process.execPath,
        args: [file],
        ready: { line: (l) => l.startsWith("listening ") },
      });
      const port = Number(/listening (\d+)/.exec(proc.output())?.[1]);
      const conn = rawConnection(port);
      conn.send(request("/stream"));
      await conn.waitFor("token-1");
      void proc.stop("SIGTERM");
      await waitUntil(() => proc.output().includes("SIGTERM: no new connections"));
      expect(await connectionRefused(port)).toBe("ECONNREFUSED");
      const text = await conn.closed;
      expect([...text.matchAll(/data: (\S+)/g)].map((m) => m[1])).toEqual([
        "token-1",
        "token-2",
        "token-3",
        "token-4",
        "token-5",
        "[DONE]",
      ]);
      expect(await proc.exited).toEqual({ code: 0, signal: null });
      const out = proc.output();
      expect(out.indexOf("stream ended")).toBeGreaterThan(-1);
      expect(out.indexOf("exit 0")).toBeGreaterThan(out.indexOf("stream ended"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
