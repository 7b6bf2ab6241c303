import type http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BODY_GUARD_DEFAULTS, bodyGuardSettings } from "./body-guard.mjs";

type BodyGuardSettings = typeof BODY_GUARD_DEFAULTS;
import { createAppServer } from "./request-guard.mjs";

// The body guard of `npm start`'s server (server/body-guard.mjs through createAppServer), on a real
// server and raw sockets: what a slow, stalled or oversized sender gets. e2e/request-bodies.spec.ts
// checks the same through the built app.

const servers: http.Server[] = [];
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

/** A handler that reads the whole body and answers its length. */
const readsBody: Handler = (req, res) => {
  let n = 0;
  req.on("data", (c: Buffer) => (n += c.length));
  req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end(`got ${n}`));
};

async function serve(handler: Handler, bodies: Partial<BodyGuardSettings> = {}): Promise<number> {
  const server = createAppServer(handler, null, { bodies: { ...BODY_GUARD_DEFAULTS, ...bodies } });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as net.AddressInfo).port;
}

/** A raw connection: what it received so far, the connection's end, and a wait for a text to arrive. */
function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  sockets.push(socket);
  let received = "";
  socket.on("data", (d) => (received += d.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<void>((r) => socket.once("close", () => r()));
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!received.includes(text)) return;
        socket.off("data", check);
        resolve();
      };
      socket.on("data", check);
      socket.once("close", () => (received.includes(text) ? resolve() : reject(new Error(`closed without "${text}"`))));
      check();
    });
  return { socket, received: () => received, closed, waitFor };
}

const head = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
const errorOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)).error;

describe("body guard settings", () => {
  it("defaults, reads each variable, and names the one that is wrong", () => {
    expect(bodyGuardSettings({})).toEqual(BODY_GUARD_DEFAULTS);
    expect(
      bodyGuardSettings({
        HEADERS_TIMEOUT_MS: "5000",
        REQUEST_TIMEOUT_MS: "60000",
        BODY_IDLE_TIMEOUT_MS: "2000",
        MAX_PENDING_ANONYMOUS_BODIES: "8",
      }),
    ).toEqual({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 60000,
      bodyIdleTimeoutMs: 2000,
      maxPendingAnonymousBodies: 8,
    });
    expect(() => bodyGuardSettings({ BODY_IDLE_TIMEOUT_MS: "soon" })).toThrow(/BODY_IDLE_TIMEOUT_MS/);
    expect(() => bodyGuardSettings({ MAX_PENDING_ANONYMOUS_BODIES: "0" })).toThrow(/MAX_PENDING_ANONYMOUS_BODIES/);
    expect(() => bodyGuardSettings({ HEADERS_TIMEOUT_MS: "9000", REQUEST_TIMEOUT_MS: "5000" })).toThrow(
      /HEADERS_TIMEOUT_MS/,
    );
  });
});

describe("bodies on npm start's server", () => {
  it("answers 408 when a body stops arriving while the route waits for it, and closes the connection", async () => {
    const port = await serve(readsBody, { bodyIdleTimeoutMs: 300 });
    const c = connect(port);
    c.socket.write(`${head("/api/v1/x", { "content-type": "application/json", "content-length": 100 })}{"a":`);
    await c.closed;
    expect(statusOf(c.received())).toBe(408);
    expect(errorOf(c.received()).code).toBe("request_timeout");
    expect(c.received()).toMatch(/connection: close/i);
  });

  it("lets a slow body that keeps arriving finish, and does not blame the sender while the route has not read", async () => {
    const port = await serve(readsBody, { bodyIdleTimeoutMs: 300 });
    const c = connect(port);
    c.socket.write(head("/api/v1/x", { "content-length": 8 }));
    for (let i = 0; i < 8; i++) {
      c.socket.write("a");
      await new Promise((r) => setTimeout(r, 100)); // the sender's pace: each byte well inside the idle limit
    }
    await c.waitFor("got 8");
    expect(statusOf(c.received())).toBe(200);

    // The route waits 600 ms (twice the idle limit) before reading: what arrived waits unread, so the
    // sender is not the slow one.
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const port2 = await serve(
      async (req, res) => {
        await gate;
        readsBody(req, res);
      },
      { bodyIdleTimeoutMs: 300 },
    );
    const d = connect(port2);
    d.socket.write(`${head("/api/v1/x", { "content-length": 4 })}ab`);
    setTimeout(release, 600);
    await gate;
    d.socket.write("cd");
    await d.waitFor("got 4");
    expect(statusOf(d.received())).toBe(200);
  });

  it("caps bodies arriving at once from callers without credentials (503), not those that present some", async () => {
    // The route tells when each request reached it (after the guard admitted it).
    let arrived = 0;
    let onArrival = () => {};
    const port = await serve(
      (req, res) => {
        arrived++;
        onArrival();
        readsBody(req, res);
      },
      { maxPendingAnonymousBodies: 3, bodyIdleTimeoutMs: 60_000 },
    );
    const allArrived = new Promise<void>((r) => (onArrival = () => arrived === 3 && r()));
    const slow = [0, 1, 2].map(() => connect(port));
    for (const c of slow) c.socket.write(`${head("/api/v1/x", { "content-length": 10 })}a`);
    await allArrived;
    // The fourth without credentials is refused at once…
    const fourth = connect(port);
    fourth.socket.write(`${head("/api/v1/x", { "content-length": 10 })}a`);
    await fourth.closed;
    expect(statusOf(fourth.received())).toBe(503);
    expect(errorOf(fourth.received()).code).toBe("server_busy");
    expect(fourth.received()).toMatch(/retry-after: 5/i);
    // …one with an Authorization header or a session cookie is not counted…
    const withCredentials: Record<string, string>[] = [
      { authorization: "Bearer sy_x" },
      { cookie: "next-auth.session-token=abc" },
    ];
    for (const credentials of withCredentials) {
      const c = connect(port);
      c.socket.write(`${head("/api/v1/x", { "content-length": 3, ...credentials })}abc`);
      await c.waitFor("got 3");
    }
    // …and a finished slow body makes room for another.
    slow[0].socket.write("bcdefghij");
    await slow[0].waitFor("got 10");
    const next = connect(port);
    next.socket.write(`${head("/api/v1/x", { "content-length": 2 })}ab`);
    await next.waitFor("got 2");
  });

  it("closes the connection of a request answered before its body arrived, instead of reading the rest", async () => {
    const port = await serve((_req, res) => res.writeHead(401, { "content-type": "application/json" }).end("{}"));
    const c = connect(port);
    c.socket.write(`${head("/api/v1/x", { "content-length": 500 * 1024 * 1024 })}${"a".repeat(1000)}`);
    await c.closed;
    expect(statusOf(c.received())).toBe(401);
    expect(c.received()).toMatch(/connection: close/i);
  });

  it("refuses a body over 1 MiB on a path outside the API (413), before the app sees it", async () => {
    let reached = 0;
    const port = await serve((_req, res) => {
      reached++;
      res.end("page");
    });
    const c = connect(port);
    c.socket.write(head("/chatflows", { "content-length": 2 * 1024 * 1024 }));
    await c.closed;
    expect(statusOf(c.received())).toBe(413);
    expect(errorOf(c.received()).code).toBe("payload_too_large");
    expect(reached).toBe(0);
  });

  it("answers 408 for headers that take too long to arrive", async () => {
    const port = await serve(readsBody, { headersTimeoutMs: 1_000 });
    const c = connect(port);
    c.socket.write("POST /api/v1/x HTTP/1.1\r\nhost: 127.0.0.1\r\n");
    await c.closed;
    expect(statusOf(c.received())).toBe(408);
  });

  it("gives API answers their security headers and drops an API path's trailing slash (not a page's)", async () => {
    const seen: string[] = [];
    const port = await serve((req, res) => {
      seen.push(req.url ?? "");
      res.end("ok");
    });
    const api = await fetch(`http://127.0.0.1:${port}/api/v1/leads/?x=1`, { method: "POST", body: "{}" });
    expect(api.headers.get("x-frame-options")).toBe("DENY");
    expect(api.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    const page = await fetch(`http://127.0.0.1:${port}/chatflows/`);
    expect(page.headers.get("content-security-policy")).toBeNull();
    expect(seen).toEqual(["/api/v1/leads?x=1", "/chatflows/"]);
  });
});
