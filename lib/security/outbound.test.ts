import { getEventListeners } from "node:events";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { createGuardedFetch, createGuardedRequest, isPrivateAddress } from "./outbound";
import { LEFT_BODY_MS } from "./outbound-body";

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
interface TestServer {
  origin: string;
  port: number;
  seen: Seen[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

async function startServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res);
    });
  });
  let connections = 0;
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

let api: TestServer;
let other: TestServer;
/** Called when the client closes the connection of /sse-forever. */
let foreverClosed = () => {};
beforeAll(async () => {
  other = await startServer((req, res) => res.end(`other saw auth=${req.headers.authorization ?? "none"}`));
  api = await startServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/ok")
      return res.end(`ok ${req.method} host=${req.headers.host} body=${req.headers["content-type"] ?? ""}`);
    if (url.pathname === "/to-other") return res.writeHead(302, { location: `http://localhost:${other.port}/` }).end();
    if (url.pathname === "/to-listed-other") return res.writeHead(307, { location: `${other.origin}/` }).end();
    if (url.pathname === "/to-metadata")
      return res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (url.pathname === "/see-other") return res.writeHead(303, { location: "/ok" }).end();
    if (url.pathname === "/loop") return res.writeHead(302, { location: "/loop" }).end();
    if (url.pathname === "/big") return res.end("x".repeat(5000));
    if (url.pathname === "/big-chunked") {
      for (let i = 0; i < 10; i += 1) res.write("y".repeat(500));
      return res.end();
    }
    if (url.pathname === "/gzip")
      return res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync("hello gzip"));
    if (url.pathname === "/bomb")
      return res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync(Buffer.alloc(200_000)));
    if (url.pathname === "/hang") return; // never answers
    if (url.pathname === "/slow-body") return res.writeHead(200).write("partial");
    if (url.pathname === "/sse-done") {
      // A model's stream: the last event, then (in a write of its own) the chunked body's end.
      res.writeHead(200, { "content-type": "text/event-stream" }).write("data: [DONE]\n\n");
      return setImmediate(() => res.end());
    }
    if (url.pathname === "/sse-forever") {
      res.writeHead(200, { "content-type": "text/event-stream" }).write("data: first\n\n");
      const more = setInterval(() => res.write(`data: ${"z".repeat(8000)}\n\n`), 2);
      res.once("close", () => {
        clearInterval(more);
        foreverClosed();
      });
      return;
    }
    if (url.pathname === "/cut") {
      res.writeHead(200, { "content-length": "100" }).write("only part");
      return setTimeout(() => res.destroy(), 20);
    }
    res.writeHead(404).end();
  });
});
afterAll(() => Promise.all([api.close(), other.close()]));

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "64:ff9b::a00:1",
    "2002:c0a8:101::1",
    "not-an-ip",
  ])("%s is private", (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1"])(
    "%s is public",
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );
});

describe("createGuardedFetch", () => {
  it("refuses private hosts by default with a forbidden error naming the host, without connecting", async () => {
    const before = api.seen.length;
    const guarded = createGuardedFetch();
    const byIp = await rejection(guarded(`${api.origin}/ok`));
    expect(byIp.code).toBe("forbidden");
    expect(byIp.message).toMatch(/host "127\.0\.0\.1" resolves to a private or internal address/);
    const byName = await rejection(guarded(`http://localhost:${api.port}/ok`));
    expect(byName.message).toMatch(/host "localhost"/);
    expect(api.seen.length).toBe(before);
  });

  it("calls a private host the builder listed (host:port or allowPrivate), and only that one", async () => {
    const res = await createGuardedFetch({ allowPrivateHosts: [`127.0.0.1:${api.port}`] })(`${api.origin}/ok`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`ok GET host=127.0.0.1:${api.port} body=`);
    const wrongPort = createGuardedFetch({ allowPrivateHosts: [`127.0.0.1:${other.port}`] });
    expect((await rejection(wrongPort(`${api.origin}/ok`))).code).toBe("forbidden");
    expect((await createGuardedFetch({ allowPrivate: true })(`${api.origin}/ok`)).status).toBe(200);
  });

  it("connects to the checked address while keeping the Host header of the URL", async () => {
    const resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    const guarded = createGuardedFetch({ allowPrivateHosts: ["shop.example"], resolve });
    const res = await guarded(`http://shop.example:${api.port}/ok`, {
      method: "POST",
      body: JSON.stringify({ a: 1 }),
      headers: { "content-type": "application/json" },
    });
    expect(await res.text()).toBe(`ok POST host=shop.example:${api.port} body=application/json`);
    expect(api.seen.at(-1)?.body).toBe('{"a":1}');
  });

  it("refuses a host when any of its addresses is private", async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.5", family: 4 },
    ];
    const err = await rejection(createGuardedFetch({ resolve })("http://rebind.example/"));
    expect(err.message).toMatch(/rebind\.example.*10\.0\.0\.5/);
  });

  it("re-checks every redirect hop", async () => {
    const guarded = createGuardedFetch({ allowPrivateHosts: [`127.0.0.1:${api.port}`] });
    const toLocalhost = await rejection(guarded(`${api.origin}/to-other`));
    expect(toLocalhost.code).toBe("forbidden");
    expect(toLocalhost.message).toMatch(/localhost/);
    expect(other.seen.length).toBe(0);
    expect((await rejection(guarded(`${api.origin}/to-metadata`))).message).toMatch(/169\.254\.169\.254/);
    const loop = await rejection(guarded(`${api.origin}/loop`));
    expect(loop.code).toBe("upstream_error");
    expect(loop.message).toMatch(/redirected more than 3 times/);
  });

  it("follows allowed redirects: 303 becomes GET, credentials are dropped across origins", async () => {
    const guarded = createGuardedFetch({ allowPrivateHosts: [`127.0.0.1:${api.port}`, `127.0.0.1:${other.port}`] });
    const seeOther = await guarded(`${api.origin}/see-other`, { method: "POST", body: "x" });
    expect(await seeOther.text()).toBe(`ok GET host=127.0.0.1:${api.port} body=`);
    expect(seeOther.url).toBe(`${api.origin}/ok`);
    const cross = await guarded(`${api.origin}/to-listed-other`, { headers: { authorization: "Bearer secret" } });
    expect(await cross.text()).toBe("other saw auth=none");
    const manual = await guarded(`${api.origin}/loop`, { redirect: "manual" });
    expect(manual.status).toBe(302);
  });

  it("refuses response bodies over the cap, decoded size included", async () => {
    const guarded = createGuardedFetch({ allowPrivate: true, maxResponseBytes: 1000 });
    for (const path of ["/big", "/big-chunked", "/bomb"]) {
      const err = await rejection(guarded(`${api.origin}${path}`));
      expect(err.code).toBe("upstream_error");
      expect(err.message).toMatch(/larger than the 1000-byte limit/);
    }
    expect(await (await guarded(`${api.origin}/gzip`)).text()).toBe("hello gzip");
  });

  it("times out a silent server and a body that never ends", async () => {
    const guarded = createGuardedFetch({ allowPrivate: true, timeoutMs: 300 });
    for (const path of ["/hang", "/slow-body"]) {
      const err = await rejection(guarded(`${api.origin}${path}`));
      expect(err.code).toBe("upstream_timeout");
      expect(err.message).toMatch(/no complete answer within 300 ms/);
    }
  });

  it("sends a text body with the bytes and content type fetch gives it", async () => {
    const guarded = createGuardedFetch({ allowPrivate: true });
    const text = JSON.stringify({ q: "héllo ✓ 😀" });
    await (await guarded(`${api.origin}/ok`, { method: "POST", body: text })).text();
    await (await fetch(`${api.origin}/ok`, { method: "POST", body: text })).text();
    const [ours, theirs] = api.seen.slice(-2);
    expect(ours.body).toBe(text);
    expect(ours.headers["content-type"]).toBe(theirs.headers["content-type"]);
    expect(ours.headers["content-length"]).toBe(theirs.headers["content-length"]);
  });

  it("a caller's abort ends the request with the caller's reason, not as a timeout", async () => {
    const guarded = createGuardedFetch({ allowPrivate: true, timeoutMs: 5_000 });
    const caller = new AbortController();
    const reason = new Error("the client went away");
    setTimeout(() => caller.abort(reason), 50);
    const started = Date.now();
    const err = await guarded(`${api.origin}/hang`, { signal: caller.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBe(reason);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("keeps the deadline on a streamed body until it ends, and a finished stream is left alone", async () => {
    const guarded = createGuardedFetch({ allowPrivate: true, timeoutMs: 300, streamResponse: true });
    const slow = await guarded(`${api.origin}/slow-body`);
    const err = await slow.text().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("upstream_timeout");
    const caller = new AbortController();
    const done = await guarded(`${api.origin}/ok`, { signal: caller.signal });
    expect(await done.text()).toMatch(/^ok GET/);
    caller.abort(); // after the body ended: nothing left to abort, nothing thrown
  });

  it("refuses other schemes, methods and hosts outside the allowed list", async () => {
    const guarded = createGuardedFetch({
      allowPrivate: true,
      allowedMethods: ["GET"],
      allowedHosts: [`127.0.0.1:${api.port}`],
    });
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1:70/"]) {
      expect((await rejection(guarded(url))).message).toMatch(/only http and https/);
    }
    expect((await rejection(guarded(`${api.origin}/ok`, { method: "DELETE" }))).message).toMatch(
      /method DELETE is not allowed/,
    );
    expect((await rejection(guarded(`${other.origin}/`))).message).toMatch(/not one of the allowed hosts/);
  });

  it("reports a refused connection as upstream_unavailable and fits where fetch is expected", async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const asFetch: typeof fetch = createGuardedFetch({ allowPrivate: true });
    const err = await rejection(asFetch(`${closed.origin}/`));
    expect(err.code).toBe("upstream_unavailable");
    expect(err.message).toMatch(/ECONNREFUSED/);
  });
});

// Self-signed certificate for "shop.example" (valid until 2125), so TLS can be checked offline.
const SHOP_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXp79cp37ksQ34bUz
SrADU2u2Thmuj6Ddo88EmZuzpgChRANCAAQJqgTvJm8946bpweVdSUtUVpmfuFFw
/kuPhGBTAIqJfmNPmDyJnwnNd2ewJe0IldL+M3Cygg1x5y3nzaLMtTDp
-----END PRIVATE KEY-----`;
const SHOP_CERT = `-----BEGIN CERTIFICATE-----
MIIBnjCCAUSgAwIBAgIUVAL9HAAmy/1+c24aHlNJb4+4de8wCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMc2hvcC5leGFtcGxlMCAXDTI2MTEyMjAwNDU1NVoYDzIxMjYx
MDI5MDA0NTU1WjAXMRUwEwYDVQQDDAxzaG9wLmV4YW1wbGUwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAAQJqgTvJm8946bpweVdSUtUVpmfuFFw/kuPhGBTAIqJfmNP
mDyJnwnNd2ewJe0IldL+M3Cygg1x5y3nzaLMtTDpo2wwajAdBgNVHQ4EFgQUUIUH
U3XTgWb798DDVDbT8nQGJp4wHwYDVR0jBBgwFoAUUIUHU3XTgWb798DDVDbT8nQG
Jp4wDwYDVR0TAQH/BAUwAwEB/zAXBgNVHREEEDAOggxzaG9wLmV4YW1wbGUwCgYI
KoZIzj0EAwIDSAAwRQIgfiOncdmEVPyrT+ii2cVcyzG65blXzygWp15f85IFzW4C
IQCIA/BxGq7qpbDCTYKDRqgSWU9I9o5vCy2mUTbTlZM8fQ==
-----END CERTIFICATE-----`;

describe("createGuardedFetch over https", () => {
  it("verifies the certificate against the URL's host name while connecting to the checked address", async () => {
    const server = https.createServer({ key: SHOP_KEY, cert: SHOP_CERT }, (req, res) => {
      res.end(`tls servername=${(req.socket as import("node:tls").TLSSocket).servername} host=${req.headers.host}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const previousCa = https.globalAgent.options.ca;
    https.globalAgent.options.ca = SHOP_CERT;
    try {
      const resolve = async () => [{ address: "127.0.0.1", family: 4 }];
      const guarded = createGuardedFetch({ allowPrivateHosts: ["shop.example"], resolve });
      expect(await (await guarded(`https://shop.example:${port}/`)).text()).toBe(
        `tls servername=shop.example host=shop.example:${port}`,
      );
      // The same server under another name fails certificate verification: the name is really checked.
      const wrongName = createGuardedFetch({ allowPrivateHosts: ["other.example"], resolve });
      expect((await rejection(wrongName(`https://other.example:${port}/`))).message).toMatch(/altnames|certificate/i);
    } finally {
      https.globalAgent.options.ca = previousCa;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("createGuardedRequest (the guard answering node's own response)", () => {
  it("applies the same policy: private hosts refused, redirects re-checked, the caller's host header kept", async () => {
    const err = await rejection(createGuardedRequest()(`${api.origin}/ok`));
    expect(err.code).toBe("forbidden");
    const guarded = createGuardedRequest({ allowPrivateHosts: [`127.0.0.1:${api.port}`] });
    expect((await rejection(guarded(`${api.origin}/to-metadata`))).code).toBe("forbidden");
    const answer = await createGuardedRequest({ allowPrivate: true })(`${api.origin}/see-other`, {
      method: "POST",
      body: "x",
    });
    expect(answer.status).toBe(200);
    expect(answer.url.pathname).toBe("/ok");
    expect((await answer.bytes()).toString()).toMatch(/^ok GET host=127\.0\.0\.1:/);
  });

  it("reads bodies whole or as they arrive, decoded, refusing them over the cap either way", async () => {
    const guarded = createGuardedRequest({ allowPrivate: true, maxResponseBytes: 1000 });
    expect((await (await guarded(`${api.origin}/gzip`)).bytes()).toString()).toBe("hello gzip");
    for (const path of ["/big", "/big-chunked", "/bomb"]) {
      const whole = await rejection((await guarded(`${api.origin}${path}`)).bytes());
      expect(whole.message).toMatch(/larger than the 1000-byte limit/);
      const streamed = await rejection(
        (async () => {
          for await (const _ of (await guarded(`${api.origin}${path}`)).chunks());
        })(),
      );
      expect(streamed.message).toMatch(/larger than the 1000-byte limit/);
    }
    const parts: string[] = [];
    for await (const part of (await guarded(`${api.origin}/gzip`)).chunks()) parts.push(part.toString());
    expect(parts.join("")).toBe("hello gzip");
  });

  it("keeps the deadline until the body is over, fails a cut body, and lets a reader leave early", async () => {
    const guarded = createGuardedRequest({ allowPrivate: true, timeoutMs: 300 });
    const slow = await guarded(`${api.origin}/slow-body`);
    const late = await rejection(
      (async () => {
        for await (const _ of slow.chunks());
      })(),
    );
    expect(late.code).toBe("upstream_timeout");
    const cut = await rejection((await guarded(`${api.origin}/cut`)).bytes());
    expect(cut.code).toBe("upstream_unavailable"); // the connection was reset mid-body (ECONNRESET)
    // Leaving after the first part: the read ends there, and no deadline fires later.
    const caller = new AbortController();
    const left = await createGuardedRequest({ allowPrivate: true, timeoutMs: 5_000 })(`${api.origin}/slow-body`, {
      signal: caller.signal,
    });
    for await (const part of left.chunks()) {
      expect(part.toString()).toBe("partial");
      break;
    }
    // Released: nothing listens to the caller's signal any more (the deadline's timer is cleared with it).
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    await expect(left.bytes()).rejects.toThrow(/already read/);
  });

  it("a body left just before its end is read out, so the next call uses the same connection; one that goes on is cut", async () => {
    const guarded = createGuardedRequest({ allowPrivate: true });
    const leaveAtFirst = async (path: string) => {
      for await (const part of (await guarded(`${api.origin}${path}`)).chunks()) {
        expect(part.toString()).toMatch(/^data: /);
        break;
      }
    };
    const before = api.connections();
    for (let i = 0; i < 3; i += 1) {
      await leaveAtFirst("/sse-done");
      // The body's end is written right after [DONE]; the margin is for a loaded machine.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expect((await guarded(`${api.origin}/ok`)).bytes()).resolves.toBeDefined();
    expect(api.connections() - before).toBe(1); // four calls, one connection (closing it: four)
    // A stream that goes on after its reader left: its connection is closed once LEFT_BODY_BYTES are
    // read out (well before LEFT_BODY_MS).
    const closed = new Promise<void>((resolve) => (foreverClosed = resolve));
    const left = Date.now();
    await leaveAtFirst("/sse-forever");
    await closed;
    expect(Date.now() - left).toBeLessThan(LEFT_BODY_MS);
    await expect((await guarded(`${api.origin}/ok`)).bytes()).resolves.toBeDefined();
    expect(api.connections() - before).toBe(2); // the cut connection is not used again: a new one
  });
});
